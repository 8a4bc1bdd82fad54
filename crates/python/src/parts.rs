//! The Rust backends and policies Python can hand to the executor (the fast path): each
//! a Python class over a slot the executor takes its part out of for a run and puts back.

use arc_core::{Backend, Policy};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

pub type Slot<T> = Arc<Mutex<Option<Box<T>>>>;

pub fn slot<T: ?Sized>(part: Box<T>) -> Slot<T> {
    Arc::new(Mutex::new(Some(part)))
}

/// Takes the part out for one run; a part can serve one run at a time.
pub fn take<T: ?Sized>(slot: &Slot<T>, what: &str) -> PyResult<Box<T>> {
    slot.lock()
        .map_err(|_| PyRuntimeError::new_err(format!("{what} is unusable after a panic")))?
        .take()
        .ok_or_else(|| {
            PyRuntimeError::new_err(format!(
                "{what} is in use by another run (or was closed); one run at a time"
            ))
        })
}

pub fn put<T: ?Sized>(slot: &Slot<T>, part: Box<T>) {
    if let Ok(mut s) = slot.lock() {
        *s = Some(part);
    }
}

/// A backend the executor can run and its Python class can still reach by type
/// (`ChromeBackend.navigate` needs the `BrowserBackend` back).
pub trait Part: Backend + Any {
    fn as_any(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<T: Backend + Any> Part for T {
    fn as_any(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// The base class of every Rust backend.
#[pyclass(subclass, module = "arc_cua._native")]
pub struct RustBackend {
    pub slot: Slot<dyn Part>,
    /// Set before each run: a state machine re-reads its state (it may have been edited).
    pub stale_cache: Option<Arc<AtomicBool>>,
}

/// The base class of every Rust policy.
#[pyclass(subclass, module = "arc_cua._native")]
pub struct RustPolicy {
    pub slot: Slot<dyn Policy>,
}
