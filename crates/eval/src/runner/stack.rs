//! The policy stack one run drives: which decisions it makes and, afterwards, what the
//! harness can read back from it (the cascade's tier counts).

use crate::result::Mode;
use arc_core::{DecideContext, Decision, ExecutionResult, Policy, PolicyError};
use arc_policy::stack;
use arc_policy::{Cascade, ReflexPolicy, TierCounts};
use async_trait::async_trait;

pub enum Stack {
    /// `ReflexPolicy` alone: every decision is the reflex tier's.
    Reflex(ReflexPolicy),
    /// The cascade over the reflex policy, no model and no cache: an escalation hands
    /// the step back as NEEDS_AGENT. Its tier counts are read after the run.
    Cascade(Box<Cascade>),
    /// Any other policy (a test's script); the deciding tier is whatever a decision's
    /// provenance says, if anything.
    Other(Box<dyn Policy>),
}

impl Stack {
    /// A fresh stack for one run (no memory carried between runs).
    pub fn new(mode: Mode) -> Stack {
        match mode {
            Mode::Reflex => Stack::Reflex(ReflexPolicy::new()),
            Mode::Cascade => Stack::Cascade(Box::new(stack::without_model(None))),
        }
    }

    /// The cascade's counts (escalations, model calls, decisions per tier).
    pub(crate) fn counts(&self) -> Option<TierCounts> {
        match self {
            Stack::Cascade(c) => Some(c.counts()),
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
            Stack::Cascade(p) => p.name(),
            Stack::Other(p) => p.name(),
        }
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        match self {
            Stack::Reflex(p) => p.decide(ctx).await,
            Stack::Cascade(p) => p.decide(ctx).await,
            Stack::Other(p) => p.decide(ctx).await,
        }
    }

    fn finish(&mut self, result: &ExecutionResult) {
        match self {
            Stack::Reflex(p) => p.finish(result),
            Stack::Cascade(p) => p.finish(result),
            Stack::Other(p) => p.finish(result),
        }
    }
}
