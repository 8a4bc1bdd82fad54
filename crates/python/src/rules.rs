//! arc-core's rules asked one at a time, for `arc_cua.safety` and `arc_cua.validation`:
//! the risk words a label carries, and a decision validated against a snapshot.

use crate::convert;
use arc_core::{ActionKind, ExecutableAction, Risk, Scalar};
use pyo3::prelude::*;

/// The risks (`"delete"`, `"send"`, `"purchase"`, `"close"`) whose words `label` carries
/// as whole words: the same gate the loop refuses risky presses with.
#[pyfunction]
pub fn risks_of(label: &str) -> Vec<&'static str> {
    Risk::all_in(label).into_iter().map(Risk::as_str).collect()
}

/// The decision validated against `snapshot` and its literal resolved from `subtask`, as
/// the loop does before acting; `InvalidDecision` names the field otherwise.
#[pyfunction]
pub fn materialize<'py>(
    decision: &Bound<'py, PyAny>,
    snapshot: &Bound<'py, PyAny>,
    subtask: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = decision.py();
    // What construction left to this check (a click modifier, a key after typing) is
    // refused here, as the reference's validation refuses it.
    let decision = convert::decision(decision)
        .map_err(|e| convert::error(py, "DecisionRefused", e.value(py).to_string()))?;
    let Some(action) = decision.action() else {
        let message = "Terminal decision cannot be materialized as an action".to_owned();
        return Err(convert::error(py, "InvalidDecision", message));
    };
    let snapshot = convert::snapshot(snapshot)?;
    let subtask = convert::subtask(subtask)?;
    let mut action = ExecutableAction::materialize(action, &snapshot, &subtask).map_err(|e| {
        convert::error(
            py,
            "InvalidDecision",
            format!("Decision.{}: {}", e.field, e.message),
        )
    })?;
    // What TYPE_TEXT types is text: the literal 42 is typed as "42".
    if action.kind() == ActionKind::TypeText {
        action.value = Some(Scalar::Text(action.text().into_owned()));
    }
    convert::action_to_py(py, &action)
}
