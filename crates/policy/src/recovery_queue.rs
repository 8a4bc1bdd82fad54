//! A validated recovery plan, handed out one decision per `decide` call. Each decision
//! still goes through the executor's materialize, risk and freshness checks; the queue
//! itself only checks that the UI is still the one the plan was made for, and is
//! dropped the moment it is not.

use arc_core::recovery::RecoveryCheck;
use arc_core::{CompiledRecovery, DecideContext, Decision};
use std::collections::VecDeque;

pub(crate) struct RecoveryQueue {
    plan_id: Option<String>,
    /// The decisions not yet handed out.
    decisions: VecDeque<Decision>,
    /// How many have been handed out.
    handed: usize,
    /// Checks to make once `.0` decisions have been handed out (and acted).
    checks: Vec<(usize, RecoveryCheck)>,
}

/// What the queue has for this cycle.
// Returned once per cycle and matched at once: boxing the decision would only allocate.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Next {
    Decision(Decision),
    /// The plan is spent: the ordinary tiers take over.
    Done,
    /// The UI diverged from the plan; the rest of it is dropped.
    Dropped(String),
}

impl RecoveryQueue {
    pub fn new(plan: CompiledRecovery) -> Self {
        RecoveryQueue {
            plan_id: plan.plan_id,
            decisions: plan.decisions.into(),
            handed: 0,
            checks: plan.checks,
        }
    }

    pub fn next(&mut self, ctx: &DecideContext<'_>) -> Next {
        if let Some(why) = self.diverged(ctx) {
            self.decisions.clear();
            let id = self.plan_id.as_deref().unwrap_or("-");
            return Next::Dropped(format!("recovery plan {id} dropped: {why}"));
        }
        match self.decisions.pop_front() {
            Some(d) => {
                self.handed += 1;
                Next::Decision(d)
            }
            None => Next::Done,
        }
    }

    fn diverged(&self, ctx: &DecideContext<'_>) -> Option<String> {
        if self.handed > 0 {
            if let Some(v) = ctx.verdict {
                if v.stale() {
                    return Some(format!("step {} went stale", self.handed - 1));
                }
                if v.signal.failure.is_some() {
                    return Some(format!("step {} failed", self.handed - 1));
                }
            }
        }
        for (after, check) in &self.checks {
            if *after == self.handed {
                if let Err(why) = check_holds(check, ctx) {
                    return Some(why);
                }
            }
        }
        let next = self.decisions.front()?;
        let target = next.action()?.target()?;
        match ctx.snapshot.element(target.as_str()) {
            Some(_) => None,
            None => Some(format!("its next target {target} is gone")),
        }
    }
}

fn check_holds(check: &RecoveryCheck, ctx: &DecideContext<'_>) -> Result<(), String> {
    match check {
        RecoveryCheck::Visible { target } => match ctx.snapshot.element(target.as_str()) {
            Some(_) => Ok(()),
            None => Err(format!("{target} is not visible")),
        },
        RecoveryCheck::Text { target, text } => {
            let el = ctx
                .snapshot
                .element(target.as_str())
                .ok_or_else(|| format!("{target} is not visible"))?;
            let value = el.value.as_ref().map(|v| v.as_text().into_owned());
            let shown = [Some(el.name.as_str()), value.as_deref()];
            if shown.iter().flatten().any(|s| s.contains(text.as_str())) {
                Ok(())
            } else {
                Err(format!("{target} does not show {text:?}"))
            }
        }
    }
}
