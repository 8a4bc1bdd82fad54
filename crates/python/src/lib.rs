//! `arc_cua._native`: the Rust half of the Python package `arc_cua` (the pure-Python
//! half is `python/arc_cua`). It runs arc-core's loop, the browser backend and the
//! policies; the value types stay Python dataclasses, judged by arc-core's rules.

mod adapters;
mod browser;
mod choice;
mod convert;
mod element;
mod executor;
mod machine;
mod parts;
mod policies;
mod result;
mod rules;
mod runtime;
mod scope;

use arc_core::Redactor;
use pyo3::prelude::*;

/// Checks a `Subtask` by arc-core's contract; ValueError names the field.
#[pyfunction]
fn check_subtask(subtask: &Bound<'_, PyAny>) -> PyResult<()> {
    convert::subtask(subtask).map(drop)
}

/// Checks a planner's payload (a mapping) by arc-core's contract: unknown fields,
/// missing ones, every rule; ValueError names the field.
#[pyfunction]
fn check_payload(payload: &Bound<'_, PyAny>) -> PyResult<()> {
    convert::subtask_payload(payload).map(drop)
}

/// Checks a `Decision` by arc-core's rules (those the reference applies on construction);
/// ValueError names the field.
#[pyfunction]
fn check_decision(decision: &Bound<'_, PyAny>) -> PyResult<()> {
    convert::decision_shape(decision)
}

/// The planner-facing summary, as the result's `final_snapshot` carries it (redacted).
#[pyfunction]
fn snapshot_compact<'py>(snapshot: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let snap = convert::snapshot(snapshot)?;
    let compact = Redactor::default().compact(&snap);
    let text = serde_json::to_string(&compact)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    convert::json_to_py(snapshot.py(), text)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_subtask, m)?)?;
    m.add_function(wrap_pyfunction!(check_payload, m)?)?;
    m.add_function(wrap_pyfunction!(check_decision, m)?)?;
    m.add_function(wrap_pyfunction!(snapshot_compact, m)?)?;
    m.add_function(wrap_pyfunction!(rules::risks_of, m)?)?;
    m.add_function(wrap_pyfunction!(rules::materialize, m)?)?;
    m.add_function(wrap_pyfunction!(result::result_json, m)?)?;
    m.add_class::<element::DesktopElement>()?;
    m.add_class::<parts::RustBackend>()?;
    m.add_class::<parts::RustPolicy>()?;
    m.add_class::<machine::StateMachineBackend>()?;
    m.add_class::<machine::BenchMachine>()?;
    m.add_class::<browser::ChromeBackend>()?;
    m.add_class::<policies::ScriptedPolicy>()?;
    m.add_class::<policies::ReflexPolicy>()?;
    m.add_class::<policies::OpenAICompatiblePolicy>()?;
    m.add_class::<policies::TypeSafeJevPolicy>()?;
    m.add_class::<policies::CascadePolicy>()?;
    m.add_class::<choice::ChoicePolicy>()?;
    m.add_class::<executor::Executor>()?;
    m.add_class::<executor::EventIter>()?;
    Ok(())
}
