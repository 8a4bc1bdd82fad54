//! `StateMachineBackend` (the reference's, with its Python snapshot factory and
//! transition) and `BenchMachine` (the same scenario written in Rust, for the benchmark).
//!
//! Both keep the snapshot of the current state until a transition runs: a state machine's
//! snapshot is a function of its state, so the reference's repeated factory calls (in
//! `is_fresh`, in `execute`, after the action) would only rebuild the same snapshot. A
//! `StateMachineBackend` given a `settle_probe` (the reference's sign of an app that
//! changes on its own, while it works) settles on it and reads the factory at every
//! observation.

use crate::adapters::{execute_error, observed};
use crate::convert;
use crate::parts::{slot, RustBackend};
use arc_core::{
    ActionKind, Backend, BackendError, Element, ExecutableAction, Executed, Role, SettleSample,
    Snapshot, Source,
};
use async_trait::async_trait;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use xxhash_rust::xxh3::xxh3_64;

/// Whether `current` is the state `seen` and still shows each (id, guard) as guarded.
fn same_state(
    current: &Snapshot,
    seen: &Snapshot,
    pairs: [(Option<&str>, Option<&str>); 2],
) -> bool {
    current.revision == seen.revision
        && pairs.into_iter().all(|(id, guard)| match (id, guard) {
            (Some(id), Some(guard)) => current
                .element(id)
                .is_some_and(|el| el.effective_guard().0 == guard),
            _ => true,
        })
}

fn guards_hold(current: &Snapshot, seen: &Snapshot, action: &ExecutableAction) -> bool {
    same_state(
        current,
        seen,
        [
            (
                action.target().map(|i| i.as_str()),
                action.target_guard.as_ref().map(|g| g.0.as_str()),
            ),
            (
                action.action.secondary_target().map(|i| i.as_str()),
                action.secondary_target_guard.as_ref().map(|g| g.0.as_str()),
            ),
        ],
    )
}

fn probe(snapshot: &Snapshot) -> SettleSample {
    SettleSample {
        fingerprint: xxh3_64(snapshot.revision.as_bytes()),
        busy: false,
    }
}

/// A Python callable set as the machine's `settle_probe` attribute, shared with the class.
type Probe = Arc<Mutex<Option<Py<PyAny>>>>;

struct Machine {
    state: Py<PyAny>,
    factory: Py<PyAny>,
    transition: Py<PyAny>,
    cached: Option<Snapshot>,
    stale_cache: Arc<AtomicBool>,
    probe: Probe,
}

impl Machine {
    /// The probe, if set (the GIL first, then the lock: the setter's order).
    fn probe(&self) -> Option<Py<PyAny>> {
        Python::attach(|py| {
            let probe = self.probe.lock().ok()?;
            probe.as_ref().map(|p| p.clone_ref(py))
        })
    }
}

impl Machine {
    /// The current state's snapshot, borrowed: only `observe` hands out a copy (a copy is
    /// every element's strings; a step also reads it in `is_fresh`, `execute`, the probes).
    fn current(&mut self) -> Result<&Snapshot, BackendError> {
        if self.stale_cache.swap(false, Ordering::Relaxed) {
            self.cached = None;
        }
        if let Some(snap) = self.cached.take() {
            return Ok(self.cached.insert(snap));
        }
        let snap = Python::attach(|py| {
            let made = self.factory.bind(py).call1((self.state.bind(py),));
            match made.and_then(|s| observed(&s)) {
                Ok(s) => Ok(s),
                Err(e) => {
                    let text = e.to_string();
                    crate::scope::fail(e);
                    Err(BackendError::failed(format!(
                        "snapshot_factory raised {text}"
                    )))
                }
            }
        })?;
        Ok(self.cached.insert(snap))
    }
}

#[async_trait]
impl Backend for Machine {
    fn name(&self) -> &'static str {
        "state_machine"
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        if self.probe().is_some() {
            // An app that changes on its own: what it shows now, not what it showed.
            self.cached = None;
        }
        self.current().cloned()
    }

    async fn is_fresh(
        &mut self,
        seen: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        Ok(guards_hold(self.current()?, seen, action))
    }

    async fn execute(
        &mut self,
        seen: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        if !guards_hold(self.current()?, seen, action) {
            return Err(BackendError::stale(
                action.target(),
                "Memory desktop changed before execution",
            ));
        }
        // Whatever the transition did, even half of it, the state may have changed.
        self.cached = None;
        Python::attach(|py| {
            let step = |action: &ExecutableAction| {
                let act =
                    convert::action_to_py(py, action).map_err(|e| execute_error(py, action, e))?;
                self.transition
                    .bind(py)
                    .call1((self.state.bind(py), act))
                    .map(drop)
                    .map_err(|e| execute_error(py, action, e))
            };
            step(action)?;
            // A key after typing: the transition gets the PRESS_KEY next, on the typed
            // state (the reference's executor sends it so).
            if let Some(press) = action.submit_press() {
                step(&press)?;
            }
            Ok(Executed::default())
        })
    }

    /// The `settle_probe` set on the machine (its value hashed; a failing probe is a
    /// constant, as the reference ignores it), else the state's snapshot's revision.
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        match self.probe() {
            Some(probe) => Ok(SettleSample {
                fingerprint: Python::attach(|py| {
                    let value = probe.bind(py).call0().and_then(|v| v.repr());
                    value.map_or(0, |r| xxh3_64(r.to_string().as_bytes()))
                }),
                busy: false,
            }),
            None => Ok(probe(self.current()?)),
        }
    }
}

