//! What one run shares between the Python adapters and the executor, kept per thread: a
//! run is polled to completion on the thread that started it (`block_on`), so every
//! adapter call of that run happens on that thread.

use pyo3::prelude::*;
use std::cell::RefCell;
use std::collections::VecDeque;

/// Python snapshots kept by revision, so an event or a Python policy gets the object the
/// Python backend returned (no conversion back) — bounded: only the latest few matter.
const KEPT_SNAPSHOTS: usize = 4;

#[derive(Default)]
struct Scope {
    /// The first Python exception the reference would have propagated out of `run`.
    error: Option<PyErr>,
    snapshots: VecDeque<(String, Py<PyAny>)>,
    subtask: Option<Py<PyAny>>,
    /// The run's history as Python records, converted once each.
    history: Vec<Py<PyAny>>,
}

thread_local! {
    static SCOPE: RefCell<Scope> = RefCell::new(Scope::default());
}

/// Starts a run's scope on this thread (dropping whatever a previous run left).
pub fn begin(subtask: Py<PyAny>) {
    SCOPE.with(|s| {
        *s.borrow_mut() = Scope {
            subtask: Some(subtask),
            ..Scope::default()
        }
    });
}

/// Ends the run's scope; returns the exception to raise, if one was kept.
pub fn end() -> Option<PyErr> {
    SCOPE.with(|s| std::mem::take(&mut *s.borrow_mut()).error)
}

/// Keeps the first exception only: later ones are consequences of it.
pub fn fail(err: PyErr) {
    SCOPE.with(|s| {
        let mut s = s.borrow_mut();
        if s.error.is_none() {
            s.error = Some(err);
        }
    });
}

pub fn failed() -> bool {
    SCOPE.with(|s| s.borrow().error.is_some())
}

pub fn keep_snapshot(revision: &str, snapshot: &Bound<'_, PyAny>) {
    SCOPE.with(|s| {
        let mut s = s.borrow_mut();
        if s.snapshots.iter().any(|(r, _)| r == revision) {
            return;
        }
        if s.snapshots.len() == KEPT_SNAPSHOTS {
            s.snapshots.pop_front();
        }
        s.snapshots
            .push_back((revision.to_owned(), snapshot.clone().unbind()));
    });
}

pub fn snapshot<'py>(py: Python<'py>, revision: &str) -> Option<Bound<'py, PyAny>> {
    SCOPE.with(|s| {
        s.borrow()
            .snapshots
            .iter()
            .rev()
            .find(|(r, _)| r == revision)
            .map(|(_, o)| o.bind(py).clone())
    })
}

pub fn subtask<'py>(py: Python<'py>) -> Option<Bound<'py, PyAny>> {
    SCOPE.with(|s| s.borrow().subtask.as_ref().map(|o| o.bind(py).clone()))
}

/// The Python history for `records`, converting only the records not seen before.
pub fn history<'py>(
    py: Python<'py>,
    records: &[arc_core::ActionRecord],
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let known = SCOPE.with(|s| s.borrow().history.len());
    let mut fresh = Vec::new();
    for record in records.iter().skip(known) {
        fresh.push(crate::convert::record_to_py(py, record)?.unbind());
    }
    SCOPE.with(|s| {
        let mut s = s.borrow_mut();
        s.history.extend(fresh);
        Ok(s.history.iter().map(|o| o.bind(py).clone()).collect())
    })
}
