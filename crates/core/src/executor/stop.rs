//! Why the loop stops, before it is turned into a result: the stop itself, how an
//! attempted action fell short, and what a terminal decision hands out (the field asked
//! for, the element handed to a person, a dry run's next action).

use crate::backend::Executed;
use crate::decision::{Decision, TerminalKind};
use crate::error::{BackendError, InvalidDecision};
use crate::executable::ExecutableAction;
use crate::record::{HandOff, PlannedAction, RequestedField, Termination};
use crate::settle::SettleReport;
use crate::snapshot::Snapshot;

/// Why the loop stops, before it is turned into a result.
pub(super) struct Stop {
    pub(super) status: TerminalKind,
    pub(super) termination: Termination,
    pub(super) reason: String,
    pub(super) decision: Option<Box<Decision>>,
    /// A dry run's next action (boxed: a stop is passed around as an `Err`).
    pub(super) planned: Option<Box<PlannedAction>>,
    /// NEEDS_INPUT's field.
    pub(super) needs_input: Option<Box<RequestedField>>,
    pub(super) needs_human: Option<Box<HandOff>>,
}

impl Stop {
    pub(super) fn needs_agent(termination: Termination, reason: impl Into<String>) -> Stop {
        Stop {
            status: TerminalKind::NeedsAgent,
            termination,
            reason: reason.into(),
            decision: None,
            planned: None,
            needs_input: None,
            needs_human: None,
        }
    }

    pub(super) fn with_decision(mut self, decision: &Decision) -> Stop {
        self.decision = Some(Box::new(decision.clone()));
        self
    }

    pub(super) fn backend(err: BackendError) -> Stop {
        let termination = match err {
            BackendError::Unsupported { .. } => Termination::UnsupportedAction,
            BackendError::Invalid(_) => Termination::InvalidDecision,
            _ => Termination::BackendError,
        };
        Stop::needs_agent(termination, err.to_string())
    }
}

/// How an attempted action ended short of success.
pub(super) enum Miss {
    Stale(String),
    Stop(Stop),
    /// The action ran, but the observation after it failed: it is recorded (so a planner
    /// does not repeat it) and the run hands back.
    Unobserved {
        settle: SettleReport,
        executed: Executed,
        stop: Stop,
    },
}

/// The field a NEEDS_INPUT decision names, as `snapshot` shows it (none when it names
/// none, or one the snapshot does not hold).
pub(super) fn requested_field(
    kind: TerminalKind,
    decision: &Decision,
    snapshot: &Snapshot,
) -> Option<RequestedField> {
    let id = decision
        .asks_for
        .as_ref()
        .filter(|_| kind == TerminalKind::NeedsInput)?;
    let el = snapshot.element(id.as_str())?;
    Some(RequestedField {
        element_id: el.id.clone(),
        role: el.role.clone(),
        name: el.name.clone(),
        value: el.value.clone(),
    })
}

/// What a NEEDS_AGENT decision hands to a person, as `snapshot` shows it (none when the
/// snapshot does not hold the element).
pub(super) fn hand_off(
    kind: TerminalKind,
    decision: &Decision,
    snapshot: &Snapshot,
) -> Option<HandOff> {
    let (id, need) = decision
        .hands_off
        .as_ref()
        .filter(|_| kind == TerminalKind::NeedsAgent)?;
    let el = snapshot.element(id.as_str())?;
    Some(HandOff {
        need: *need,
        element_id: el.id.clone(),
        role: el.role.clone(),
        name: el.name.clone(),
    })
}

/// Where a dry run ends: the decided, validated, allowed action, not taken.
pub(super) fn dry_run(decision: &Decision, exec: &ExecutableAction, snapshot: &Snapshot) -> Stop {
    let planned = PlannedAction::new(exec, snapshot);
    let on = match &planned.target_name {
        Some(name) => format!(" on {}", crate::quote(name)),
        None => String::new(),
    };
    Stop {
        status: TerminalKind::DryRun,
        termination: Termination::DryRun,
        reason: format!("Dry run: the next action would be {}{on}.", exec.kind()),
        decision: Some(Box::new(decision.clone())),
        planned: Some(Box::new(planned)),
        needs_input: None,
        needs_human: None,
    }
}

pub(super) fn cancelled() -> Stop {
    Stop::needs_agent(Termination::Cancelled, "cancelled by the caller")
}

pub(super) fn invalid(e: InvalidDecision) -> Stop {
    Stop::needs_agent(Termination::InvalidDecision, e.to_string())
}
