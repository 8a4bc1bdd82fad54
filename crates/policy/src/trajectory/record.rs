//! One JSONL record per step (seed §5.7.1), with the monitors' view of that step.

use arc_core::{
    ActionKind, ControllerAction, ControllerReason, Decision, FailureSignature, MilestoneSignal,
    StepFailure, StuckPattern, TerminalKind, Termination, Tier,
};
use serde::{Deserialize, Serialize};

/// Bumped when a field changes meaning (2: `locator_strategy` is the decision's
/// `Tier`, absent when unknown; the controller's own answers are `controller`).
pub const SCHEMA_VERSION: u32 = 2;

/// Which loop event the record describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// An action ran and its effect was observed.
    Acted,
    /// The target went stale; nothing ran.
    Stale,
    /// The run ended (terminal decision or a stop).
    Finished,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrajectoryRecord {
    pub schema: u32,
    pub run_id: String,
    pub task_id: String,
    /// The loop's decision cycle (stale retries count).
    pub step_id: u32,
    /// Milliseconds since the Unix epoch when the record was made.
    pub timestamp_ms: u64,
    pub event: StepKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_type: Option<ActionKind>,
    /// The target's element id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_locator: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_role: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_key: Option<String>,
    /// The literal as executed (`[secret]` for secret inputs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_value: Option<String>,
    /// The tier that made the decision (its provenance), when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator_strategy: Option<Tier>,
    /// The policy's decision, for replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The UI settled (no readiness timeout).
    pub readiness_passed: bool,
    /// The step ran without a failure.
    pub execution_success: bool,
    pub state_hash_before: String,
    pub state_hash_after: String,
    pub state_changed: bool,
    /// Elements added, removed or changed between the two states (0 iff unchanged).
    pub hamming_distance: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_after: Option<String>,
    pub url_changed: bool,
    /// Distinct visible texts that appeared minus those that disappeared.
    pub visible_text_delta: i32,
    pub error_detected: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_type: Option<StepFailure>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_detail: Option<String>,
    pub monitor_stuck_score: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stuck_patterns: Vec<StuckPattern>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_signature: Option<FailureSignature>,
    pub monitor_milestone_score: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub milestone_signals: Vec<MilestoneSignal>,
    /// None on a finished record that was no step failure (nothing to monitor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalation_decision: Option<ControllerAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalation_reason: Option<ControllerReason>,
    /// The step belonged to a recovery plan.
    pub recovery_attempted: bool,
    /// For recovery steps: it ran cleanly and changed something.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovery_success: Option<bool>,
    /// The backend the run drove (`sim`, `cdp`, …).
    pub integration_mode: String,
    pub elapsed_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<TerminalKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The writer shortened this record to fit its line bound.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
}

impl TrajectoryRecord {
    /// A record with identity set and everything else empty.
    pub fn new(run_id: &str, task_id: &str, step_id: u32, event: StepKind) -> Self {
        TrajectoryRecord {
            schema: SCHEMA_VERSION,
            run_id: run_id.to_owned(),
            task_id: task_id.to_owned(),
            step_id,
            timestamp_ms: 0,
            event,
            action_type: None,
            target_locator: None,
            target_role: None,
            target_name: None,
            input_key: None,
            input_value: None,
            locator_strategy: None,
            decision: None,
            readiness_passed: true,
            execution_success: true,
            state_hash_before: String::new(),
            state_hash_after: String::new(),
            state_changed: false,
            hamming_distance: 0,
            url_before: None,
            url_after: None,
            url_changed: false,
            visible_text_delta: 0,
            error_detected: false,
            error_type: None,
            error_detail: None,
            monitor_stuck_score: 0.0,
            stuck_patterns: Vec::new(),
            failure_signature: None,
            monitor_milestone_score: 0.0,
            milestone_signals: Vec::new(),
            escalation_decision: None,
            escalation_reason: None,
            recovery_attempted: false,
            recovery_success: None,
            integration_mode: String::new(),
            elapsed_ms: 0,
            status: None,
            termination: None,
            reason: None,
            truncated: false,
        }
    }

    /// A step (acted or stale), as opposed to the run's end.
    pub fn is_step(&self) -> bool {
        self.event != StepKind::Finished
    }

    /// The step's declared effect was observed, and it did not error.
    pub fn expected_state_change_verified(&self) -> bool {
        !self.error_detected
            && self
                .milestone_signals
                .contains(&MilestoneSignal::DeclaredStateChange)
    }

    /// What is left when a record cannot fit its line: identity, outcome and flags.
    pub fn stub(&self) -> TrajectoryRecord {
        let mut s = TrajectoryRecord::new(&self.run_id, &self.task_id, self.step_id, self.event);
        s.timestamp_ms = self.timestamp_ms;
        s.action_type = self.action_type;
        s.locator_strategy = self.locator_strategy;
        s.readiness_passed = self.readiness_passed;
        s.execution_success = self.execution_success;
        s.state_changed = self.state_changed;
        s.hamming_distance = self.hamming_distance;
        s.url_changed = self.url_changed;
        s.error_detected = self.error_detected;
        s.error_type = self.error_type;
        s.status = self.status;
        s.termination = self.termination;
        s.truncated = true;
        s
    }
}
