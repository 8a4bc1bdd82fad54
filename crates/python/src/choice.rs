//! The reference's `ChoicePolicy(transport)`: arc-policy's JEV policy (the questions, the
//! risk and secret rules, the answer checks) asking through a Python transport's
//! `ask(state, questions, *, images=())` instead of HTTP.

use crate::convert;
use crate::parts::{put, slot, take, RustPolicy};
use crate::runtime::runtime;
use crate::scope;
use arc_core::{DecideContext, Policy, PolicyError};
use arc_policy::model::ModelConfig;
use arc_policy::{JevAsk, JevPolicy};
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

/// The model name the request would carry; a transport decides where it goes.
const MODEL: &str = "jev-latest";

struct PyTransport(Py<PyAny>);

impl JevAsk for PyTransport {
    fn ask(
        &self,
        state: serde_json::Value,
        questions: serde_json::Value,
    ) -> Result<String, PolicyError> {
        Python::attach(|py| {
            let call = || -> PyResult<String> {
                let state = convert::json_to_py(py, state.to_string())?;
                let questions = convert::json_to_py(py, questions.to_string())?;
                let kwargs = PyDict::new(py);
                kwargs.set_item(intern!(py, "images"), PyTuple::empty(py))?;
                let answer = self.0.bind(py).call_method(
                    intern!(py, "ask"),
                    (state, questions),
                    Some(&kwargs),
                )?;
                py.import("json")?
                    .getattr("dumps")?
                    .call1((answer,))?
                    .extract()
            };
            call().map_err(|err| {
                let text = err.to_string();
                // The reference lets a transport's exception out of `decide` and `run`.
                scope::fail(err);
                PolicyError::new(format!("transport.ask raised {text}"))
            })
        })
    }
}

#[pyclass(extends = RustPolicy, module = "arc_cua._native")]
pub struct ChoicePolicy;

#[pymethods]
impl ChoicePolicy {
    #[new]
    fn new(transport: Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        if !transport.hasattr(intern!(transport.py(), "ask"))? {
            return Err(PyValueError::new_err(
                "ChoicePolicy.transport: must have ask(state, questions, *, images=())",
            ));
        }
        let config = ModelConfig::new("transport:", MODEL);
        let policy = JevPolicy::with_asker(config, Box::new(PyTransport(transport.unbind())));
        let base = RustPolicy {
            slot: slot(Box::new(policy) as Box<dyn Policy>),
        };
        Ok(PyClassInitializer::from(base).add_subclass(ChoicePolicy))
    }

    /// The protocol's `decide`, for callers that drive the policy themselves.
    #[pyo3(signature = (*, subtask, snapshot, history))]
    fn decide<'py>(
        self_: PyRef<'py, Self>,
        subtask: Bound<'py, PyAny>,
        snapshot: Bound<'py, PyAny>,
        history: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = self_.py();
        let task = convert::subtask(&subtask)?;
        let snap = Arc::new(convert::snapshot(&snapshot)?);
        let records = convert::records(&history)?;
        let slot = self_.as_super().slot.clone();
        let mut policy = take(&slot, "the policy")?;
        scope::begin(subtask.clone().unbind());
        let ctx = DecideContext {
            subtask: &task,
            snapshot: &snap,
            history: &records,
            cycle: 1,
            verdict: None,
            recent: &[],
        };
        let decided = runtime().block_on(policy.decide(ctx));
        put(&slot, policy);
        let raised = scope::end();
        match (raised, decided) {
            (Some(err), _) => Err(err),
            (None, Ok(decision)) => convert::decision_to_py(py, &decision),
            (None, Err(e)) => Err(PyValueError::new_err(e.to_string())),
        }
    }
}
