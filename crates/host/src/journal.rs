//! The action journal: every dispatch of a session is recorded planned → dispatched →
//! confirmed / failed / unknown. An unknown outcome (the page or browser went away after
//! dispatch) is reported as `completion_unknown` and never retried by the host.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Mutex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JournalState {
    Planned,
    /// Handed to the browser; the outcome is not known yet.
    Dispatched,
    Confirmed,
    /// The backend reported that it did not act (stale target, illegal action).
    NotDone,
    /// Dispatched, then the answer never came: it may have happened.
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    pub seq: u64,
    /// The action's kind and target (never its literal: that may be a secret).
    pub what: String,
    pub state: JournalState,
}

/// Entries a session keeps (the oldest are dropped first).
const KEEP: usize = 256;

#[derive(Debug, Default)]
pub struct Journal {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    next: u64,
    entries: VecDeque<JournalEntry>,
}

impl Journal {
    pub fn plan(&self, what: String) -> u64 {
        let mut inner = self.lock();
        inner.next += 1;
        let seq = inner.next;
        if inner.entries.len() == KEEP {
            inner.entries.pop_front();
        }
        inner.entries.push_back(JournalEntry {
            seq,
            what,
            state: JournalState::Planned,
        });
        seq
    }

    /// Moves an entry on. Only forward: a settled entry never changes again.
    pub fn mark(&self, seq: u64, state: JournalState) {
        let mut inner = self.lock();
        if let Some(e) = inner.entries.iter_mut().find(|e| e.seq == seq) {
            if matches!(e.state, JournalState::Planned | JournalState::Dispatched) {
                e.state = state;
            }
        }
    }

    pub fn entries(&self) -> Vec<JournalEntry> {
        self.lock().entries.iter().cloned().collect()
    }

    pub fn last(&self) -> Option<JournalEntry> {
        self.lock().entries.back().cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
