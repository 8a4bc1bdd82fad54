//! The policies in the box: the reference's `ScriptedPolicy`, and this runtime's reflex,
//! OpenAI-compatible, JEV and cascade policies (arc-policy), as Python classes.

use crate::convert;
use crate::parts::{slot, take, RustPolicy};
use crate::scope;
use arc_core::{DecideContext, Decision, Policy, PolicyError, Tier};
use arc_policy::model::{ModelConfig, ModelFlags, Provider};
use arc_policy::stack::{self, ModelTier};
use arc_policy::{JevPolicy, OpenAiPolicy, ReflexPolicy as Reflex};
use async_trait::async_trait;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Script = Arc<Mutex<VecDeque<Decision>>>;

const EXHAUSTED: &str = "ScriptedPolicy ran out of decisions";

struct Scripted(Script);

#[async_trait]
impl Policy for Scripted {
    fn name(&self) -> &'static str {
        "scripted"
    }

    async fn decide(&mut self, _ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let next = self.0.lock().ok().and_then(|mut s| s.pop_front());
        match next {
            Some(d) => Ok(d.by(Tier::Script, "scripted")),
            None => {
                // The reference raises out of `run` here; so do we.
                scope::fail(PyRuntimeError::new_err(EXHAUSTED));
                Err(PolicyError::new(EXHAUSTED))
            }
        }
    }
}

/// Hands out its decisions in order; raises RuntimeError when it runs out.
#[pyclass(extends = RustPolicy, module = "arc_cua._native")]
pub struct ScriptedPolicy {
    script: Script,
}

#[pymethods]
impl ScriptedPolicy {
    #[new]
    fn new(decisions: Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let mut script = VecDeque::new();
        for d in decisions.try_iter()? {
            script.push_back(convert::decision(&d?)?);
        }
        let script = Arc::new(Mutex::new(script));
        let base = RustPolicy {
            slot: slot(Box::new(Scripted(script.clone())) as Box<dyn Policy>),
        };
        Ok(PyClassInitializer::from(base).add_subclass(ScriptedPolicy { script }))
    }

    /// The protocol's `decide`, for callers that drive the policy themselves.
    #[pyo3(signature = (*, subtask, snapshot, history))]
    fn decide<'py>(
        &self,
        py: Python<'py>,
        subtask: Bound<'py, PyAny>,
        snapshot: Bound<'py, PyAny>,
        history: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = (subtask, snapshot, history);
        let next = self.script.lock().ok().and_then(|mut s| s.pop_front());
        match next {
            Some(d) => convert::decision_to_py(py, &d),
            None => Err(PyRuntimeError::new_err(EXHAUSTED)),
        }
    }

    fn __len__(&self) -> usize {
        self.script.lock().map(|s| s.len()).unwrap_or(0)
    }
}

fn rust_policy<T>(policy: Box<dyn Policy>, sub: T) -> PyClassInitializer<T>
where
    T: pyo3::PyClass<BaseType = RustPolicy>,
{
    PyClassInitializer::from(RustPolicy { slot: slot(policy) }).add_subclass(sub)
}

/// The reflex: local, deterministic, no model (arc-policy's `ReflexPolicy`).
#[pyclass(extends = RustPolicy, module = "arc_cua._native")]
pub struct ReflexPolicy;

#[pymethods]
impl ReflexPolicy {
    #[new]
    fn new() -> PyClassInitializer<Self> {
        rust_policy(Box::new(Reflex::new()), ReflexPolicy)
    }
}

fn model_config(
    provider: Provider,
    base_url: Option<String>,
    model: Option<String>,
    api_key: Option<String>,
    timeout_s: Option<f64>,
) -> PyResult<ModelConfig> {
    let flags = ModelFlags {
        base_url,
        model,
        api_key,
    };
    let mut config = ModelConfig::resolve(provider, &flags, |v| std::env::var(v).ok())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if let Some(t) = timeout_s {
        if !(t.is_finite() && t > 0.0 && t <= 600.0) {
            return Err(PyValueError::new_err(format!(
                "timeout_s must be within (0, 600] seconds, got {t}"
            )));
        }
        config = config.with_timeout(Duration::from_secs_f64(t));
    }
    config
        .validate()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(config)
}

/// Any OpenAI-compatible chat endpoint; unset arguments come from `ARC_CUA_MODEL_BASE_URL`,
/// `ARC_CUA_MODEL`, `ARC_CUA_MODEL_API_KEY` / `OPENAI_API_KEY`.
#[pyclass(extends = RustPolicy, module = "arc_cua._native")]
pub struct OpenAICompatiblePolicy;

#[pymethods]
impl OpenAICompatiblePolicy {
    #[new]
    #[pyo3(signature = (*, base_url=None, model=None, api_key=None, timeout_s=None))]
    fn new(
        base_url: Option<String>,
        model: Option<String>,
        api_key: Option<String>,
        timeout_s: Option<f64>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let config = model_config(Provider::OpenAi, base_url, model, api_key, timeout_s)?;
        let policy = OpenAiPolicy::new(config).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(rust_policy(Box::new(policy), OpenAICompatiblePolicy))
    }
}

/// The reference's TypeSafe JEV wire format; unset arguments come from
/// `TYPESAFE_BASE_URL`, `TYPESAFE_MODEL`, `TYPESAFE_API_KEY`, as the reference reads them.
#[pyclass(extends = RustPolicy, module = "arc_cua._native")]
pub struct TypeSafeJevPolicy;

#[pymethods]
impl TypeSafeJevPolicy {
    #[new]
    #[pyo3(signature = (api_key=None, model=None, base_url=None, timeout_s=12.0))]
    fn new(
        api_key: Option<String>,
        model: Option<String>,
        base_url: Option<String>,
        timeout_s: Option<f64>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let config = model_config(Provider::TypeSafe, base_url, model, api_key, timeout_s)?;
        let policy = JevPolicy::new(config).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(rust_policy(Box::new(policy), TypeSafeJevPolicy))
    }
}

/// Reflex first, then the model (when given) on what the reflex hands back, with a
/// selector cache in memory for the session.
#[pyclass(extends = RustPolicy, module = "arc_cua._native")]
pub struct CascadePolicy;

#[pymethods]
impl CascadePolicy {
    #[new]
    #[pyo3(signature = (model=None))]
    fn new(model: Option<Bound<'_, RustPolicy>>) -> PyResult<PyClassInitializer<Self>> {
        let model = match model {
            Some(model) => ModelTier::Policy(take(&model.borrow().slot, "the model policy")?),
            None => ModelTier::None,
        };
        let cascade = stack::cascade(model, Some(arc_policy::cache::SelectorCache::in_memory()))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(rust_policy(Box::new(cascade), CascadePolicy))
    }
}
