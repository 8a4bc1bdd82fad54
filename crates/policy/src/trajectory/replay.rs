//! Trace replay: a recorded trajectory's decisions fed back through the executor against
//! a backend the caller gives (the simulated app, in tests), so a fixed bug stays fixed.
//! Generic over any [`Backend`], so the library does not depend on `arc-sim`.
//!
//! The report compares, step by step, what was recorded with what happened now: the
//! event (acted / stale / finished), the action and target, whether the state changed,
//! and the final status and termination.

use super::record::{StepKind, TrajectoryRecord};
use arc_core::{
    ActionKind, Backend, Decision, ExecutionResult, Executor, RuntimeConfig, ScriptedPolicy,
    StepEvent, StepOutcome, Subtask, TerminalKind, Termination,
};
use serde::Serialize;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DivergenceField {
    /// One run has more steps than the other.
    StepCount,
    /// Acted where the other went stale (alignment is lost after this).
    Event,
    Action,
    Target,
    StateChanged,
    Status,
    Termination,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// Position among the steps (0-based); None for the final status.
    pub step: Option<usize>,
    pub field: DivergenceField,
    pub recorded: String,
    pub replayed: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.step {
            write!(f, "step {i}: ")?;
        }
        write!(
            f,
            "{:?}: recorded {}, replayed {}",
            self.field, self.recorded, self.replayed
        )
    }
}

#[derive(Clone, Debug)]
pub struct ReplayReport {
    pub steps_compared: usize,
    pub divergences: Vec<Divergence>,
    pub recorded_status: Option<TerminalKind>,
    pub replayed: ExecutionResult,
}

impl ReplayReport {
    /// The replay reproduced the recording.
    pub fn reproduced(&self) -> bool {
        self.divergences.is_empty()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the trajectory has no records")]
    Empty,
    #[error("the trajectory holds several runs ({0:?}); replay one at a time")]
    SeveralRuns(Vec<String>),
}

/// What one step looked like, recorded or replayed.
#[derive(Clone, Debug, PartialEq)]
struct Observed {
    event: StepKind,
    action: Option<ActionKind>,
    target: Option<String>,
    changed: bool,
}

impl Observed {
    fn of_record(r: &TrajectoryRecord) -> Self {
        Observed {
            event: r.event,
            action: r.action_type,
            target: r.target_locator.clone(),
            changed: r.state_changed,
        }
    }

    fn of_event(e: &StepEvent) -> Option<Self> {
        let action = e.decision.as_ref().and_then(Decision::action);
        let (event, changed) = match &e.outcome {
            StepOutcome::Acted { record } => (StepKind::Acted, record.state_changed),
            StepOutcome::Stale { .. } => (StepKind::Stale, false),
            StepOutcome::Finished { .. } => return None,
        };
        Some(Observed {
            event,
            action: action.map(|a| a.kind()),
            target: action.and_then(|a| a.target()).map(|t| t.to_string()),
            changed,
        })
    }
}

/// Replays `records` (one run) against `backend` and compares.
pub async fn replay<B: Backend>(
    records: &[TrajectoryRecord],
    subtask: &Subtask,
    backend: B,
    config: RuntimeConfig,
) -> Result<ReplayReport, ReplayError> {
    if records.is_empty() {
        return Err(ReplayError::Empty);
    }
    let mut run_ids: Vec<String> = records.iter().map(|r| r.run_id.clone()).collect();
    run_ids.dedup();
    if run_ids.len() > 1 {
        return Err(ReplayError::SeveralRuns(run_ids));
    }
    let recorded: Vec<Observed> = records
        .iter()
        .filter(|r| r.is_step())
        .map(Observed::of_record)
        .collect();
    let recorded_end = records.iter().rev().find(|r| !r.is_step());

    let mut exec = Executor::new(
        backend,
        ScriptedPolicy::new(records.iter().filter_map(|r| r.decision.clone())).named("replay"),
        config,
    );
    let mut replayed = Vec::new();
    let result = exec
        .run_with(subtask, |e| replayed.extend(Observed::of_event(&e)))
        .await;

    let mut divergences = compare_steps(&recorded, &replayed);
    if let Some(end) = recorded_end {
        let mut check = |field, rec: Option<String>, rep: String| {
            if rec.as_deref() != Some(rep.as_str()) {
                divergences.push(Divergence {
                    step: None,
                    field,
                    recorded: rec.unwrap_or_else(|| "-".into()),
                    replayed: rep,
                });
            }
        };
        check(
            DivergenceField::Status,
            end.status.map(|s| s.to_string()),
            result.status.to_string(),
        );
        check(
            DivergenceField::Termination,
            end.termination.map(termination_name),
            termination_name(result.termination),
        );
    }
    Ok(ReplayReport {
        steps_compared: recorded.len().min(replayed.len()),
        divergences,
        recorded_status: recorded_end.and_then(|r| r.status),
        replayed: result,
    })
}

fn compare_steps(recorded: &[Observed], replayed: &[Observed]) -> Vec<Divergence> {
    let mut out = Vec::new();
    let show = |v: &dyn fmt::Debug| format!("{v:?}");
    for (i, (rec, rep)) in recorded.iter().zip(replayed).enumerate() {
        let mut diverge = |field, recorded: String, replayed: String| {
            out.push(Divergence {
                step: Some(i),
                field,
                recorded,
                replayed,
            })
        };
        if rec.event != rep.event {
            diverge(DivergenceField::Event, show(&rec.event), show(&rep.event));
            return out;
        }
        if rec.action != rep.action {
            diverge(
                DivergenceField::Action,
                show(&rec.action),
                show(&rep.action),
            );
        }
        if rec.target != rep.target {
            diverge(
                DivergenceField::Target,
                show(&rec.target),
                show(&rep.target),
            );
        }
        if rec.event == StepKind::Acted && rec.changed != rep.changed {
            diverge(
                DivergenceField::StateChanged,
                rec.changed.to_string(),
                rep.changed.to_string(),
            );
        }
    }
    if recorded.len() != replayed.len() {
        out.push(Divergence {
            step: None,
            field: DivergenceField::StepCount,
            recorded: recorded.len().to_string(),
            replayed: replayed.len().to_string(),
        });
    }
    out
}

fn termination_name(t: Termination) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{t:?}"))
}
