//! The loop's monitors: the executor feeds every step, once, to one [`MonitorSuite`] and
//! hands the [`StepVerdict`] to the policy (in its decide context), to the step's event
//! and, through the event, to the trajectory.

use super::escalation::{ControllerAction, ControllerDecision, EscalationConfig};
use super::milestone::{MilestoneGoals, MilestoneReport};
use super::signal::{StepFailure, StepSignal};
use super::stuck::{FailureSignature, StuckReport};
use super::MonitorSuite;
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;
use serde::Serialize;

/// How many recent steps the loop keeps for the policy (an escalation shows them).
pub const RECENT_STEPS: usize = 10;

/// The monitors' word on one step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepVerdict {
    /// How many steps the run's monitors have seen, this one included (1-based): one per
    /// acted or stale cycle, so it equals the event's cycle.
    pub step: u32,
    /// The step as the monitors saw it (state hashes, URL change, failure).
    pub signal: StepSignal,
    pub stuck: StuckReport,
    pub milestone: MilestoneReport,
    /// CONTINUE / RECOVER_LOCALLY / ESCALATE / ABORT, why, and the failure signature.
    pub controller: ControllerDecision,
}

impl StepVerdict {
    pub fn action(&self) -> ControllerAction {
        self.controller.action
    }

    /// The controller's signature, else the stuck monitor's.
    pub fn signature(&self) -> Option<FailureSignature> {
        self.controller.signature.or(self.stuck.signature)
    }

    /// The decision went stale: nothing was executed.
    pub fn stale(&self) -> bool {
        self.signal.failure == Some(StepFailure::Stale)
    }
}

/// The run's monitors and the last [`RECENT_STEPS`] steps they saw.
#[derive(Clone, Debug)]
pub struct LoopMonitors {
    suite: MonitorSuite,
    recent: Vec<StepSignal>,
    steps: u32,
}

impl LoopMonitors {
    pub fn new(subtask: &Subtask, config: EscalationConfig) -> Self {
        LoopMonitors {
            suite: MonitorSuite::new(MilestoneGoals::from_subtask(subtask), config),
            recent: Vec::with_capacity(RECENT_STEPS),
            steps: 0,
        }
    }

    /// The state the run starts in: what is already on screen is no milestone.
    pub fn prime(&mut self, first: &Snapshot) {
        self.suite.milestone.prime(first);
    }

    /// Feeds one step to the stuck and milestone monitors and the controller.
    pub fn step(
        &mut self,
        signal: StepSignal,
        before: &Snapshot,
        after: Option<&Snapshot>,
    ) -> StepVerdict {
        let outcome = self.suite.step(&signal, Some(before), after);
        self.steps += 1;
        if self.recent.len() == RECENT_STEPS {
            self.recent.remove(0);
        }
        self.recent.push(signal.clone());
        StepVerdict {
            step: self.steps,
            signal,
            stuck: outcome.stuck,
            milestone: outcome.milestone,
            controller: outcome.decision,
        }
    }

    /// The last steps, oldest first.
    pub fn recent(&self) -> &[StepSignal] {
        &self.recent
    }
}
