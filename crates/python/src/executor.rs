//! `DesktopExecutor`'s engine: arc-core's `Executor` over the given backend and policy
//! (Rust parts taken from their slots, Python objects wrapped in adapters).

use crate::adapters::{PyBackend, PyPolicy};
use crate::convert;
use crate::parts::{put, take, Part, RustBackend, RustPolicy, Slot};
use crate::runtime::runtime;
use crate::scope;
use arc_core::{
    CancelHandle, ExecutionResult, Policy, RunOptions, RuntimeConfig, SettleConfig, Snapshot,
    StepEvent, StepOutcome,
};
use pyo3::exceptions::{PyRuntimeError, PyStopIteration, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Parts = (Box<dyn Part>, Box<dyn Policy>);
/// Where the Rust parts go back after a run.
type Homes = (Option<Slot<dyn Part>>, Option<Slot<dyn Policy>>);

#[pyclass(module = "arc_cua._native")]
pub struct Executor {
    backend: Py<PyAny>,
    policy: Py<PyAny>,
    /// The running run's handle; `cancel` between runs has no effect, as in the reference
    /// (each run starts uncancelled).
    cancel: Arc<Mutex<Option<CancelHandle>>>,
}

fn seconds(v: Bound<'_, PyAny>, name: &str) -> PyResult<Duration> {
    let s: f64 = v.extract()?;
    if !(s.is_finite() && s >= 0.0) || s > 86_400.0 {
        return Err(PyValueError::new_err(format!(
            "RuntimeConfig.{name} must be within 0..=86400 seconds, got {s}"
        )));
    }
    Ok(Duration::from_secs_f64(s))
}

fn count(v: Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    v.extract::<u32>()
        .map_err(|_| PyValueError::new_err(format!("RuntimeConfig.{name} must be an integer >= 0")))
}

/// The reference's `RuntimeConfig` as arc-core's.
fn config(cfg: &Bound<'_, PyAny>, verify: Option<Py<PyAny>>) -> PyResult<RuntimeConfig> {
    let get = |name: &str| cfg.getattr(name);
    let mut out = RuntimeConfig {
        stale_retries: count(get("stale_retries")?, "stale_retries")?,
        no_change_limit: count(get("no_change_limit")?, "no_change_limit")?,
        ..RuntimeConfig::default()
    };
    if out.no_change_limit == 0 {
        return Err(PyValueError::new_err(
            "RuntimeConfig.no_change_limit must be >= 1",
        ));
    }
    out.settle = SettleConfig {
        poll: seconds(get("settle_poll_s")?, "settle_poll_s")?,
        quiet: seconds(get("settle_quiet_s")?, "settle_quiet_s")?,
        reaction: seconds(get("settle_reaction_s")?, "settle_reaction_s")?,
        cap: seconds(get("settle_timeout_s")?, "settle_timeout_s")?,
    };
    out.late_reaction = seconds(get("late_reaction_s")?, "late_reaction_s")?;
    let timeout = get("timeout_s")?;
    if !timeout.is_none() {
        out.timeout = Some(seconds(timeout, "timeout_s")?);
    }
    let threshold = |name: &str| -> PyResult<Option<f64>> {
        let v = get(name)?;
        (!v.is_none()).then(|| v.extract()).transpose()
    };
    let options = RunOptions {
        dry_run: get("dry_run")?.is_truthy()?,
        min_confidence: threshold("min_confidence")?,
        min_margin: threshold("min_margin")?,
        late_reaction: None,
    };
    let mut out = options
        .apply(out)
        .map_err(|e| PyValueError::new_err(format!("RuntimeConfig.{e}")))?;
    let verify = match get("verify")? {
        v if !v.is_none() => Some(v.unbind()),
        _ => verify,
    };
    if let Some(f) = verify {
        out.verify = Some(Arc::new(move |snap: &Snapshot, _: &arc_core::Subtask| {
            Python::attach(|py| {
                let call = || -> PyResult<bool> {
                    let s = convert::snapshot_to_py(py, snap)?;
                    let t = scope::subtask(py).ok_or_else(|| PyRuntimeError::new_err("no run"))?;
                    f.bind(py).call1((s, t))?.is_truthy()
                };
                call().unwrap_or_else(|e| {
                    scope::fail(e);
                    false
                })
            })
        }));
    }
    Ok(out)
}

impl Executor {
    fn parts(&self, py: Python<'_>) -> PyResult<(Parts, Homes)> {
        let b = self.backend.bind(py);
        let (backend, bhome): (Box<dyn Part>, _) = match b.cast::<RustBackend>() {
            Ok(rust) => {
                let rust = rust.borrow();
                if let Some(flag) = &rust.stale_cache {
                    flag.store(true, Ordering::Relaxed);
                }
                (take(&rust.slot, "the backend")?, Some(rust.slot.clone()))
            }
            Err(_) => (Box::new(PyBackend::new(b)?), None),
        };
        let p = self.policy.bind(py);
        let (policy, phome): (Box<dyn Policy>, _) = match p.cast::<RustPolicy>() {
            Ok(rust) => {
                let rust = rust.borrow();
                match take(&rust.slot, "the policy") {
                    Ok(policy) => (policy, Some(rust.slot.clone())),
                    Err(e) => {
                        if let Some(home) = &bhome {
                            put(home, backend);
                        }
                        return Err(e);
                    }
                }
            }
            Err(_) => (Box::new(PyPolicy::new(p)), None),
        };
        Ok(((backend, policy), (bhome, phome)))
    }
}

fn home((backend, policy): Parts, (bhome, phome): Homes) {
    if let Some(h) = bhome {
        put(&h, backend);
    }
    if let Some(h) = phome {
        put(&h, policy);
    }
}

/// One core event as the reference's `StepEvent`; stale cycles yield none (the
/// reference re-observes without an event).
fn event_to_py<'py>(
    py: Python<'py>,
    event: &StepEvent,
    subtask: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("step", event.cycle)?;
    kwargs.set_item("snapshot", convert::snapshot_to_py(py, &event.snapshot)?)?;
    match &event.outcome {
        StepOutcome::Stale { .. } => return Ok(None),
        StepOutcome::Acted { record } => {
            // The record carries the step's decision and action: decoded once, shared.
            let rec = convert::record_to_py(py, record)?;
            let decision = match &event.decision {
                Some(d) if *d != record.decision => convert::decision_to_py(py, d)?,
                _ => rec.getattr(intern!(py, "decision"))?,
            };
            kwargs.set_item("decision", decision)?;
            kwargs.set_item("action", rec.getattr(intern!(py, "action"))?)?;
            kwargs.set_item("record", rec)?;
        }
        StepOutcome::Finished { result } => {
            let decision = match &event.decision {
                Some(d) => convert::decision_to_py(py, d)?,
                None => convert::decision_to_py(py, &arc_core::Decision::terminal(result.status))?,
            };
            kwargs.set_item("decision", decision)?;
            kwargs.set_item(
                "result",
                convert::result_to_py(py, result, subtask, &event.snapshot)?,
            )?;
        }
    }
    static STEP_EVENT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cls = convert::model_class(py, &STEP_EVENT, "StepEvent")?;
    Ok(Some(cls.call((), Some(&kwargs))?))
}

