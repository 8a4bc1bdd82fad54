//! The escalation controller (seed §4.6): CONTINUE / RECOVER_LOCALLY / ESCALATE / ABORT.
//!
//! In order of precedence, per step:
//! 1. after an ABORT, always ABORT (the run is over for this tier);
//! 2. a hard failure escalates at once, bypassing noise filtering and cooldown;
//! 3. during the cooldown after a recovery, CONTINUE (async renders settle);
//! 4. goal progress or no stuck verdict resets the stuck streak: CONTINUE;
//! 5. a single stuck tick is noise: CONTINUE;
//! 6. on the 2nd consecutive tick, RECOVER_LOCALLY if a settling step can fix the
//!    signature and a local recovery is left, else ESCALATE if an escalation is left,
//!    else ABORT. Both recoveries start the cooldown.

use super::milestone::MilestoneReport;
use super::signal::{StepFailure, StepSignal};
use super::stuck::{FailureSignature, StuckReport};
use serde::{Deserialize, Serialize};
use std::fmt;

wire_enum! {
    pub enum ControllerAction {
        Continue => "CONTINUE",
        RecoverLocally => "RECOVER_LOCALLY",
        Escalate => "ESCALATE",
        Abort => "ABORT",
    }
}

/// Why the controller answered as it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ControllerReason {
    /// Nothing looks stuck.
    Healthy,
    /// The step moved towards the goal (URL, goal text, submission).
    GoalProgress,
    /// Stuck, but not for long enough to act on.
    NoiseFiltered { ticks: u32 },
    /// Within the cooldown after a recovery; `remaining` steps are still suppressed.
    Cooldown { remaining: u32 },
    /// A failure that bypasses noise filtering and cooldown.
    HardFailure { failure: StepFailure },
    /// Stuck for `ticks` consecutive steps.
    PersistentStuck { ticks: u32 },
    /// Stuck, locally recoverable, but the local recoveries are spent.
    LocalBudgetSpent,
    /// An escalation was needed and none is left.
    BudgetsSpent,
    /// The controller already aborted.
    AlreadyAborted,
}

impl fmt::Display for ControllerReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ControllerReason::Healthy => f.write_str("no stuck pattern"),
            ControllerReason::GoalProgress => f.write_str("progress towards the goal"),
            ControllerReason::NoiseFiltered { ticks } => {
                write!(f, "stuck for {ticks} step(s); filtered as noise")
            }
            ControllerReason::Cooldown { remaining } => {
                write!(f, "post-recovery cooldown ({remaining} step(s) left)")
            }
            ControllerReason::HardFailure { failure } => write!(f, "hard failure: {failure}"),
            ControllerReason::PersistentStuck { ticks } => {
                write!(f, "stuck for {ticks} consecutive steps")
            }
            ControllerReason::LocalBudgetSpent => {
                f.write_str("still stuck and the local recoveries are spent")
            }
            ControllerReason::BudgetsSpent => f.write_str("escalation budget spent"),
            ControllerReason::AlreadyAborted => f.write_str("already aborted"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControllerDecision {
    pub action: ControllerAction,
    pub reason: ControllerReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<FailureSignature>,
}

/// The seed's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EscalationConfig {
    /// Consecutive stuck ticks before acting.
    pub stuck_ticks: u32,
    /// Steps suppressed after a recovery.
    pub cooldown_steps: u32,
    pub max_escalations: u32,
    pub max_local_recoveries: u32,
}

impl Default for EscalationConfig {
    fn default() -> Self {
        EscalationConfig {
            stuck_ticks: 2,
            cooldown_steps: 3,
            max_escalations: 3,
            max_local_recoveries: 2,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct EscalationController {
    config: EscalationConfig,
    streak: u32,
    cooldown: u32,
    escalations: u32,
    recoveries: u32,
    aborted: Option<Option<FailureSignature>>,
}

impl EscalationController {
    pub fn new(config: EscalationConfig) -> Self {
        EscalationController {
            config,
            ..EscalationController::default()
        }
    }

    pub fn config(&self) -> &EscalationConfig {
        &self.config
    }

    pub fn escalations_used(&self) -> u32 {
        self.escalations
    }

    pub fn local_recoveries_used(&self) -> u32 {
        self.recoveries
    }

    pub fn cooldown_remaining(&self) -> u32 {
        self.cooldown
    }

    pub fn is_aborted(&self) -> bool {
        self.aborted.is_some()
    }

    pub fn decide(
        &mut self,
        step: &StepSignal,
        stuck: &StuckReport,
        milestone: &MilestoneReport,
    ) -> ControllerDecision {
        if let Some(signature) = self.aborted {
            return answer(
                ControllerAction::Abort,
                ControllerReason::AlreadyAborted,
                signature,
            );
        }
        if let Some(failure) = step.failure.filter(|f| f.is_hard()) {
            self.streak = 0;
            return self.escalate_or_abort(
                ControllerReason::HardFailure { failure },
                FailureSignature::of_failure(failure),
            );
        }
        if self.cooldown > 0 {
            self.cooldown -= 1;
            self.streak = 0;
            let remaining = self.cooldown;
            return answer(
                ControllerAction::Continue,
                ControllerReason::Cooldown { remaining },
                stuck.signature,
            );
        }
        if milestone.goal_progress() {
            self.streak = 0;
            return answer(
                ControllerAction::Continue,
                ControllerReason::GoalProgress,
                None,
            );
        }
        if !stuck.stuck {
            self.streak = 0;
            return answer(ControllerAction::Continue, ControllerReason::Healthy, None);
        }
        self.streak += 1;
        let signature = stuck.signature.unwrap_or(FailureSignature::StateNotChanged);
        let ticks = self.streak;
        if ticks < self.config.stuck_ticks {
            return answer(
                ControllerAction::Continue,
                ControllerReason::NoiseFiltered { ticks },
                Some(signature),
            );
        }
        self.streak = 0;
        if signature.locally_recoverable() {
            if self.recoveries < self.config.max_local_recoveries {
                self.recoveries += 1;
                self.cooldown = self.config.cooldown_steps;
                return answer(
                    ControllerAction::RecoverLocally,
                    ControllerReason::PersistentStuck { ticks },
                    Some(signature),
                );
            }
            return self.escalate_or_abort(ControllerReason::LocalBudgetSpent, signature);
        }
        self.escalate_or_abort(ControllerReason::PersistentStuck { ticks }, signature)
    }

    fn escalate_or_abort(
        &mut self,
        reason: ControllerReason,
        signature: FailureSignature,
    ) -> ControllerDecision {
        if self.escalations < self.config.max_escalations {
            self.escalations += 1;
            self.cooldown = self.config.cooldown_steps;
            answer(ControllerAction::Escalate, reason, Some(signature))
        } else {
            self.aborted = Some(Some(signature));
            answer(
                ControllerAction::Abort,
                ControllerReason::BudgetsSpent,
                Some(signature),
            )
        }
    }
}

fn answer(
    action: ControllerAction,
    reason: ControllerReason,
    signature: Option<FailureSignature>,
) -> ControllerDecision {
    ControllerDecision {
        action,
        reason,
        signature,
    }
}
