//! Turns the loop's events into trajectory records, running the monitors and the
//! escalation controller on each step so the record carries their scores and word.
//!
//! An acted event carries the state *before* its action; the state after is the next
//! event's snapshot. So an acted record is completed when the next event arrives (the
//! last event is always `Finished`, so nothing is left pending after a full run).

use super::record::{StepKind, Strategy, TrajectoryRecord};
use arc_core::{
    Decision, EscalationConfig, MilestoneGoals, MonitorOutcome, MonitorSuite, Snapshot, StepEvent,
    StepFailure, StepOutcome, StepSignal, Subtask,
};
use std::collections::{HashMap, HashSet};
use std::time::{SystemTime, UNIX_EPOCH};

/// Who and what a run is, for every record it produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInfo {
    pub run_id: String,
    pub task_id: String,
    /// The backend's name (`sim`, `cdp`, …).
    pub integration_mode: String,
    /// The tier that decides when no classifier says otherwise.
    pub strategy: Strategy,
}

pub type Classifier = Box<dyn Fn(&Decision) -> Strategy + Send>;

pub struct TrajectoryRecorder {
    info: RunInfo,
    classify: Option<Classifier>,
    monitors: MonitorSuite,
    pending: Option<StepEvent>,
    primed: bool,
}

impl TrajectoryRecorder {
    pub fn new(info: RunInfo, subtask: &Subtask) -> Self {
        TrajectoryRecorder {
            info,
            classify: None,
            monitors: MonitorSuite::new(
                MilestoneGoals::from_subtask(subtask),
                EscalationConfig::default(),
            ),
            pending: None,
            primed: false,
        }
    }

    /// Decides per decision which tier made it (a cascade knows; a plain run does not).
    pub fn with_classifier(
        mut self,
        classify: impl Fn(&Decision) -> Strategy + Send + 'static,
    ) -> Self {
        self.classify = Some(Box::new(classify));
        self
    }

    /// The records this event completes (zero, one or two).
    pub fn on_event(&mut self, event: &StepEvent) -> Vec<TrajectoryRecord> {
        if !self.primed {
            self.monitors.milestone.prime(&event.snapshot);
            self.primed = true;
        }
        let mut out = Vec::with_capacity(2);
        if let Some(prev) = self.pending.take() {
            out.push(self.build(&prev, Some(&event.snapshot)));
        }
        match event.outcome {
            StepOutcome::Acted { .. } => self.pending = Some(event.clone()),
            _ => out.push(self.build(event, None)),
        }
        out
    }

    /// A record still waiting for its after-state (only if the run was cut short).
    pub fn finish(&mut self) -> Option<TrajectoryRecord> {
        let prev = self.pending.take()?;
        Some(self.build(&prev, None))
    }

    fn strategy(&self, decision: Option<&Decision>) -> Strategy {
        let Some(d) = decision else {
            return self.info.strategy;
        };
        // Compiled recovery steps tag themselves (arc_core::recovery).
        if d.raw.as_ref().is_some_and(|r| r.get("recovery").is_some()) {
            return Strategy::Recovery;
        }
        self.classify.as_ref().map_or(self.info.strategy, |f| f(d))
    }

