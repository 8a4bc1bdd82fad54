//! Turning an answer into a decision, the same way for every wire format: read the
//! `operation` head, then only the heads that operation consumes, each checked against
//! the space's choices. An answer outside the space is an [`Invalid`] with a reason the
//! re-ask can quote; it never becomes a decision.

use super::heads::{Head, Operation, Verdict};
use super::space::ActionSpace;
use arc_core::action::ActionFields;
use arc_core::{Action, Decision, TerminalKind};

/// Why an answer cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Invalid(pub String);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a valid answer means.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Outcome {
    Act(Action),
    Terminal(TerminalKind),
    /// SUBTASK_COMPLETE while a criterion head did not say SATISFIED.
    Unmet {
        criterion: usize,
        verdict: Verdict,
    },
}

/// Reads an answer. `pick(head, allowed)` returns the raw choice for `head` (or why it
/// is missing or malformed); membership in `allowed` is checked here.
pub(crate) fn interpret(
    space: &ActionSpace,
    mut pick: impl FnMut(Head, &[String]) -> Result<String, Invalid>,
) -> Result<Outcome, Invalid> {
    let mut checked = |head: Head| -> Result<String, Invalid> {
        let allowed = space.choices(head);
        let raw = pick(head, &allowed)?;
        if allowed.contains(&raw) {
            Ok(raw)
        } else {
            Err(Invalid(format!(
                "{head}: {raw:?} is not an offered choice ({})",
                preview(&allowed)
            )))
        }
    };
    let raw = checked(Head::Operation)?;
    let op = Operation::parse(&raw)
        .ok_or_else(|| Invalid(format!("operation: {raw:?} is not an operation")))?;
    let kind = match op {
        Operation::Terminal(TerminalKind::SubtaskComplete) => {
            let mut unmet = None;
            for i in 0..space.criteria() {
                let raw = checked(Head::Criterion(i))?;
                let verdict = Verdict::parse(&raw)
                    .ok_or_else(|| Invalid(format!("criterion_{i}: {raw:?} is not a verdict")))?;
                if verdict != Verdict::Satisfied && unmet.is_none() {
                    unmet = Some(Outcome::Unmet {
                        criterion: i,
                        verdict,
                    });
                }
            }
            return Ok(unmet.unwrap_or(Outcome::Terminal(TerminalKind::SubtaskComplete)));
        }
        Operation::Terminal(t) => return Ok(Outcome::Terminal(t)),
        Operation::Act(kind) => kind,
    };
    let mut f = ActionFields::new(kind);
    for head in space.consumed(op) {
        let raw = checked(head)?;
        if let Some(param) = head.param() {
            f.set_text(param, &raw)
                .map_err(|e| Invalid(format!("{head}: {e}")))?;
        }
    }
    Action::from_fields(f)
        .map(Outcome::Act)
        .map_err(|e| Invalid(format!("{kind}: {e}")))
}

/// The decision an outcome stands for. An unmet criterion turns SUBTASK_COMPLETE into
/// NEEDS_AGENT naming it.
pub(crate) fn to_decision(outcome: Outcome, criteria: &[String]) -> Decision {
    match outcome {
        Outcome::Act(action) => Decision::act(action),
        Outcome::Terminal(kind) => Decision::terminal(kind),
        Outcome::Unmet { criterion, verdict } => Decision::terminal(TerminalKind::NeedsAgent)
            .with_reason(format!(
                "the model answered SUBTASK_COMPLETE, but verification criterion {criterion} \
                 ({:?}) is {}",
                criteria.get(criterion).map(String::as_str).unwrap_or(""),
                verdict.as_str()
            )),
    }
}

/// The first few allowed choices, for an error message.
fn preview(allowed: &[String]) -> String {
    const SHOWN: usize = 8;
    if allowed.is_empty() {
        return "none offered".into();
    }
    let mut s = allowed
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if allowed.len() > SHOWN {
        s.push_str(&format!(", … {} in all", allowed.len()));
    }
    s
}
