//! `result_to_dict` for an `ExecutionResult` built in Python (a run's own result keeps
//! the JSON arc-core wrote): the same `ExecutionResult` JSON, redacted by the same
//! `Redactor`.

use crate::convert;
use arc_core::{ExecutionResult, Redactor, TerminalKind, Termination};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::de::DeserializeOwned;

/// A Python value read as `T` through its JSON (enums by their wire names).
fn from_py<T: DeserializeOwned>(value: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let text: String = value
        .py()
        .import("json")?
        .getattr("dumps")?
        .call1((value,))?
        .extract()?;
    serde_json::from_str(&text)
        .map_err(|e| PyValueError::new_err(format!("ExecutionResult.{what}: {e}")))
}

/// The result as arc-core's JSON. A result made by hand has no termination code: it
/// ended on its own terminal decision.
#[pyfunction]
pub fn result_json(result: &Bound<'_, PyAny>) -> PyResult<String> {
    let get = |name: &str| result.getattr(name);
    let subtask = convert::subtask(&get("subtask")?)?;
    let snapshot = convert::snapshot(&get("final_snapshot")?)?;
    let history = convert::records(&get("history")?)?;
    let status: TerminalKind = from_py(&get("status")?, "status")?;
    let termination = get("termination")?;
    let termination = if termination.is_none() {
        Termination::TerminalDecision
    } else {
        from_py(&termination, "termination")?
    };
    let redactor = Redactor::for_subtask(&subtask);
    redactor.learn(&snapshot);
    let mut out = ExecutionResult {
        status,
        actions_taken: history.len() as u32,
        reason: get("reason")?.extract()?,
        observations: get("observations")?.extract()?,
        history,
        final_snapshot: redactor.compact(&snapshot),
        termination,
        elapsed_ms: 0,
        verification: from_py(&get("verification")?, "verification")?,
        planned_action: from_py(&get("planned_action")?, "planned_action")?,
        needs_input: from_py(&get("needs_input")?, "needs_input")?,
        downloads: from_py(&get("downloads")?, "downloads")?,
        needs_human: from_py(&get("needs_human")?, "needs_human")?,
    };
    redactor.result(&mut out);
    serde_json::to_string(&out).map_err(|e| PyValueError::new_err(e.to_string()))
}
