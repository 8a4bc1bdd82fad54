//! Turning a run's measurements into a scored [`TaskResult`]: the task files' verdict
//! (status and assertions) here, MiniWoB++'s (the page's reward) in `miniwob::score`,
//! the same measurements and result for both.

use super::drive::Driven;
use crate::assert::AssertionOutcome;
use crate::result::{Screenshot, StepTrace, TaskResult, TierTally, Tokens};
use crate::task::{Category, Expectation, Task, TaskId};
use arc_core::{TerminalKind, Termination};
use std::time::Duration;

/// What a result is about, known before anything ran.
pub(crate) struct Head {
    pub id: TaskId,
    pub category: Category,
    pub position: usize,
    pub expected: Expectation,
    pub reference_steps: Option<u32>,
}

/// The measurements of one task, before scoring.
pub(crate) struct Measured {
    status: Option<TerminalKind>,
    termination: Option<Termination>,
    reason: Option<String>,
    verification: Vec<arc_core::Verdict>,
    error: Option<String>,
    assertions: Vec<AssertionOutcome>,
    steps: u32,
    step_latency_ms: Vec<u64>,
    decision_latency_us: Vec<u64>,
    stale_retries: u32,
    escalations: u32,
    local_recoveries: u32,
    model_calls: u32,
    tokens: Tokens,
    tiers: Option<TierTally>,
    run_ms: u64,
    trace: Vec<StepTrace>,
    start_screenshot: Option<Screenshot>,
}

impl Measured {
    /// The harness could not run the task (or not to the end).
    pub fn error(why: String) -> Measured {
        Measured {
            status: None,
            termination: None,
            reason: None,
            verification: Vec::new(),
            error: Some(why),
            assertions: Vec::new(),
            steps: 0,
            step_latency_ms: Vec::new(),
            decision_latency_us: Vec::new(),
            stale_retries: 0,
            escalations: 0,
            local_recoveries: 0,
            model_calls: 0,
            tokens: Tokens::default(),
            tiers: None,
            run_ms: 0,
            trace: Vec::new(),
            start_screenshot: None,
        }
    }

    /// A harness failure after the run (the page's reward could not be read); the first
    /// failure is the one kept.
    pub fn note_error(&mut self, why: String) {
        self.error.get_or_insert(why);
    }

    pub fn from_driven<B>(
        d: &Driven<B>,
        assertions: Vec<AssertionOutcome>,
        start_screenshot: Option<Screenshot>,
    ) -> Measured {
        let r = &d.result;
        let mut assertions = assertions;
        for a in &mut assertions {
            // The page's own text (a title, a field's value) may quote a secret, and so
            // may the task's expectation of it.
            d.redactor.redact_string(&mut a.message);
            if let Ok(mut v) = serde_json::to_value(&a.assertion) {
                d.redactor.json(&mut v);
                if let Ok(back) = serde_json::from_value(v) {
                    a.assertion = back;
                }
            }
        }
        Measured {
            status: Some(r.status),
            termination: Some(r.termination),
            reason: r.reason.clone(),
            verification: r.verification.clone(),
            error: None,
            assertions,
            steps: r.actions_taken,
            step_latency_ms: r.history.iter().map(|h| h.elapsed_ms).collect(),
            decision_latency_us: d.decision_latency_us.clone(),
            stale_retries: d.stale_retries,
            escalations: d.counts.map_or(0, |c| c.escalations),
            local_recoveries: d.counts.map_or(0, |c| c.local_recoveries),
            // Decisions the model made, and criteria it was asked to judge.
            model_calls: d.counts.map_or(0, |c| c.model)
                + d.model.map_or(0, |m| m.judgments as u32),
            tokens: d.model.map_or(Tokens::default(), |m| Tokens {
                input: m.prompt_tokens,
                output: m.completion_tokens,
            }),
            tiers: d.counts.map(TierTally::from),
            run_ms: r.elapsed_ms,
            trace: d.trace.clone(),
            start_screenshot,
        }
    }
}

/// Success: the status is one the task expects AND every assertion passed (judged in
/// the page, so a runtime that claims completion on an unchanged page still fails).
pub(crate) fn score(task: &Task, position: usize, m: Measured, wall: Duration) -> TaskResult {
    let status_ok = m.status.is_some_and(|s| task.expect.accepts(s));
    let asserted = !m.assertions.is_empty() && m.assertions.iter().all(|a| a.passed());
    let success = status_ok && asserted && m.error.is_none();
    let head = Head {
        id: task.id.clone(),
        category: task.category.clone(),
        position,
        expected: task.expect.clone(),
        reference_steps: task.reference_steps,
    };
    m.into_result(head, success, if success { 1.0 } else { 0.0 }, wall)
}

impl Measured {
    /// The result, with the runner's own verdict (`success`, `reward`) and the whole
    /// task's wall time.
    pub fn into_result(self, head: Head, success: bool, reward: f64, wall: Duration) -> TaskResult {
        let m = self;
        TaskResult {
            id: head.id,
            category: head.category,
            position: head.position,
            status_ok: m.status.is_some_and(|s| head.expected.accepts(s)),
            expected: head.expected,
            status: m.status,
            termination: m.termination,
            reason: m.reason,
            verification: m.verification,
            error: m.error,
            assertions: m.assertions,
            success,
            reward,
            steps: m.steps,
            reference_steps: head.reference_steps,
            step_latency_ms: m.step_latency_ms,
            decision_latency_us: m.decision_latency_us,
            stale_retries: m.stale_retries,
            escalations: m.escalations,
            local_recoveries: m.local_recoveries,
            model_calls: m.model_calls,
            tokens: m.tokens,
            tiers: m.tiers,
            run_ms: m.run_ms,
            wall_ms: wall.as_millis() as u64,
            trace: m.trace,
            start_screenshot: m.start_screenshot,
            episode: None,
        }
    }
}
