//! Decision tiers, fastest first: the reflex policy (local, deterministic, sub-millisecond),
//! the selector cache (replays a finished subtask with zero model calls), the model policy
//! (any OpenAI-compatible endpoint, or the reference's JEV wire format), and the cascade
//! that runs them in order under the monitors' and the escalation controller's word.
//!
//! Invariant: no policy here ever learns which task, test or benchmark it is in beyond
//! what the subtask itself says.

pub mod cache;
pub mod cascade;
mod judging;
pub mod model;
mod recovery_queue;
pub mod reflex;
pub mod stack;
pub mod trajectory;

pub use cascade::{Cascade, TierCounts};
pub use model::{
    JevAsk, JevPolicy, ModelConfig, ModelFlags, ModelStats, ModelStatsSnapshot, OpenAiPolicy,
    Provider,
};
pub use reflex::ReflexPolicy;
