//! Decision tiers, fastest first: the reflex policy (`arc-reflex`: local, deterministic,
//! sub-millisecond), the selector cache (replays a finished subtask with zero model calls),
//! the model policy (`arc-model`: any OpenAI-compatible endpoint, or the reference's JEV
//! wire format), and the cascade that runs them in order under the monitors' and the
//! escalation controller's word. The reflex and the model are re-exported under their
//! old paths (`arc_policy::reflex`, `arc_policy::model`).
//!
//! Invariant: no policy here ever learns which task, test or benchmark it is in beyond
//! what the subtask itself says.

pub mod cache;
pub mod cascade;
mod judging;
#[cfg(test)]
mod name_agreement;
mod recovery_queue;
pub mod stack;
pub mod trajectory;

pub use arc_model as model;
pub use arc_reflex as reflex;

pub use cascade::{Cascade, TierCounts};
pub use model::{
    JevAsk, JevPolicy, ModelConfig, ModelFlags, ModelStats, ModelStatsSnapshot, OpenAiPolicy,
    Provider,
};
pub use reflex::ReflexPolicy;
