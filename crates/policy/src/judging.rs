//! The cascade's word on "done" when a model is in the loop. Two doors a model could
//! otherwise talk a run through, both held to the reader's evidence rule
//! (`reflex::support`):
//! - the judge: once the reflex did every step and hands back only because it could not
//!   read some criteria, the model is asked whether each holds; "holds" stands only on
//!   the cited elements' own text, else the run hands back with the refusal as evidence;
//! - the model's own SUBTASK_COMPLETE: it stands only when every criterion the reflex
//!   judged on the same snapshot holds.

use crate::reflex::support::support;
use arc_core::{
    Choice, DecideContext, Decision, Evidence, Policy, PolicyError, Question, Snapshot,
    TerminalKind, Verdict,
};

/// What the judge settled.
pub(crate) enum Judged {
    /// Every unread criterion holds on cited evidence and every other one held: done.
    Complete(Decision),
    /// The judge said "holds" and its evidence did not show it: back to the planner.
    Refused(Decision),
    /// No judgment to act on (no judge, nothing unread, a "does not hold", an error).
    Nothing,
}

/// Whether the reflex's hand-back is one a judge may settle: the work is done, every
/// criterion it read holds, and some it could not read.
fn askable(reflex: &Decision) -> bool {
    reflex.work_done
        && reflex.verdicts.iter().any(|v| v.unread)
        && reflex.verdicts.iter().all(|v| v.holds || v.unread)
}

pub(crate) async fn judge_unread(
    model: &mut dyn Policy,
    ctx: DecideContext<'_>,
    start: &Snapshot,
    reflex: &Decision,
) -> Result<Judged, PolicyError> {
    if !askable(reflex) {
        return Ok(Judged::Nothing);
    }
    let questions: Vec<Question> = reflex
        .verdicts
        .iter()
        .enumerate()
        .filter(|(_, v)| v.unread)
        .map(|(index, v)| Question {
            index,
            criterion: v.criterion.clone(),
        })
        .collect();
    let claims = match model.judge(ctx, &questions).await {
        None => return Ok(Judged::Nothing),
        Some(Err(e)) => {
            tracing::warn!("the judge failed: {e}");
            return Ok(Judged::Nothing);
        }
        Some(Ok(claims)) if claims.len() != questions.len() => {
            tracing::warn!(
                "the judge answered {} of {} questions",
                claims.len(),
                questions.len()
            );
            return Ok(Judged::Nothing);
        }
        Some(Ok(claims)) => claims,
    };
    if claims.iter().any(|c| !c.holds) {
        return Ok(Judged::Nothing);
    }
    let mut verdicts = reflex.verdicts.clone();
    let mut refused = Vec::new();
    for (q, claim) in questions.iter().zip(&claims) {
        let v = &mut verdicts[q.index];
        v.check = "judged by the model on the elements it cited".into();
        match support(&q.criterion, ctx.snapshot, start, &claim.cites) {
            Ok(shown) => {
                v.holds = true;
                v.evidence = Evidence {
                    elements: shown.iter().map(|s| s.id.clone()).collect(),
                    text: shown
                        .iter()
                        .map(|s| format!("{} says {:?}", s.id, s.text))
                        .collect::<Vec<_>>()
                        .join("; "),
                };
            }
            Err(why) => {
                v.evidence = Evidence {
                    elements: Vec::new(),
                    text: format!("the model said it holds; refused: {why}"),
                };
                refused.push(format!("{:?}: {why}", q.criterion));
            }
        }
    }
    if refused.is_empty() {
        let mut d = Decision::terminal(TerminalKind::SubtaskComplete).with_reason(format!(
            "verified: the reflex's checks held and the model's judgment of {} criteria stood on the elements it cited",
            questions.len()
        ));
        d.verdicts = verdicts;
        return Ok(Judged::Complete(d));
    }
    let mut d = Decision::terminal(TerminalKind::NeedsAgent).with_reason(format!(
        "the model judged the work done, and its evidence did not show it: {}",
        refused.join("; ")
    ));
    d.verdicts = verdicts;
    Ok(Judged::Refused(d))
}

/// A model's SUBTASK_COMPLETE, held to the criteria the reflex judged on the same
/// snapshot: it stands only when each of them holds; otherwise the run hands back with
/// the reflex's verdicts as evidence. With none judged (`None`: a step asked on
/// escalation, the reflex not consulted), it hands back.
pub(crate) fn vet_completion(model: Decision, reflex: Option<&Decision>) -> Decision {
    if model.choice != Choice::Terminal(TerminalKind::SubtaskComplete) {
        return model;
    }
    let Some(reflex) = reflex else {
        return Decision::terminal(TerminalKind::NeedsAgent).with_reason(
            "the model said the subtask is complete where no criterion was judged on this snapshot",
        );
    };
    let failing: Vec<&Verdict> = reflex.verdicts.iter().filter(|v| !v.holds).collect();
    if failing.is_empty() {
        return Decision {
            verdicts: reflex.verdicts.clone(),
            ..model
        };
    }
    let why: Vec<String> = failing
        .iter()
        .map(|v| format!("{:?} ({})", v.criterion, v.evidence.text))
        .collect();
    Decision {
        verdicts: reflex.verdicts.clone(),
        ..Decision::terminal(TerminalKind::NeedsAgent).with_reason(format!(
            "the model said the subtask is complete; not shown: {}",
            why.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete() -> Decision {
        Decision::terminal(TerminalKind::SubtaskComplete)
    }

    fn verdict(holds: bool) -> Verdict {
        Verdict {
            criterion: "The order is placed".into(),
            check: "a message that appeared says order + place".into(),
            holds,
            evidence: Evidence::default(),
            unread: false,
        }
    }

    fn reflex(verdicts: Vec<Verdict>) -> Decision {
        Decision {
            verdicts,
            ..Decision::terminal(TerminalKind::NeedsAgent)
        }
    }

    #[test]
    fn a_models_done_stands_only_on_criteria_judged_to_hold() {
        let kind = |d: Decision| d.choice;
        let done = Choice::Terminal(TerminalKind::SubtaskComplete);
        let back = Choice::Terminal(TerminalKind::NeedsAgent);
        assert_eq!(kind(vet_completion(complete(), None)), back);
        let failing = reflex(vec![verdict(true), verdict(false)]);
        assert_eq!(kind(vet_completion(complete(), Some(&failing))), back);
        let held = reflex(vec![verdict(true)]);
        let vetted = vet_completion(complete(), Some(&held));
        assert_eq!(vetted.verdicts, held.verdicts);
        assert_eq!(kind(vetted), done);
    }
}
