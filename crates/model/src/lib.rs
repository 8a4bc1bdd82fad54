//! The model tier: one request per step to a language model that picks among the legal
//! operations of the current snapshot.
//!
//! The request carries the compact view and a schema built from the snapshot's *legal*
//! action space ([`ActionSpace`]): an `operation` head (the offered kinds + the
//! terminals), one target head per operation listing only ids that offer it, input-key,
//! key, hotkey and scroll heads, and one SATISFIED / NOT_SATISFIED / UNKNOWN head per
//! verification criterion. The model answers every head at once (speculative fan-out);
//! only the heads of the chosen operation are consumed, and SUBTASK_COMPLETE stands only
//! when every criterion head says SATISFIED.
//!
//! Two wire formats share that space and its interpretation:
//! - [`OpenAiPolicy`]: any OpenAI-compatible `/chat/completions` endpoint (hosted, vLLM,
//!   llama.cpp, Ollama) with a strict `json_schema` response format;
//! - [`JevPolicy`]: the reference's TypeSafe JEV format (`questions` of type `choice`,
//!   answers with `choice` / `confidence` / `probabilities`).
//!
//! Invariants: a secret input's literal never leaves the process (it is `[secret]` in
//! every request); every wait is bounded (per-request timeout, bounded retries, one
//! re-ask); every failure is a [`arc_core::PolicyError`] with a reason, never a panic.

mod answer;
mod config;
mod heads;
mod http;
mod jev;
mod jev_wire;
mod judge;
mod openai;
mod ordered;
mod prompt;
mod recovery;
mod schema;
mod space;
mod stats;
mod step;

pub use config::{ApiKey, ConfigError, ModelConfig, ModelFlags, Provider};
pub use heads::{Head, Operation, Verdict};
pub use jev::{JevAsk, JevPolicy};
pub use jev_wire::{validate_choice, ChoiceAnswer};
pub use openai::OpenAiPolicy;
pub use schema::DecisionSchema;
pub use space::{ActionSpace, SpaceLimits};
pub use stats::{Dialect, ModelStats, ModelStatsSnapshot};
