//! What an action is expected to do, typed, so settling can end as soon as a backend sees
//! it on the page (with nothing in flight and the UI quiet for a short window) instead of
//! always waiting out the full quiet window. Derived from the action's kind and target,
//! or for a click from what the deciding policy expects of it ([`Expect`], carried on the
//! [`Decision`]); anything else is [`ExpectedEffect::Unknown`] and settles as before.

use crate::action::Action;
use crate::decision::Decision;
use crate::element::{Element, ElementId};
use crate::executable::ExecutableAction;
use crate::role::Role;
use crate::snapshot::Snapshot;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedEffect {
    /// No effect a backend can check cheaply (a button's click, a key, a scroll, a drag):
    /// settle on quiet alone.
    Unknown,
    /// The text field holds exactly `value` (TYPE_TEXT, SET_VALUE).
    ValueSet { target: ElementId, value: String },
    /// The checkbox, radio or switch is checked (`true`) or not (a CLICK on it).
    Checked { target: ElementId, checked: bool },
    /// The select shows the option labelled (or valued) `option` (SELECT_OPTION).
    OptionSelected { target: ElementId, option: String },
    /// The page's URL is `url` (NAVIGATE).
    Navigated { url: String },
    /// The element has the focus (a CLICK on a text field).
    FocusMoved { target: ElementId },
    /// The disclosure (accordion header, menu button, tree item) is expanded (`true`) or
    /// collapsed.
    Expanded { target: ElementId, expanded: bool },
    /// The tab, option, row or tree item is selected (a CLICK on an unselected one).
    Selected { target: ElementId },
    /// The element left the page or stopped rendering (a popup's close control).
    Hidden { target: ElementId },
    /// The page reacts to the click at all — a change, a request, a navigation — with
    /// nothing more specific to check (a commit: the submit fired). Settling judges it
    /// (the probe moved off the sample before the action); the target is where the
    /// backend looks for animations that move it.
    Reaction { target: ElementId },
}

/// What a policy expects its CLICK to do to the clicked element, when it knows (the
/// reflex does: it clicks to expand, to select, to dismiss). Runtime-internal: not part
/// of the decision's wire shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Expanded(bool),
    Selected,
    Checked(bool),
    Hidden,
    /// A commit or a final click: the page reacts (see [`ExpectedEffect::Reaction`]).
    Reaction,
}

impl Expect {
    /// Whether element `e` exposes the state this expectation checks (a reaction and a
    /// disappearance need none).
    fn shown_by(self, e: &Element) -> bool {
        match self {
            Expect::Expanded(_) => e.expanded.is_some(),
            Expect::Selected | Expect::Checked(_) => e.selected.is_some(),
            Expect::Hidden | Expect::Reaction => true,
        }
    }
}

impl ExpectedEffect {
    /// The effect of `exec` as `decision` decided it: the policy's own expectation for a
    /// click when it has one (a bare reaction only when the target states nothing), else
    /// [`ExpectedEffect::of`].
    pub fn decided(
        decision: &Decision,
        exec: &ExecutableAction,
        snapshot: &Snapshot,
    ) -> ExpectedEffect {
        let stated = ExpectedEffect::of(exec, snapshot);
        match (&exec.action, decision.expect) {
            // What the target states it will become is more precise than "a reaction".
            (Action::Click { .. }, Some(Expect::Reaction)) if stated.is_known() => stated,
            // A state the target does not expose can never be seen to land (settling would
            // wait out the whole quiet window): what it does state, else a reaction. A
            // date field clicked to open its calendar states focus, not expansion.
            (
                Action::Click {
                    target,
                    modifier: None,
                },
                Some(expect),
            ) if !snapshot
                .element(target.as_str())
                .is_some_and(|e| expect.shown_by(e)) =>
            {
                if stated.is_known() {
                    stated
                } else {
                    ExpectedEffect::Reaction {
                        target: target.clone(),
                    }
                }
            }
            (
                Action::Click {
                    target,
                    modifier: None,
                },
                Some(expect),
            ) => {
                let target = target.clone();
                match expect {
                    Expect::Expanded(expanded) => ExpectedEffect::Expanded { target, expanded },
                    Expect::Selected => ExpectedEffect::Selected { target },
                    Expect::Checked(checked) => ExpectedEffect::Checked { target, checked },
                    Expect::Hidden => ExpectedEffect::Hidden { target },
                    Expect::Reaction => ExpectedEffect::Reaction { target },
                }
            }
            _ => stated,
        }
    }

    /// The effect `exec` should have, judged on the snapshot it was decided on. A typed
    /// value a key then submits, and a click holding a modifier, settle on quiet alone:
    /// what they lead to (a submitted form, a selection) is not the element's own state.
    pub fn of(exec: &ExecutableAction, snapshot: &Snapshot) -> ExpectedEffect {
        let element = |id: &ElementId| snapshot.element(id.as_str());
        match &exec.action {
            Action::TypeText {
                target,
                submit: None,
                ..
            }
            | Action::SetValue { target, .. } => match element(target) {
                Some(e) if e.role.is_text_input() => ExpectedEffect::ValueSet {
                    target: target.clone(),
                    value: exec.text().into_owned(),
                },
                _ => ExpectedEffect::Unknown,
            },
            Action::SelectOption { target, .. } => ExpectedEffect::OptionSelected {
                target: target.clone(),
                option: exec.text().into_owned(),
            },
            Action::Navigate { .. } => ExpectedEffect::Navigated {
                url: exec.text().into_owned(),
            },
            Action::Click {
                target,
                modifier: None,
            } => match element(target) {
                Some(e) if matches!(e.role, Role::CheckBox | Role::Switch) => match e.selected {
                    Some(was) => ExpectedEffect::Checked {
                        target: target.clone(),
                        checked: !was,
                    },
                    None => ExpectedEffect::Unknown,
                },
                Some(e) if e.role == Role::Radio => ExpectedEffect::Checked {
                    target: target.clone(),
                    checked: true,
                },
                Some(e) if matches!(e.role, Role::TextField | Role::PasswordField) => {
                    ExpectedEffect::FocusMoved {
                        target: target.clone(),
                    }
                }
                // A tab shows its panel by becoming selected.
                Some(e) if e.role == Role::Tab && e.selected == Some(false) => {
                    ExpectedEffect::Selected {
                        target: target.clone(),
                    }
                }
                // A disclosure that states its state toggles it.
                Some(e) => match e.expanded {
                    Some(was) => ExpectedEffect::Expanded {
                        target: target.clone(),
                        expanded: !was,
                    },
                    None => ExpectedEffect::Unknown,
                },
                None => ExpectedEffect::Unknown,
            },
            _ => ExpectedEffect::Unknown,
        }
    }

    pub fn is_known(&self) -> bool {
        *self != ExpectedEffect::Unknown
    }

    /// Whether the effect is the page's reaction itself, judged by settling rather than
    /// checked on the page.
    pub fn is_reaction(&self) -> bool {
        matches!(self, ExpectedEffect::Reaction { .. })
    }
}
