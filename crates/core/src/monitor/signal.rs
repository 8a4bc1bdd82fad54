//! What the loop knows about one step, reduced to what the monitors read.

use crate::action::ActionKind;
use crate::decision::Decision;
use crate::element::ElementId;
use crate::record::{ActionRecord, ExecutionResult, StepEvent, StepOutcome, Termination};
use crate::settle::SettleEnd;
use crate::snapshot::Snapshot;
use xxhash_rust::xxh3::xxh3_64;

wire_enum! {
    /// How a step failed. Hard failures escalate at once (seed §4.6).
    pub enum StepFailure {
        /// The target no longer matched its guard; nothing was executed.
        Stale => "STALE",
        /// Settling hit its cap: the UI never became ready after the action.
        ReadinessTimeout => "READINESS_TIMEOUT",
        /// The backend failed while executing the action.
        ActionException => "ACTION_EXCEPTION",
        /// The target could not be resolved even after every re-observation (hard).
        LocatorNotFound => "LOCATOR_NOT_FOUND",
        /// The page, process or connection is gone (hard).
        BackendLost => "BACKEND_LOST",
        /// Someone explicitly asked for escalation (a plan's ESCALATE step; hard).
        EscalationRequested => "ESCALATION_REQUESTED",
    }
}

impl StepFailure {
    /// Failures that bypass noise filtering and cooldown.
    pub fn is_hard(self) -> bool {
        matches!(
            self,
            StepFailure::LocatorNotFound
                | StepFailure::BackendLost
                | StepFailure::EscalationRequested
        )
    }

    /// Failures that say the target could not be found or used.
    pub fn is_locator_failure(self) -> bool {
        matches!(
            self,
            StepFailure::Stale | StepFailure::LocatorNotFound | StepFailure::ActionException
        )
    }

    /// Whether the action itself ran (a readiness timeout ran, it just never settled).
    pub fn executed(self) -> bool {
        self == StepFailure::ReadinessTimeout
    }
}

/// A state fingerprint as a number: cheap to copy and compare in the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StateHash(pub u64);

impl StateHash {
    pub fn of_revision(revision: &str) -> StateHash {
        StateHash(xxh3_64(revision.as_bytes()))
    }
}

/// One step as the monitors see it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepSignal {
    /// What was attempted (None when a run failed before any decision).
    pub kind: Option<ActionKind>,
    pub target: Option<ElementId>,
    pub target_name: Option<String>,
    pub before: StateHash,
    pub after: StateHash,
    pub state_changed: bool,
    pub url_changed: bool,
    pub failure: Option<StepFailure>,
    pub elapsed_ms: u64,
}

impl StepSignal {
    /// A successful, state-preserving step (tests and builders refine it).
    pub fn new(kind: ActionKind, target: Option<&str>) -> Self {
        StepSignal {
            kind: Some(kind),
            target: target.map(ElementId::from),
            target_name: None,
            before: StateHash::default(),
            after: StateHash::default(),
            state_changed: false,
            url_changed: false,
            failure: None,
            elapsed_ms: 0,
        }
    }

    /// Sets the states around the step; changed iff they differ.
    pub fn transition(mut self, before: u64, after: u64) -> Self {
        self.before = StateHash(before);
        self.after = StateHash(after);
        self.state_changed = before != after;
        self
    }

    pub fn with_failure(mut self, failure: StepFailure) -> Self {
        self.failure = Some(failure);
        self
    }

    pub fn with_target_name(mut self, name: impl Into<String>) -> Self {
        self.target_name = Some(name.into());
        self
    }

    /// Sets `url_changed` from the URLs around the step (unknown URLs never differ).
    pub fn with_urls(mut self, before: Option<&str>, after: Option<&str>) -> Self {
        self.url_changed = matches!((before, after), (Some(b), Some(a)) if a != b);
        self
    }

    pub fn is_errored(&self) -> bool {
        self.failure.is_some()
    }

    /// An executed action: a settle that hit its cap is a readiness timeout.
    pub fn from_record(record: &ActionRecord) -> Self {
        StepSignal {
            kind: Some(record.action.kind()),
            target: record.action.target().cloned(),
            target_name: record.target_name.clone(),
            before: StateHash::of_revision(&record.before_revision),
            after: StateHash::of_revision(&record.after_revision),
            state_changed: record.state_changed,
            url_changed: false,
            failure: (record.settle.end == SettleEnd::Cap).then_some(StepFailure::ReadinessTimeout),
            elapsed_ms: record.elapsed_ms,
        }
    }

    /// A decision dropped because its target went stale on `snapshot`.
    pub fn stale(decision: Option<&Decision>, snapshot: &Snapshot) -> Self {
        Self::unexecuted(decision, snapshot, StepFailure::Stale)
    }

    /// One loop event: executed and stale cycles always give a signal; a finished run
    /// gives one only when it ended on a step failure (stale retries exhausted count as
    /// a locator that cannot be found; backend, invalid and unsupported as exceptions).
    pub fn from_event(event: &StepEvent) -> Option<Self> {
        match &event.outcome {
            StepOutcome::Acted { record } => Some(StepSignal::from_record(record)),
            StepOutcome::Stale { .. } => {
                Some(StepSignal::stale(event.decision.as_ref(), &event.snapshot))
            }
            StepOutcome::Finished { result } => Self::from_result(result, event)
                .map(|f| Self::unexecuted(event.decision.as_ref(), &event.snapshot, f)),
        }
    }

    fn from_result(result: &ExecutionResult, event: &StepEvent) -> Option<StepFailure> {
        match result.termination {
            Termination::StaleRetriesExhausted => Some(StepFailure::LocatorNotFound),
            // Only a step that was actually attempted is a step failure.
            Termination::BackendError
            | Termination::InvalidDecision
            | Termination::UnsupportedAction
                if event.decision.is_some() =>
            {
                Some(StepFailure::ActionException)
            }
            _ => None,
        }
    }

    fn unexecuted(decision: Option<&Decision>, snapshot: &Snapshot, failure: StepFailure) -> Self {
        let action = decision.and_then(Decision::action);
        let target = action.and_then(|a| a.target()).cloned();
        let target_name = target
            .as_ref()
            .and_then(|t| snapshot.element(t.as_str()))
            .map(|e| e.name.clone());
        let state = StateHash::of_revision(&snapshot.revision);
        StepSignal {
            kind: action.map(|a| a.kind()),
            target,
            target_name,
            before: state,
            after: state,
            state_changed: false,
            url_changed: false,
            failure: Some(failure),
            elapsed_ms: 0,
        }
    }
}
