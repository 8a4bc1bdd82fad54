//! What an action is expected to do, typed, so settling can end as soon as a backend sees
//! it on the page (with nothing in flight and the UI quiet for a short window) instead of
//! always waiting out the full quiet window. Derived from the action's kind and target
//! only; anything else is [`ExpectedEffect::Unknown`] and settles as before.

use crate::action::Action;
use crate::element::ElementId;
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
}

impl ExpectedEffect {
    /// The effect `exec` should have, judged on the snapshot it was decided on.
    pub fn of(exec: &ExecutableAction, snapshot: &Snapshot) -> ExpectedEffect {
        let element = |id: &ElementId| snapshot.element(id.as_str());
        match &exec.action {
            Action::TypeText { target, .. } | Action::SetValue { target, .. } => {
                match element(target) {
                    Some(e) if e.role.is_text_input() => ExpectedEffect::ValueSet {
                        target: target.clone(),
                        value: exec.text().into_owned(),
                    },
                    _ => ExpectedEffect::Unknown,
                }
            }
            Action::SelectOption { target, .. } => ExpectedEffect::OptionSelected {
                target: target.clone(),
                option: exec.text().into_owned(),
            },
            Action::Navigate { .. } => ExpectedEffect::Navigated {
                url: exec.text().into_owned(),
            },
            Action::Click { target } => match element(target) {
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
                _ => ExpectedEffect::Unknown,
            },
            _ => ExpectedEffect::Unknown,
        }
    }

    pub fn is_known(&self) -> bool {
        *self != ExpectedEffect::Unknown
    }
}