#[pymethods]
impl Executor {
    #[new]
    fn new(backend: Py<PyAny>, policy: Py<PyAny>) -> Self {
        Executor {
            backend,
            policy,
            cancel: Arc::new(Mutex::new(None)),
        }
    }

    /// Runs `subtask` to a terminal status; raises what the reference raises.
    #[pyo3(signature = (subtask, config, verify=None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        subtask: Bound<'py, PyAny>,
        config: Bound<'py, PyAny>,
        verify: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let task = convert::subtask(&subtask)?;
        let cfg = self::config(&config, verify)?;
        let ((backend, policy), homes) = self.parts(py)?;
        let mut exec = arc_core::Executor::new(backend, policy, cfg);
        *self.cancel.lock().unwrap_or_else(|e| e.into_inner()) = Some(exec.cancel_handle());
        scope::begin(subtask.clone().unbind());
        let mut last: Option<Arc<Snapshot>> = None;
        let result: ExecutionResult = py.detach(|| {
            runtime().block_on(exec.run_with(&task, |ev| {
                if ev.is_terminal() {
                    last = Some(ev.snapshot.clone());
                }
            }))
        });
        *self.cancel.lock().unwrap_or_else(|e| e.into_inner()) = None;
        home(exec.into_parts(), homes);
        let converted = match scope::failed() {
            true => None,
            false => Some(convert::result_to_py(
                py,
                &result,
                &subtask,
                &last.unwrap_or_else(|| Arc::new(Snapshot::empty())),
            )),
        };
        if let Some(err) = scope::end() {
            return Err(err);
        }
        converted.expect("converted when no exception was kept")
    }

    /// Starts `subtask` on its own thread; the returned iterator yields each step's
    /// `StepEvent` as it happens (the loop waits for the reader: one event in flight).
    #[pyo3(signature = (subtask, config, verify=None))]
    fn run_iter(
        &self,
        py: Python<'_>,
        subtask: Bound<'_, PyAny>,
        config: Bound<'_, PyAny>,
        verify: Option<Py<PyAny>>,
    ) -> PyResult<EventIter> {
        let task = convert::subtask(&subtask)?;
        let cfg = self::config(&config, verify)?;
        let ((backend, policy), homes) = self.parts(py)?;
        let mut exec = arc_core::Executor::new(backend, policy, cfg);
        let handle = exec.cancel_handle();
        *self.cancel.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle.clone());
        let (tx, rx) = sync_channel::<PyResult<Py<PyAny>>>(0);
        let subtask = subtask.unbind();
        let cancel = self.cancel.clone();
        std::thread::Builder::new()
            .name("arc-cua-run".into())
            .spawn(move || {
                Python::attach(|py| scope::begin(subtask.clone_ref(py)));
                runtime().block_on(exec.run_with(&task, |ev| {
                    let msg = Python::attach(|py| {
                        if ev.is_terminal() {
                            if let Some(err) = scope::end() {
                                return Some(Err(err));
                            }
                        }
                        event_to_py(py, &ev, subtask.bind(py))
                            .map(|e| e.map(Bound::unbind))
                            .transpose()
                    });
                    if let Some(msg) = msg {
                        // The reader went away: stop the run at the next step.
                        if tx.send(msg).is_err() {
                            handle.cancel();
                        }
                    }
                }));
                *cancel.lock().unwrap_or_else(|e| e.into_inner()) = None;
                home(exec.into_parts(), homes);
                Python::attach(|_| drop(scope::end()));
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the run thread: {e}")))?;
        Ok(EventIter {
            rx: Mutex::new(Some(rx)),
        })
    }

    /// Thread-safe: the running run stops after its current action (recorded).
    fn cancel(&self) {
        if let Some(h) = self
            .cancel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            h.cancel();
        }
    }
}

#[pyclass(module = "arc_cua._native")]
pub struct EventIter {
    rx: Mutex<Option<Receiver<PyResult<Py<PyAny>>>>>,
}

#[pymethods]
impl EventIter {
    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut guard = self.rx.lock().unwrap_or_else(|e| e.into_inner());
        let Some(rx) = guard.take() else {
            return Err(PyStopIteration::new_err(()));
        };
        // Waiting without the GIL: the run's thread needs it to build the event.
        let (rx, got) = py.detach(move || {
            let got = rx.recv();
            (rx, got)
        });
        *guard = Some(rx);
        match got {
            Ok(Ok(event)) => Ok(event),
            Ok(Err(err)) => {
                *guard = None;
                Err(err)
            }
            Err(_) => {
                *guard = None;
                Err(PyStopIteration::new_err(()))
            }
        }
    }
}