/// The reference's deterministic backend: `snapshot_factory(state)` maps the state to a
/// snapshot, `transition(state, action)` mutates it.
#[pyclass(extends = RustBackend, module = "arc_cua._native")]
pub struct StateMachineBackend {
    #[pyo3(get)]
    state: Py<PyAny>,
    #[pyo3(get)]
    snapshot_factory: Py<PyAny>,
    #[pyo3(get)]
    transition: Py<PyAny>,
    probe: Probe,
}

#[pymethods]
impl StateMachineBackend {
    #[new]
    fn new(
        py: Python<'_>,
        initial_state: Bound<'_, PyAny>,
        snapshot_factory: Bound<'_, PyAny>,
        transition: Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let state = py
            .import("copy")?
            .getattr("deepcopy")?
            .call1((initial_state,))?;
        let stale_cache = Arc::new(AtomicBool::new(true));
        let probe = Probe::default();
        let machine = Machine {
            state: state.clone().unbind(),
            factory: snapshot_factory.clone().unbind(),
            transition: transition.clone().unbind(),
            cached: None,
            stale_cache: stale_cache.clone(),
            probe: probe.clone(),
        };
        let base = RustBackend {
            slot: slot(Box::new(machine) as Box<dyn crate::parts::Part>),
            stale_cache: Some(stale_cache),
        };
        Ok(
            PyClassInitializer::from(base).add_subclass(StateMachineBackend {
                state: state.unbind(),
                snapshot_factory: snapshot_factory.unbind(),
                transition: transition.unbind(),
                probe,
            }),
        )
    }

    /// A callable returning a cheap value that changes while the app reacts (the
    /// reference's optional backend method): settling compares its values, and every
    /// observation reads the factory anew. None unless set.
    #[getter]
    fn settle_probe(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        let probe = self.probe.lock().ok()?;
        probe.as_ref().map(|p| p.clone_ref(py))
    }

    #[setter]
    fn set_settle_probe(&self, probe: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let mut slot = self
            .probe
            .lock()
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("settle_probe poisoned"))?;
        *slot = probe.map(Bound::unbind);
        Ok(())
    }

    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.snapshot_factory.bind(py).call1((self.state.bind(py),))
    }

    fn is_fresh(
        &self,
        py: Python<'_>,
        snapshot: Bound<'_, PyAny>,
        action: Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let current = convert::snapshot(&self.observe(py)?)?;
        let seen = convert::snapshot(&snapshot)?;
        let attr = |name: &str| -> PyResult<Option<String>> { action.getattr(name)?.extract() };
        let (t, tg) = (attr("target_id")?, attr("target_guard")?);
        let (s, sg) = (
            attr("secondary_target_id")?,
            attr("secondary_target_guard")?,
        );
        Ok(same_state(
            &current,
            &seen,
            [(t.as_deref(), tg.as_deref()), (s.as_deref(), sg.as_deref())],
        ))
    }

    fn execute(
        &self,
        py: Python<'_>,
        snapshot: Bound<'_, PyAny>,
        action: Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if !self.is_fresh(py, snapshot, action.clone())? {
            return Err(convert::error(
                py,
                "StaleDesktopState",
                "Memory desktop changed before execution".into(),
            ));
        }
        self.transition
            .bind(py)
            .call1((self.state.bind(py), action))?;
        Ok(())
    }
}

/// The benchmark's scenario in Rust: `n` elements (every tenth a button that offers
/// CLICK), names that carry the scroll offset, SCROLL moves it by one.
struct Bench {
    /// The ids, made once: an element's id does not change with the state.
    ids: Vec<arc_core::ElementId>,
    offset: u64,
    cached: Option<Snapshot>,
}

impl Bench {
    /// As `Machine::current`: borrowed, copied only by `observe`.
    fn current(&mut self) -> &Snapshot {
        let offset = self.offset;
        self.cached.get_or_insert_with(|| {
            let elements: Vec<Element> = self
                .ids
                .iter()
                .enumerate()
                .map(|(i, id)| {
                    let button = i % 10 == 0;
                    let role = if button {
                        Role::Button
                    } else {
                        Role::StaticText
                    };
                    let mut e =
                        Element::new(id.clone(), role, format!("Element number {i} at {offset}"));
                    if button {
                        e.actions = [ActionKind::Click].into_iter().collect();
                    }
                    e.source = Source::Sim;
                    e
                })
                .collect();
            Snapshot::with_revision("Bench", "Main", offset.to_string(), elements)
        })
    }
}

#[async_trait]
impl Backend for Bench {
    fn name(&self) -> &'static str {
        "bench"
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        Ok(self.current().clone())
    }
    async fn is_fresh(
        &mut self,
        seen: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        Ok(guards_hold(self.current(), seen, action))
    }
    async fn execute(
        &mut self,
        _seen: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        if action.kind() == ActionKind::Scroll {
            self.offset += 1;
            self.cached = None;
        }
        Ok(Executed::default())
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        Ok(probe(self.current()))
    }
}

/// The benchmark's state machine written in Rust (not part of the reference's API).
#[pyclass(extends = RustBackend, module = "arc_cua._native")]
pub struct BenchMachine;

#[pymethods]
impl BenchMachine {
    #[new]
    fn new(n: usize) -> PyClassInitializer<Self> {
        let bench = Bench {
            ids: (0..n).map(|i| format!("e{i}").into()).collect(),
            offset: 0,
            cached: None,
        };
        let base = RustBackend {
            slot: slot(Box::new(bench) as Box<dyn crate::parts::Part>),
            stale_cache: None,
        };
        PyClassInitializer::from(base).add_subclass(BenchMachine)
    }
}
