//! A backend driven by a state machine: the caller gives the initial state, a function
//! from state to snapshot and a transition function.

use arc_core::{Backend, BackendError, ExecutableAction, Executed, SettleSample, Snapshot};
use async_trait::async_trait;
use xxhash_rust::xxh3::xxh3_64;

pub type SnapshotFn<S> = Box<dyn Fn(&S) -> Snapshot + Send + Sync>;
pub type TransitionFn<S> =
    Box<dyn FnMut(&mut S, &ExecutableAction) -> Result<(), BackendError> + Send>;
pub type BusyFn<S> = Box<dyn Fn(&S) -> bool + Send + Sync>;

pub struct StateMachineBackend<S> {
    state: S,
    snapshot: SnapshotFn<S>,
    transition: TransitionFn<S>,
    busy: Option<BusyFn<S>>,
    executed: u32,
}

impl<S: Send> StateMachineBackend<S> {
    pub fn new(
        state: S,
        snapshot: impl Fn(&S) -> Snapshot + Send + Sync + 'static,
        transition: impl FnMut(&mut S, &ExecutableAction) -> Result<(), BackendError> + Send + 'static,
    ) -> Self {
        StateMachineBackend {
            state,
            snapshot: Box::new(snapshot),
            transition: Box::new(transition),
            busy: None,
            executed: 0,
        }
    }

    /// Reports the state as busy (pending work) while `busy` holds; settling waits for it.
    pub fn with_busy(mut self, busy: impl Fn(&S) -> bool + Send + Sync + 'static) -> Self {
        self.busy = Some(Box::new(busy));
        self
    }

    pub fn state(&self) -> &S {
        &self.state
    }

    pub fn state_mut(&mut self) -> &mut S {
        &mut self.state
    }

    /// How many actions reached the transition function (a TYPE_TEXT with a submit key is
    /// two: the typing, then the key).
    pub fn executed(&self) -> u32 {
        self.executed
    }
}

#[async_trait]
impl<S: Send + Sync> Backend for StateMachineBackend<S> {
    fn name(&self) -> &'static str {
        "sim"
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        Ok((self.snapshot)(&self.state))
    }

    async fn is_fresh(
        &mut self,
        _observed: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        let now = (self.snapshot)(&self.state);
        let pairs = [
            (action.target(), action.target_guard.as_ref()),
            (
                action.action.secondary_target(),
                action.secondary_target_guard.as_ref(),
            ),
        ];
        for (id, guard) in pairs {
            if let (Some(id), Some(guard)) = (id, guard) {
                match now.element(id.as_str()) {
                    Some(el) if el.effective_guard() == *guard => {}
                    _ => return Ok(false),
                }
            }
        }
        Ok(true)
    }

    async fn execute(
        &mut self,
        _observed: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        if let Some(id) = action.target() {
            if (self.snapshot)(&self.state).element(id.as_str()).is_none() {
                return Err(BackendError::stale(Some(id), "target is gone"));
            }
        }
        self.executed += 1;
        (self.transition)(&mut self.state, action)?;
        // A key after typing reaches the transition as the reference's executor hands it
        // on: the typing (carrying its key), then the key press on what was typed.
        if let Some(press) = action.submit_press() {
            self.executed += 1;
            (self.transition)(&mut self.state, &press)?;
        }
        Ok(Executed::default())
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        let snapshot = (self.snapshot)(&self.state);
        Ok(SettleSample {
            fingerprint: xxh3_64(snapshot.revision.as_bytes()),
            busy: self.busy.as_ref().is_some_and(|b| b(&self.state)),
        })
    }
}
