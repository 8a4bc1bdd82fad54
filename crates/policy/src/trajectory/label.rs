//! The deterministic auto-labeler (seed §5.7.2): labels each step of a recorded
//! trajectory from the window of the last 5 steps ending at it, offline, with no model.
//!
//! Stuck when, in the window ending at step t:
//! 1. the last three steps changed nothing (distance 0 and URL unchanged);
//! 2. the same target failed (stale, not found, exception) at least twice;
//! 3. the states oscillate: H(s_t) == H(s_{t-2}) and H(s_t) != H(s_{t-1});
//! 4. at least two readiness timeouts;
//! 5. at least two action exceptions.
//!
//! Milestone when step t did not error and:
//! 1. its declared state change was verified;
//! 2. it reached a target URL;
//! 3. a goal text appeared;
//! 4. it was a clean transition (distance > 0).

use super::record::TrajectoryRecord;
use arc_core::{MilestoneSignal, StepFailure};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::Path;

/// Steps a label looks back over, the current one included.
pub const LABEL_WINDOW: usize = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum StuckLabel {
    ThreeConsecutiveNoChange,
    SameTargetFailing,
    CyclicOscillation,
    RepeatedReadinessTimeouts,
    RepeatedActionExceptions,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MilestoneLabel {
    DeclaredStateChange,
    TargetUrlReached,
    TextAppeared,
    CleanTransition,
}

/// One step's labels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepLabels {
    pub run_id: String,
    pub task_id: String,
    pub step_id: u32,
    /// Steps in the window (≤ 5).
    pub window: usize,
    pub stuck: Vec<StuckLabel>,
    pub milestone: Vec<MilestoneLabel>,
}

impl StepLabels {
    pub fn is_stuck(&self) -> bool {
        !self.stuck.is_empty()
    }

    pub fn is_milestone(&self) -> bool {
        !self.milestone.is_empty()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelSummary {
    pub runs: usize,
    pub steps: usize,
    pub stuck_steps: usize,
    pub milestone_steps: usize,
    pub stuck_counts: BTreeMap<StuckLabel, usize>,
    pub milestone_counts: BTreeMap<MilestoneLabel, usize>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labeled {
    pub steps: Vec<StepLabels>,
    pub summary: LabelSummary,
}

/// The step records of each run, in order (a file may hold several runs).
pub fn runs(records: &[TrajectoryRecord]) -> Vec<Vec<&TrajectoryRecord>> {
    let mut order: Vec<&str> = Vec::new();
    let mut by_run: BTreeMap<&str, Vec<&TrajectoryRecord>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.is_step()) {
        let steps = by_run.entry(r.run_id.as_str()).or_default();
        if steps.is_empty() {
            order.push(r.run_id.as_str());
        }
        steps.push(r);
    }
    order
        .into_iter()
        .filter_map(|id| by_run.remove(id))
        .collect()
}

/// Labels every step of every run in `records`.
pub fn label(records: &[TrajectoryRecord]) -> Labeled {
    let mut out = Labeled::default();
    for run in runs(records) {
        out.summary.runs += 1;
        for t in 0..run.len() {
            let window = &run[t.saturating_sub(LABEL_WINDOW - 1)..=t];
            out.steps.push(label_window(window));
        }
    }
    for s in &out.steps {
        out.summary.steps += 1;
        out.summary.stuck_steps += usize::from(s.is_stuck());
        out.summary.milestone_steps += usize::from(s.is_milestone());
        for l in &s.stuck {
            *out.summary.stuck_counts.entry(*l).or_default() += 1;
        }
        for l in &s.milestone {
            *out.summary.milestone_counts.entry(*l).or_default() += 1;
        }
    }
    out
}

/// Labels the last step of `window` (oldest first, at most 5 steps).
pub fn label_window(window: &[&TrajectoryRecord]) -> StepLabels {
    let t = window.last().expect("a window holds at least its own step");
    let mut stuck = Vec::new();
    if window.len() >= 3
        && window[window.len() - 3..]
            .iter()
            .all(|r| r.hamming_distance == 0 && !r.url_changed)
    {
        stuck.push(StuckLabel::ThreeConsecutiveNoChange);
    }
    let locator_failure = |r: &&&TrajectoryRecord| {
        r.error_type.is_some_and(StepFailure::is_locator_failure) && r.target_locator.is_some()
    };
    let mut failures: BTreeMap<&str, usize> = BTreeMap::new();
    for r in window.iter().filter(locator_failure) {
        *failures
            .entry(r.target_locator.as_deref().unwrap_or_default())
            .or_default() += 1;
    }
    if failures.values().any(|n| *n >= 2) {
        stuck.push(StuckLabel::SameTargetFailing);
    }
    if let [.., a, b, c] = window {
        if c.state_hash_after == a.state_hash_after && c.state_hash_after != b.state_hash_after {
            stuck.push(StuckLabel::CyclicOscillation);
        }
    }
    let count = |f: StepFailure| window.iter().filter(|r| r.error_type == Some(f)).count();
    if count(StepFailure::ReadinessTimeout) >= 2 {
        stuck.push(StuckLabel::RepeatedReadinessTimeouts);
    }
    if count(StepFailure::ActionException) >= 2 {
        stuck.push(StuckLabel::RepeatedActionExceptions);
    }

    let mut milestone = Vec::new();
    if !t.error_detected {
        let has = |s: MilestoneSignal| t.milestone_signals.contains(&s);
        if t.expected_state_change_verified() {
            milestone.push(MilestoneLabel::DeclaredStateChange);
        }
        if has(MilestoneSignal::TargetUrlReached) {
            milestone.push(MilestoneLabel::TargetUrlReached);
        }
        if has(MilestoneSignal::TextAppeared) {
            milestone.push(MilestoneLabel::TextAppeared);
        }
        if t.hamming_distance > 0 {
            milestone.push(MilestoneLabel::CleanTransition);
        }
    }
    StepLabels {
        run_id: t.run_id.clone(),
        task_id: t.task_id.clone(),
        step_id: t.step_id,
        window: window.len(),
        stuck,
        milestone,
    }
}

impl Labeled {
    /// Writes `stuck.jsonl` and `milestone.jsonl` (the positive steps) and
    /// `summary.json` into `dir`.
    pub fn write_to(&self, dir: impl AsRef<Path>) -> io::Result<()> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir)?;
        let jsonl = |pick: fn(&StepLabels) -> bool| -> io::Result<String> {
            let mut out = String::new();
            for s in self.steps.iter().filter(|s| pick(s)) {
                out.push_str(&serde_json::to_string(s)?);
                out.push('\n');
            }
            Ok(out)
        };
        std::fs::write(dir.join("stuck.jsonl"), jsonl(StepLabels::is_stuck)?)?;
        std::fs::write(
            dir.join("milestone.jsonl"),
            jsonl(StepLabels::is_milestone)?,
        )?;
        std::fs::write(
            dir.join("summary.json"),
            serde_json::to_string_pretty(&self.summary)?,
        )?;
        Ok(())
    }
}
