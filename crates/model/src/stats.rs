//! What the model tier cost: calls, retries, re-asks, failures and tokens. The handle is
//! shared, so a caller keeps a clone and reads it after the policy moved into an
//! executor.

use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct ModelStats(Arc<Counters>);

#[derive(Debug, Default)]
struct Counters {
    decisions: AtomicU64,
    requests: AtomicU64,
    retries: AtomicU64,
    reasks: AtomicU64,
    failures: AtomicU64,
    judgments: AtomicU64,
    /// The endpoint refused `json_schema` and took `json_object` with the schema beside it.
    json_object: AtomicBool,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
    total_tokens: AtomicU64,
}

/// How a request asks for schema-constrained output. OpenAI's form first; llama-cpp-python's
/// server (and others) answer it with an error and take the schema beside `json_object`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    #[default]
    JsonSchema,
    JsonObject,
}

/// A plain copy of the counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ModelStatsSnapshot {
    /// `decide` calls that returned a decision.
    pub decisions: u64,
    /// HTTP requests sent (every attempt, retries and re-asks included).
    pub requests: u64,
    /// Attempts repeated after a 429, a 5xx or a connection failure.
    pub retries: u64,
    /// Answers rejected once and asked again.
    pub reasks: u64,
    /// `decide` calls that ended in a `PolicyError`.
    pub failures: u64,
    /// Judgments answered (criteria the reflex could not read, put to the model).
    pub judgments: u64,
    /// How the answer's schema was sent: the structured-output dialect the endpoint took.
    pub response_format: Dialect,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub total_tokens: u64,
}

impl ModelStats {
    /// Runs one decision, stamping its latency and counting it as made or failed.
    pub async fn timed(
        &self,
        ask: impl std::future::Future<Output = Result<arc_core::Decision, arc_core::PolicyError>>,
    ) -> Result<arc_core::Decision, arc_core::PolicyError> {
        let started = std::time::Instant::now();
        match ask.await {
            Ok(mut decision) => {
                self.decision();
                decision.latency_ms = Some(started.elapsed().as_millis() as u64);
                Ok(decision)
            }
            Err(e) => {
                self.failure();
                Err(e)
            }
        }
    }

    pub fn snapshot(&self) -> ModelStatsSnapshot {
        let c = &self.0;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        ModelStatsSnapshot {
            decisions: get(&c.decisions),
            requests: get(&c.requests),
            retries: get(&c.retries),
            reasks: get(&c.reasks),
            failures: get(&c.failures),
            judgments: get(&c.judgments),
            response_format: self.dialect(),
            prompt_tokens: get(&c.prompt_tokens),
            completion_tokens: get(&c.completion_tokens),
            total_tokens: get(&c.total_tokens),
        }
    }

    pub(crate) fn decision(&self) {
        self.0.decisions.fetch_add(1, Ordering::Relaxed);
    }
    pub(crate) fn request(&self) {
        self.0.requests.fetch_add(1, Ordering::Relaxed);
    }
    pub(crate) fn retry(&self) {
        self.0.retries.fetch_add(1, Ordering::Relaxed);
    }
    pub(crate) fn reask(&self) {
        self.0.reasks.fetch_add(1, Ordering::Relaxed);
    }
    /// The dialect requests are sent in (OpenAI's `json_schema` until an endpoint refuses it).
    pub fn dialect(&self) -> Dialect {
        if self.0.json_object.load(Ordering::Relaxed) {
            Dialect::JsonObject
        } else {
            Dialect::JsonSchema
        }
    }
    pub(crate) fn use_json_object(&self) {
        self.0.json_object.store(true, Ordering::Relaxed);
    }
    pub(crate) fn judgment(&self) {
        self.0.judgments.fetch_add(1, Ordering::Relaxed);
    }
    pub(crate) fn failure(&self) {
        self.0.failures.fetch_add(1, Ordering::Relaxed);
    }

    /// Adds one response's `usage`; a missing total is the sum of its parts.
    pub(crate) fn tokens(&self, prompt: u64, completion: u64, total: Option<u64>) {
        let c = &self.0;
        c.prompt_tokens.fetch_add(prompt, Ordering::Relaxed);
        c.completion_tokens.fetch_add(completion, Ordering::Relaxed);
        c.total_tokens
            .fetch_add(total.unwrap_or(prompt + completion), Ordering::Relaxed);
    }
}

/// A response's token counts (OpenAI's `usage`; JEV is assumed to use the same shape).
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub(crate) struct Usage {
    #[serde(default)]
    pub prompt_tokens: u64,
    #[serde(default)]
    pub completion_tokens: u64,
    #[serde(default)]
    pub total_tokens: Option<u64>,
}

impl ModelStats {
    pub(crate) fn usage(&self, usage: Option<Usage>) {
        if let Some(u) = usage {
            self.tokens(u.prompt_tokens, u.completion_tokens, u.total_tokens);
        }
    }
}
