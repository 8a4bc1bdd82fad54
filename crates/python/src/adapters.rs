//! Any Python object that implements the reference's protocols, as arc-core's `Backend`
//! or `Policy`. Each call takes the GIL for the call only. An exception the reference
//! lets out of `run` is kept in the run's scope (and re-raised by the executor); the
//! loop sees a failure and ends.

use crate::convert;
use crate::scope;
use arc_core::{
    Backend, BackendError, DecideContext, Decision, ExecutableAction, Executed, Policy,
    PolicyError, SettleSample, Snapshot,
};
use async_trait::async_trait;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xxhash_rust::xxh3::xxh3_64;

/// Keeps `err` to re-raise and tells the loop the call failed.
fn propagate(what: &str, err: PyErr) -> BackendError {
    let text = err.to_string();
    scope::fail(err);
    BackendError::failed(format!("{what} raised {text}"))
}

/// How an exception from a Python `execute` (or transition) ends the step, as the
/// reference's executor decides: stale → re-observe; InvalidDecision and
/// TargetUnavailable → raised to the caller; anything else → NEEDS_AGENT.
pub fn execute_error(py: Python<'_>, action: &ExecutableAction, err: PyErr) -> BackendError {
    if convert::is_error(py, &err, "StaleDesktopState") {
        return BackendError::stale(action.target(), err.value(py).to_string());
    }
    if convert::is_error(py, &err, "InvalidDecision")
        || convert::is_error(py, &err, "TargetUnavailable")
    {
        return propagate("execute", err);
    }
    if convert::is_error(py, &err, "UnsupportedDesktopAction") {
        return BackendError::Unsupported {
            kind: action.kind(),
            backend: "python",
        };
    }
    let name = err
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".into());
    BackendError::failed(format!("Backend execution failed: {name}"))
}

/// A Python snapshot into arc-core's, remembered by revision for events and policies.
pub fn observed(obj: &Bound<'_, PyAny>) -> PyResult<Snapshot> {
    let snap = convert::snapshot(obj)?;
    scope::keep_snapshot(&snap.revision, obj);
    Ok(snap)
}

pub struct PyBackend {
    obj: Py<PyAny>,
    has_probe: bool,
}

impl PyBackend {
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Self> {
        let has_probe = obj.hasattr(intern!(obj.py(), "settle_probe"))?;
        Ok(PyBackend {
            obj: obj.clone().unbind(),
            has_probe,
        })
    }
}

#[async_trait]
impl Backend for PyBackend {
    fn name(&self) -> &'static str {
        "python"
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        Python::attach(|py| {
            let obj = self.obj.bind(py);
            match obj.call_method0(intern!(py, "observe")) {
                Ok(s) => observed(&s).map_err(|e| propagate("observe", e)),
                Err(e) => Err(propagate("observe", e)),
            }
        })
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        Python::attach(|py| {
            let call = || -> PyResult<bool> {
                let snap = convert::snapshot_to_py(py, snapshot)?;
                let act = convert::action_to_py(py, action)?;
                self.obj
                    .bind(py)
                    .call_method1(intern!(py, "is_fresh"), (snap, act))?
                    .is_truthy()
            };
            call().map_err(|e| propagate("is_fresh", e))
        })
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        Python::attach(|py| {
            let (snap, act) = match (
                convert::snapshot_to_py(py, snapshot),
                convert::action_to_py(py, action),
            ) {
                (Ok(s), Ok(a)) => (s, a),
                (Err(e), _) | (_, Err(e)) => return Err(propagate("execute", e)),
            };
            let obj = self.obj.bind(py);
            obj.call_method1(intern!(py, "execute"), (snap.clone(), act))
                .map_err(|e| execute_error(py, action, e))?;
            // A key after typing is a PRESS_KEY of its own, as the reference's executor
            // sends it: on the snapshot acted on, or (when the backend guards keys by
            // revision and calls that stale) on a fresh observation of the typed state.
            let Some(press) = action.submit_press() else {
                return Ok(Executed::default());
            };
            let key = convert::action_to_py(py, &press).map_err(|e| propagate("execute", e))?;
            let pressed = match obj.call_method1(intern!(py, "execute"), (snap, key.clone())) {
                Err(e) if convert::is_error(py, &e, "StaleDesktopState") => obj
                    .call_method0(intern!(py, "observe"))
                    .and_then(|now| obj.call_method1(intern!(py, "execute"), (now, key))),
                other => other,
            };
            pressed
                .map(|_| Executed::default())
                .map_err(|e| execute_error(py, &press, e))
        })
    }

    /// The backend's own `settle_probe` when it has one (its value hashed), else a
    /// fresh observation's revision, as the reference's observe-polling compares.
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        if !self.has_probe {
            let snapshot = self.observe().await?;
            return Ok(SettleSample {
                fingerprint: xxh3_64(snapshot.revision.as_bytes()),
                busy: false,
            });
        }
        Python::attach(|py| {
            let probe = self.obj.bind(py).call_method0(intern!(py, "settle_probe"));
            // A failed probe must not fail the action (the reference logs and goes on).
            let fingerprint = match probe.and_then(|p| p.repr()) {
                Ok(r) => xxh3_64(r.to_string().as_bytes()),
                Err(_) => 0,
            };
            Ok(SettleSample {
                fingerprint,
                busy: false,
            })
        })
    }
}

pub struct PyPolicy {
    obj: Py<PyAny>,
}

impl PyPolicy {
    pub fn new(obj: &Bound<'_, PyAny>) -> Self {
        PyPolicy {
            obj: obj.clone().unbind(),
        }
    }
}

#[async_trait]
impl Policy for PyPolicy {
    fn name(&self) -> &'static str {
        "python"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        Python::attach(|py| {
            let call = || -> PyResult<Decision> {
                let kwargs = PyDict::new(py);
                let subtask = scope::subtask(py)
                    .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("no run"))?;
                kwargs.set_item(intern!(py, "subtask"), subtask)?;
                kwargs.set_item(
                    intern!(py, "snapshot"),
                    convert::snapshot_to_py(py, ctx.snapshot)?,
                )?;
                let history = scope::history(py, ctx.history)?;
                kwargs.set_item(intern!(py, "history"), history)?;
                let answer =
                    self.obj
                        .bind(py)
                        .call_method(intern!(py, "decide"), (), Some(&kwargs))?;
                convert::decision(&answer)
            };
            call().map_err(|e| {
                let text = e.to_string();
                scope::fail(e);
                PolicyError::new(format!("decide raised {text}"))
            })
        })
    }
}
