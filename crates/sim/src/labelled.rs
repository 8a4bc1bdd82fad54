//! A script whose steps name their targets the way a person reads them — a role and a
//! visible name — resolved against each snapshot at decision time. Ids are assigned by
//! the backend when it observes, so a script for a real page cannot know them ahead.
//!
//! ```json
//! [{"kind": "TYPE_TEXT", "target": {"role": "text_field", "name": "Email"}, "input_key": "email"},
//!  {"kind": "CLICK", "target": {"role": "button", "name": "Sign up"}},
//!  {"terminal": "SUBTASK_COMPLETE"}]
//! ```
//!
//! A step may also give `target_id` directly. A label that matches nothing visible ends
//! the run with NEEDS_AGENT naming it, rather than guessing.

use arc_core::{
    Action, DecideContext, Decision, ElementId, Policy, PolicyError, Role, Snapshot, TerminalKind,
    Tier,
};
use async_trait::async_trait;
use serde::Deserialize;
use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    pub role: Role,
    pub name: String,
}

arc_core::action_wire! {
    /// One step: targets by label (or id), the other parameters from core's table.
    #[derive(Clone, Debug, Default, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Step {
        head {
            pub terminal: Option<TerminalKind>,
            pub target: Option<Label>,
            pub target_id: Option<ElementId>,
            pub destination: Option<Label>,
        }
        values
        tail {
            pub reason: Option<String>,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct LabelledScript {
    steps: VecDeque<Step>,
    consumed: u32,
}

impl LabelledScript {
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        LabelledScript {
            steps: steps.into_iter().collect(),
            consumed: 0,
        }
    }

    /// Parses a JSON array of steps, checking each names an action or a terminal.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let steps: Vec<Step> = serde_json::from_str(text).map_err(|e| format!("script: {e}"))?;
        for (i, s) in steps.iter().enumerate() {
            match s.kind {
                _ if s.kind.is_some() == s.terminal.is_some() => {
                    return Err(format!("script[{i}]: a step has either kind or terminal"));
                }
                // Check the step's shape now, with placeholders where labels resolve later.
                Some(kind) => {
                    let placeholder = |label: &Option<Label>, id: &Option<ElementId>| {
                        id.clone()
                            .or_else(|| label.as_ref().map(|_| ElementId::from("label")))
                    };
                    Action::from_fields(s.action_fields(
                        kind,
                        placeholder(&s.target, &s.target_id),
                        placeholder(&s.destination, &None),
                    ))
                    .map_err(|e| format!("script[{i}]: {e}"))?;
                }
                None => {}
            }
        }
        Ok(LabelledScript::new(steps))
    }

    pub fn consumed(&self) -> u32 {
        self.consumed
    }
}

/// The first visible element with this role and name (case and spacing ignored).
pub fn resolve(snapshot: &Snapshot, label: &Label) -> Option<ElementId> {
    let want = squash(&label.name);
    snapshot
        .elements
        .iter()
        .find(|e| e.visible && e.role == label.role && squash(&e.name) == want)
        .map(|e| e.id.clone())
}

fn squash(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn unresolved(label: &Label) -> Decision {
    Decision::terminal(TerminalKind::NeedsAgent).with_reason(format!(
        "no visible {} named {:?} on the page",
        label.role, label.name
    ))
}

#[async_trait]
impl Policy for LabelledScript {
    fn name(&self) -> &'static str {
        "labelled-script"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let decision = self.next(ctx)?;
        Ok(decision.by(Tier::Script, self.name()))
    }
}

impl LabelledScript {
    fn next(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let step = self.steps.pop_front().ok_or_else(|| {
            PolicyError::new(format!("script exhausted after {} steps", self.consumed))
        })?;
        self.consumed += 1;
        let Some(kind) = step.kind else {
            let terminal = step.terminal.unwrap_or(TerminalKind::NeedsAgent);
            let mut d = Decision::terminal(terminal);
            d.reason = step.reason;
            return Ok(d);
        };
        let target_id = match (&step.target, step.target_id.clone()) {
            (Some(label), _) => match resolve(ctx.snapshot, label) {
                Some(id) => Some(id),
                None => return Ok(unresolved(label)),
            },
            (None, id) => id,
        };
        let secondary_target_id = match &step.destination {
            Some(label) => match resolve(ctx.snapshot, label) {
                Some(id) => Some(id),
                None => return Ok(unresolved(label)),
            },
            None => None,
        };
        let action = Action::from_fields(step.action_fields(kind, target_id, secondary_target_id))
            .map_err(|e| PolicyError::new(format!("script step {}: {e}", self.consumed)))?;
        Ok(Decision::act(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::{ActionKind, ScrollDirection};

    /// A step accepts core's value parameters beside its labels, reads them into the
    /// action, and names a key it does not know.
    #[test]
    fn a_step_takes_the_table_parameters_and_refuses_others() {
        let script = LabelledScript::from_json(
            r#"[{"kind": "SCROLL", "scroll_direction": "DOWN"},
                {"kind": "DRAG_BY", "target_id": "e1", "drag_dx": 5, "drag_dy": -2}]"#,
        )
        .unwrap();
        let steps: Vec<&Step> = script.steps.iter().collect();
        let scroll = Action::from_fields(steps[0].action_fields(ActionKind::Scroll, None, None));
        assert_eq!(
            scroll,
            Ok(Action::Scroll {
                direction: ScrollDirection::Down,
                target: None
            })
        );
        let drag = steps[1].action_fields(ActionKind::DragBy, steps[1].target_id.clone(), None);
        assert_eq!((drag.drag_dx, drag.drag_dy), (Some(5.0), Some(-2.0)));
        let err = LabelledScript::from_json(r#"[{"kind": "CLICK", "secondary_target_id": "e2"}]"#)
            .unwrap_err();
        assert!(
            err.contains(
                "unknown field `secondary_target_id`, expected one of `kind`, `terminal`, \
                 `target`, `target_id`, `destination`, `input_key`, `key`, `hotkey`, \
                 `scroll_direction`, `drag_dx`, `drag_dy`, `click_modifier`, `reason`"
            ),
            "{err}"
        );
    }
}
