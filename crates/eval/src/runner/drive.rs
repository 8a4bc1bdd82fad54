//! One executor run of a policy [`Stack`], with the step events folded into what the
//! harness records (trace, stale retries, screenshots, decision latencies, tier counts).
//! Both runners (task files and MiniWoB++ episodes) go through [`drive`].

use super::shots::Latest;
use super::stack::Stack;
use super::timed::Timed;
use crate::result::{StepTrace, TierTally};
use arc_core::{
    Backend, ExecutionResult, Executor, Redactor, RuntimeConfig, StepEvent, StepOutcome, Subtask,
};
use arc_policy::TierCounts;

/// What a run left behind.
pub(crate) struct Driven<B> {
    pub backend: B,
    pub result: ExecutionResult,
    pub trace: Vec<StepTrace>,
    /// Stale events: decisions dropped because their target changed before the action.
    pub stale_retries: u32,
    pub decision_latency_us: Vec<u64>,
    /// The cascade's counts; none for other stacks.
    pub counts: Option<TierCounts>,
    /// The model's counters (calls, judgments, tokens) when the stack has a model.
    pub model: Option<arc_policy::ModelStatsSnapshot>,
    /// The run's redactor (with what it learned), for what the harness adds to a report.
    pub redactor: Redactor,
}

/// `shots`: where the backend leaves the capture of its latest observation, filed under
/// the step that observation records.
pub(crate) async fn drive<B: Backend>(
    backend: B,
    stack: Stack,
    subtask: &Subtask,
    config: RuntimeConfig,
    shots: Option<Latest>,
) -> Driven<B> {
    let redactor = Redactor::for_subtask(subtask);
    let mut executor =
        Executor::new(backend, Timed::new(stack), config).with_redactor(redactor.clone());
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
                    decided_by: record.decision.tier(),
                    screenshot,
                });
            }
            StepOutcome::Stale { .. } => stale_retries += 1,
            StepOutcome::Finished { .. } => {}
        })
        .await;
    let (backend, timed) = executor.into_parts();
    Driven {
        backend,
        result,
        trace,
        stale_retries,
        decision_latency_us: timed.latencies_us,
        counts: timed.inner.counts(),
        model: timed.inner.model_stats(),
        redactor,
    }
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
