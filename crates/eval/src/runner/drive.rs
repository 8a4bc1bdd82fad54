//! One executor run under a mode's policy stack, with the step events folded into what
//! the harness records (trace, stale retries, screenshots, tier counts).

use super::shots::Latest;
use super::timed::Timed;
use crate::result::{DecidedBy, Mode, StepTrace, TierTally};
use arc_core::{
    Backend, ExecutionResult, Executor, Policy, RuntimeConfig, StepEvent, StepOutcome, Subtask,
};
use arc_policy::{Cascade, ReflexPolicy, TierCounts};

/// What a run left behind.
pub(crate) struct Driven<B> {
    pub backend: B,
    pub result: ExecutionResult,
    pub trace: Vec<StepTrace>,
    pub stale_retries: u32,
    pub decision_latency_us: Vec<u64>,
    /// The cascade's counts; none in reflex-only mode.
    pub counts: Option<TierCounts>,
}

pub(crate) async fn drive<B: Backend>(
    backend: B,
    mode: Mode,
    subtask: &Subtask,
    config: RuntimeConfig,
    shots: Option<Latest>,
) -> Driven<B> {
    match mode {
        Mode::Reflex => {
            let reflex = ReflexPolicy::new();
            let tier = Some(DecidedBy::Reflex);
            let (d, _) = execute(backend, reflex, tier, subtask, config, shots).await;
            d
        }
        Mode::Cascade => {
            // No model and no cache: an escalation hands the step back as NEEDS_AGENT.
            let cascade = Cascade::new(Box::new(ReflexPolicy::default()));
            // The tier comes from each decision's `raw.tier`.
            let (mut d, cascade) = execute(backend, cascade, None, subtask, config, shots).await;
            d.counts = Some(cascade.counts());
            d
        }
    }
}

/// `tier`: who decides when the decisions do not say (a lone policy).
async fn execute<B: Backend, P: Policy>(
    backend: B,
    policy: P,
    tier: Option<DecidedBy>,
    subtask: &Subtask,
    config: RuntimeConfig,
    shots: Option<Latest>,
) -> (Driven<B>, P) {
    let mut executor = Executor::new(backend, Timed::new(policy), config);
    let mut trace = Vec::new();
    let mut stale_retries = 0;
    let result = executor
        .run_with(subtask, |event: StepEvent| match event.outcome {
            StepOutcome::Acted { record } => {
                let screenshot = shots
                    .as_ref()
                    .and_then(|l| l.lock().unwrap_or_else(|p| p.into_inner()).take());
                trace.push(StepTrace {
                    step: record.step,
                    action: record.action.kind(),
                    target: record.target_name.clone(),
                    state_changed: record.state_changed,
                    elapsed_ms: record.elapsed_ms,
                    settle_ms: record.settle.elapsed_ms,
                    decided_by: decided_by(&record.decision).or(tier),
                    screenshot,
                });
            }
            StepOutcome::Stale { .. } => stale_retries += 1,
            StepOutcome::Finished { .. } => {}
        })
        .await;
    let (backend, timed) = executor.into_parts();
    let driven = Driven {
        backend,
        result,
        trace,
        stale_retries,
        decision_latency_us: timed.latencies_us,
        counts: None,
    };
    (driven, timed.inner)
}

/// The cascade writes the deciding tier into the decision's `raw.tier`.
fn decided_by(decision: &arc_core::Decision) -> Option<DecidedBy> {
    let tier = decision.raw.as_ref()?.get("tier")?.clone();
    serde_json::from_value(tier).ok()
}

impl From<TierCounts> for TierTally {
    fn from(c: TierCounts) -> Self {
        TierTally {
            reflex: c.reflex,
            cache: c.cache,
            model: c.model,
            controller: c.controller,
        }
    }
}
