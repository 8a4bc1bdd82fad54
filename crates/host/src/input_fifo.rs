//! Physical input from every session goes through one first-in, first-out queue, so two
//! agents never interleave their presses. tokio's `Mutex` is fair (waiters are served
//! in arrival order); the guard is held only while one action is dispatched, never
//! while settling or observing.

use tokio::sync::{Mutex, MutexGuard};

#[derive(Debug, Default)]
pub struct InputFifo {
    /// The page brought to the front last (input goes to the front page, as a person's
    /// would).
    turn: Mutex<Option<String>>,
}

pub type InputTurn<'a> = MutexGuard<'a, Option<String>>;

impl InputFifo {
    pub async fn acquire(&self) -> InputTurn<'_> {
        self.turn.lock().await
    }
}