    fn build(&mut self, event: &StepEvent, next: Option<&Snapshot>) -> TrajectoryRecord {
        let before = event.snapshot.as_ref();
        let kind = match event.outcome {
            StepOutcome::Acted { .. } => StepKind::Acted,
            StepOutcome::Stale { .. } => StepKind::Stale,
            StepOutcome::Finished { .. } => StepKind::Finished,
        };
        let mut r = TrajectoryRecord::new(&self.info.run_id, &self.info.task_id, event.cycle, kind);
        r.timestamp_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        r.integration_mode = self.info.integration_mode.clone();
        r.decision = event.decision.clone();
        r.locator_strategy = self.strategy(event.decision.as_ref());
        r.state_hash_before = before.revision.clone();
        r.state_hash_after = before.revision.clone();
        r.url_before = before.url().map(str::to_owned);
        r.url_after = r.url_before.clone();
        if let Some(action) = event.decision.as_ref().and_then(Decision::action) {
            r.action_type = Some(action.kind());
            r.input_key = action.input_key().map(str::to_owned);
            if let Some(t) = action.target() {
                r.target_locator = Some(t.to_string());
                if let Some(el) = before.element(t.as_str()) {
                    r.target_role = Some(el.role.to_string());
                    r.target_name = Some(el.name.clone());
                }
            }
        }
        let signal = match &event.outcome {
            StepOutcome::Acted { record } => {
                // The next snapshot is this action's after-state only if the revisions
                // agree (a run stopped on a limit reports the state it decided on).
                let after = next.filter(|n| n.revision == record.after_revision);
                r.state_hash_after = record.after_revision.clone();
                r.state_changed = record.state_changed;
                r.elapsed_ms = record.elapsed_ms;
                r.target_name = record.target_name.clone().or(r.target_name);
                r.input_value = record
                    .action
                    .value
                    .as_ref()
                    .map(|v| v.as_text().into_owned());
                if let Some(a) = after {
                    r.url_after = a.url().map(str::to_owned);
                    r.hamming_distance = structural_distance(before, a);
                    r.visible_text_delta = visible_text_delta(before, a);
                } else {
                    r.url_after = None;
                    r.hamming_distance = u32::from(record.state_changed);
                }
                let signal = StepSignal::from_record(record)
                    .with_urls(r.url_before.as_deref(), r.url_after.as_deref());
                Some((signal, after))
            }
            StepOutcome::Stale { detail, .. } => {
                r.error_detail = Some(detail.clone());
                StepSignal::from_event(event).map(|s| (s, Some(before)))
            }
            StepOutcome::Finished { result } => {
                r.status = Some(result.status);
                r.termination = Some(result.termination);
                r.reason = result.reason.clone();
                r.elapsed_ms = result.elapsed_ms;
                StepSignal::from_event(event).map(|s| {
                    r.error_detail = result.reason.clone();
                    (s, Some(before))
                })
            }
        };
        r.url_changed = match (&r.url_before, &r.url_after) {
            (Some(b), Some(a)) => a != b,
            _ => false,
        };
        if let Some((signal, after)) = signal {
            let outcome = self.monitors.step(&signal, Some(before), after);
            apply(&mut r, signal.failure, &outcome);
        }
        if r.locator_strategy == Strategy::Recovery {
            r.recovery_attempted = true;
            r.recovery_success = Some(r.execution_success && (r.state_changed || r.url_changed));
        }
        r
    }
}

fn apply(r: &mut TrajectoryRecord, failure: Option<StepFailure>, outcome: &MonitorOutcome) {
    r.error_type = failure;
    r.error_detected = failure.is_some();
    r.readiness_passed = failure != Some(StepFailure::ReadinessTimeout);
    r.execution_success = failure.is_none_or(StepFailure::executed);
    r.monitor_stuck_score = outcome.stuck.score;
    r.stuck_patterns = outcome.stuck.patterns.clone();
    r.failure_signature = outcome.decision.signature.or(outcome.stuck.signature);
    r.monitor_milestone_score = outcome.milestone.score;
    r.milestone_signals = outcome.milestone.signals.clone();
    r.escalation_decision = Some(outcome.decision.action);
    r.escalation_reason = Some(outcome.decision.reason);
}

/// Elements added, removed or changed (by id).
fn structural_distance(before: &Snapshot, after: &Snapshot) -> u32 {
    if before.revision == after.revision {
        return 0;
    }
    let by_id: HashMap<&str, &arc_core::Element> =
        before.elements.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut matched = 0usize;
    let mut distance = 0usize;
    for a in after.elements.iter() {
        match by_id.get(a.id.as_str()) {
            Some(b) => {
                matched += 1;
                if *b != a {
                    distance += 1;
                }
            }
            None => distance += 1,
        }
    }
    distance += by_id.len().saturating_sub(matched);
    // A change the element list does not show (focus order, context) still counts.
    distance.max(1) as u32
}

/// Distinct visible texts that appeared minus those that disappeared.
fn visible_text_delta(before: &Snapshot, after: &Snapshot) -> i32 {
    let (b, a) = (visible_texts(before), visible_texts(after));
    a.difference(&b).count() as i32 - b.difference(&a).count() as i32
}

fn visible_texts(s: &Snapshot) -> HashSet<&str> {
    s.elements
        .iter()
        .filter(|e| e.visible && !e.name.is_empty())
        .map(|e| e.name.as_str())
        .collect()
}
