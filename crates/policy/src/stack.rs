//! The one place a run's policy stack is put together, for every front door (the CLI,
//! eval, the Python package, the host and its MCP server): the reflex, then the selector
//! cache, then the model when one is configured — which also judges the criteria the
//! reflex cannot read and plans recoveries when the monitors escalate (`cascade`).

use crate::cache::SelectorCache;
use crate::{Cascade, ModelConfig, OpenAiPolicy, ReflexPolicy};
use arc_core::{Policy, PolicyError};

/// Where the model tier comes from.
pub enum ModelTier {
    /// No model: what the reflex and the cache cannot do goes back to the planner.
    None,
    /// An OpenAI-compatible endpoint.
    Endpoint(ModelConfig),
    /// A policy built elsewhere (the Python package's model objects, a test's).
    Policy(Box<dyn Policy>),
}

impl From<Option<ModelConfig>> for ModelTier {
    fn from(config: Option<ModelConfig>) -> Self {
        config.map_or(ModelTier::None, ModelTier::Endpoint)
    }
}

/// The cascade over a fresh reflex, with the given model and selector cache.
pub fn cascade(model: ModelTier, cache: Option<SelectorCache>) -> Result<Cascade, PolicyError> {
    let mut cascade = without_model(None);
    match model {
        ModelTier::None => {}
        ModelTier::Endpoint(config) => {
            cascade = cascade.with_model(Box::new(OpenAiPolicy::new(config)?));
        }
        ModelTier::Policy(policy) => cascade = cascade.with_model(policy),
    }
    if let Some(cache) = cache {
        cascade = cascade.with_cache(cache);
    }
    Ok(cascade)
}

/// The cascade with no model: what the reflex and the cache cannot do goes back to the
/// planner. Cannot fail.
pub fn without_model(cache: Option<SelectorCache>) -> Cascade {
    let cascade = Cascade::new(Box::new(ReflexPolicy::new()));
    match cache {
        Some(cache) => cascade.with_cache(cache),
        None => cascade,
    }
}
