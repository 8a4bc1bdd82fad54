//! What a run produces: one record per executed action, one event per decision cycle,
//! and the final result (wire-compatible with the reference `result_to_dict`).

use crate::decision::{Decision, TerminalKind};
use crate::element::{Bounds, ElementId, Source};
use crate::executable::ExecutableAction;
use crate::monitor::StepVerdict;
use crate::risk::Pressable;
use crate::settle::SettleReport;
use crate::snapshot::{CompactSnapshot, Snapshot};
use serde::{Deserialize, Serialize, Serializer};
use std::sync::Arc;

/// One executed action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRecord {
    pub step: u32,
    pub decision: Decision,
    /// The action as executed, with secret literals redacted.
    pub action: ExecutableAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_source: Option<Source>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_bounds: Option<Bounds>,
    pub before_revision: String,
    pub after_revision: String,
    pub state_changed: bool,
    /// False when the action ran but the observation after it failed: `after_revision`
    /// is then empty and `state_changed` unknown (false). Serialized only when false.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub after_observed: bool,
    /// Execute + settle + the observation after, in milliseconds.
    pub elapsed_ms: u64,
    pub settle: SettleReport,
    /// Set when the page confirmed that the press went to another element than the
    /// target (an overlay that appeared in between): the action was not done on its target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landed_elsewhere: Option<LandedElsewhere>,
    /// True when the backend had to synthesize pointer or key input (the user's pointer
    /// or focus may have moved) because no accessibility interface served.
    #[serde(default, skip_serializing_if = "is_false")]
    pub physical_input: bool,
    /// Files the page downloaded, and the backend saved, during this step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<crate::Download>,
}

impl ActionRecord {
    /// Whether the action was done on its target: not a press the page delivered elsewhere.
    pub fn on_target(&self) -> bool {
        self.landed_elsewhere.is_none()
    }
}

/// A pointer press the page delivered to another element than the one aimed at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LandedElsewhere {
    /// The element the press was meant for.
    pub intended: ElementId,
    /// The element that received it, as the page showed it.
    pub element: Pressable,
    /// The press began on the target (its mousedown, and the focus a click gives, reached
    /// it) and only the release went elsewhere: the page covered the target in answer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub began_on_target: bool,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why a run ended: a stable, machine-readable companion to the human `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    TerminalDecision,
    VerifyRejected,
    BudgetExhausted,
    Timeout,
    Cancelled,
    StaleRetriesExhausted,
    NoChangeLimit,
    BackendError,
    UnsupportedAction,
    PolicyError,
    InvalidDecision,
    RiskRefused,
    LowConfidence,
    /// A press landed on another element than its target, one carrying a risk the
    /// subtask did not allow.
    LandedElsewhere,
    /// `dry_run`: the next action was decided and validated, not taken.
    DryRun,
    /// The page asks for what only a person can give (`needs_human` names it); nothing
    /// was typed into it. The page is left as it is for a person to act, and the next
    /// subtask to go on.
    NeedsHuman,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecutionResult {
    pub status: TerminalKind,
    pub actions_taken: u32,
    pub reason: Option<String>,
    pub observations: Vec<String>,
    pub history: Vec<ActionRecord>,
    pub final_snapshot: CompactSnapshot,
    pub termination: Termination,
    pub elapsed_ms: u64,
    /// Each criterion as judged when the run ended, with the elements and text that
    /// decided it (left out when the policy judged none: a script, a model).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verification: Vec<crate::verdict::Verdict>,
    /// On NEEDS_INPUT, the field the planner is asked a value for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs_input: Option<RequestedField>,
    /// On DRY_RUN, the action the run would have taken next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub planned_action: Option<PlannedAction>,
    /// Every file the page downloaded and the backend saved, as the run ended.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<crate::Download>,
    /// On termination `needs_human`: what the page asks a person for, and where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs_human: Option<HandOff>,
}

/// The field or frame a page asks a person to fill or answer, as the snapshot showed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandOff {
    pub need: crate::HumanNeed,
    pub element_id: crate::ElementId,
    pub role: crate::Role,
    pub name: String,
}

/// The field a NEEDS_INPUT decision asks a value for, as the snapshot showed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestedField {
    pub element_id: crate::ElementId,
    pub role: crate::Role,
    pub name: String,
    pub value: Option<crate::Scalar>,
}

/// The next action a dry run stopped before, as the reference reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedAction {
    pub action: crate::ActionKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<crate::ElementId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<crate::Scalar>,
}

impl PlannedAction {
    pub fn new(exec: &crate::ExecutableAction, snapshot: &crate::Snapshot) -> Self {
        let target = exec.target().cloned();
        let target_name = target
            .as_ref()
            .and_then(|id| snapshot.element(id.as_str()))
            .map(|e| e.name.clone());
        PlannedAction {
            action: exec.kind(),
            target,
            target_name,
            value: exec.value.clone(),
        }
    }
}

impl ExecutionResult {
    pub fn is_complete(&self) -> bool {
        self.status == TerminalKind::SubtaskComplete
    }
}

/// What one decision cycle produced.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum StepOutcome {
    /// The action ran and its effect was observed.
    Acted { record: Box<ActionRecord> },
    /// The target changed before or during execution; the decision was dropped and the
    /// state re-observed.
    Stale { detail: String, stale_retries: u32 },
    /// The run ended.
    Finished { result: Box<ExecutionResult> },
}

/// One event per decision cycle, in order; the last one is always `Finished`.
#[derive(Clone, Debug, Serialize)]
pub struct StepEvent {
    pub cycle: u32,
    /// The snapshot the decision was made on (serialized as its revision).
    #[serde(rename = "revision", serialize_with = "revision_only")]
    pub snapshot: Arc<Snapshot>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    #[serde(flatten)]
    pub outcome: StepOutcome,
    /// The monitors' verdict on this step: every acted or stale cycle, and a run that
    /// ended on a step failure (stale retries exhausted, an action's exception).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Box<StepVerdict>>,
}

impl StepEvent {
    pub fn result(&self) -> Option<&ExecutionResult> {
        match &self.outcome {
            StepOutcome::Finished { result } => Some(result),
            _ => None,
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.result().is_some()
    }
}

fn revision_only<S: Serializer>(snapshot: &Arc<Snapshot>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&snapshot.revision)
}
