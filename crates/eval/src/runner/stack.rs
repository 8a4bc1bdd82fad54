//! The policy stack one run drives: which decisions it makes and, afterwards, what the
//! harness can read back from it (the cascade's tier counts).

use crate::result::Mode;
use arc_core::{DecideContext, Decision, ExecutionResult, Policy, PolicyError};
use arc_policy::stack::{self, ModelTier};
use arc_policy::{Cascade, ReflexPolicy, TierCounts};
use arc_policy::{ModelConfig, ModelStats, ModelStatsSnapshot, OpenAiPolicy};
use async_trait::async_trait;

pub enum Stack {
    /// `ReflexPolicy` alone: every decision is the reflex tier's.
    Reflex(ReflexPolicy),
    /// The cascade over the reflex policy (with a model when the mode has one; its
    /// counters beside it): its tier counts and the model's cost are read after the run.
    Cascade(Box<Cascade>, Option<ModelStats>),
    /// Any other policy (a test's script); the deciding tier is whatever a decision's
    /// provenance says, if anything.
    Other(Box<dyn Policy>),
}

impl Stack {
    /// A fresh stack for one run (no memory carried between runs), without a model.
    pub fn new(mode: Mode) -> Stack {
        Stack::for_run(mode, None)
    }

    /// A fresh stack for one run; `model` serves `Mode::CascadeModel`. A model that cannot
    /// be reached through this configuration makes every decision a policy error naming
    /// why (the run's record says so), never a silent run without it.
    pub fn for_run(mode: Mode, model: Option<&ModelConfig>) -> Stack {
        match (mode, model) {
            (Mode::Reflex, _) => Stack::Reflex(ReflexPolicy::new()),
            (Mode::Cascade, _) => Stack::Cascade(Box::new(stack::without_model(None)), None),
            (Mode::CascadeModel, None) => Stack::Other(Box::new(Unbuilt(PolicyError::new(
                "mode cascade+model needs a model configuration",
            )))),
            (Mode::CascadeModel, Some(config)) => {
                let built = OpenAiPolicy::new(config.clone()).and_then(|model| {
                    let stats = model.stats();
                    let cascade = stack::cascade(ModelTier::Policy(Box::new(model)), None)?;
                    Ok(Stack::Cascade(Box::new(cascade), Some(stats)))
                });
                built.unwrap_or_else(|e| Stack::Other(Box::new(Unbuilt(e))))
            }
        }
    }

    /// What the model cost this run: its counters, when the stack has a model.
    pub(crate) fn model_stats(&self) -> Option<ModelStatsSnapshot> {
        match self {
            Stack::Cascade(_, Some(stats)) => Some(stats.snapshot()),
            _ => None,
        }
    }

    /// The cascade's counts (escalations, model calls, decisions per tier).
    pub(crate) fn counts(&self) -> Option<TierCounts> {
        match self {
            Stack::Cascade(c, _) => Some(c.counts()),
            Stack::Reflex(_) | Stack::Other(_) => None,
        }
    }
}

impl From<Mode> for Stack {
    fn from(mode: Mode) -> Stack {
        Stack::new(mode)
    }
}

impl From<Box<dyn Policy>> for Stack {
    fn from(policy: Box<dyn Policy>) -> Stack {
        Stack::Other(policy)
    }
}

#[async_trait]
impl Policy for Stack {
    fn name(&self) -> &'static str {
        match self {
            Stack::Reflex(p) => p.name(),
            Stack::Cascade(p, _) => p.name(),
            Stack::Other(p) => p.name(),
        }
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        match self {
            Stack::Reflex(p) => p.decide(ctx).await,
            Stack::Cascade(p, _) => p.decide(ctx).await,
            Stack::Other(p) => p.decide(ctx).await,
        }
    }

    fn finish(&mut self, result: &ExecutionResult) {
        match self {
            Stack::Reflex(p) => p.finish(result),
            Stack::Cascade(p, _) => p.finish(result),
            Stack::Other(p) => p.finish(result),
        }
    }
}

/// A stack that could not be built: every decision is the error that says why.
struct Unbuilt(PolicyError);

#[async_trait]
impl Policy for Unbuilt {
    fn name(&self) -> &'static str {
        "unbuilt"
    }

    async fn decide(&mut self, _ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        Err(self.0.clone())
    }
}
