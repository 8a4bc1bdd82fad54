//! Assertions on the simulated app, checked on an observation the harness makes itself
//! after the run (the app's state rendered as a snapshot), not on the runtime's result.
//! A selector matches an element id (`#email`); the URL does not exist there.

use super::{Assertion, AssertionOutcome, ElementState, Fingerprint, Locator, TextProperty};
use arc_core::{Element, Snapshot};

/// The simulated app's fingerprint: the snapshot revision.
pub fn fingerprint(snapshot: &Snapshot) -> Fingerprint {
    Fingerprint(snapshot.revision.clone())
}

pub fn check_all(
    snapshot: &Snapshot,
    assertions: &[Assertion],
    before: Option<&Fingerprint>,
) -> Vec<AssertionOutcome> {
    assertions
        .iter()
        .map(|a| check(snapshot, a, before))
        .collect()
}

pub fn check(
    snapshot: &Snapshot,
    assertion: &Assertion,
    before: Option<&Fingerprint>,
) -> AssertionOutcome {
    let judge = |ok: bool, message: String| AssertionOutcome::judge(assertion, ok, message);
    match assertion {
        Assertion::Url(_) => AssertionOutcome::fail(assertion, "the simulated app has no URL"),
        Assertion::PageTitle(m) => judge(
            m.is_match(snapshot.title()),
            format!("the window title is {:?}", snapshot.title()),
        ),
        Assertion::VisibleText { text } => {
            let shown = snapshot
                .elements
                .iter()
                .filter(|e| e.visible)
                .any(|e| e.name.contains(text.as_str()));
            let message = if shown { "is shown" } else { "is not shown" };
            judge(shown, format!("{text:?} {message}"))
        }
        Assertion::ElementState { target, state } => {
            let found = find(snapshot, target);
            let (ok, message) = state_of(target, *state, found);
            judge(ok, message)
        }
        Assertion::InputValue { target, value } => match find(snapshot, target) {
            None => judge(false, format!("no element matches {target}")),
            Some(e) => {
                let got = e.value.as_ref().map(|v| v.to_string());
                judge(
                    got.as_deref() == Some(value.as_str()),
                    format!("{} has value {got:?}", e.id),
                )
            }
        },
        Assertion::ElementText {
            target,
            property,
            text,
        } => match find(snapshot, target) {
            None => judge(false, format!("no element matches {target}")),
            Some(e) => {
                // The app's elements carry a name and a value; nothing has an index.
                let got = match property {
                    TextProperty::Text => Some(e.name.clone()),
                    TextProperty::Value => e.value.as_ref().map(|v| v.to_string()),
                    TextProperty::SelectedIndex => None,
                };
                match got {
                    Some(got) => judge(
                        text.is_match(&got),
                        format!("{} has {} {got:?}", e.id, property.as_str()),
                    ),
                    None => judge(false, format!("{} has no {}", e.id, property.as_str())),
                }
            }
        },
        Assertion::StateChanged { changed } => match before {
            None => AssertionOutcome::fail(assertion, "no fingerprint was taken before the run"),
            Some(before) => {
                let differs = &fingerprint(snapshot) != before;
                judge(
                    differs == *changed,
                    format!(
                        "the app {} since the start",
                        if differs { "changed" } else { "did not change" }
                    ),
                )
            }
        },
        Assertion::Rows { .. } => AssertionOutcome::fail(assertion, super::page::NO_DATABASE),
    }
}

fn find<'s>(snapshot: &'s Snapshot, target: &Locator) -> Option<&'s Element> {
    snapshot.elements.iter().find(|e| match target {
        Locator::Css(s) => s.strip_prefix('#') == Some(e.id.as_str()),
        Locator::Role { role, name } => &e.role == role && e.name == *name,
    })
}

fn state_of(target: &Locator, state: ElementState, e: Option<&Element>) -> (bool, String) {
    let Some(e) = e else {
        let ok = matches!(state, ElementState::Hidden | ElementState::Detached);
        return (ok, format!("no element matches {target}"));
    };
    let what = format!("{} ({} {:?})", e.id, e.role, e.name);
    let ok = match state {
        ElementState::Visible => e.visible,
        ElementState::Hidden => !e.visible,
        ElementState::Enabled => e.enabled,
        ElementState::Disabled => !e.enabled,
        // The simulated app reports a checkbox's state as `selected`.
        ElementState::Checked | ElementState::Selected => e.selected == Some(true),
        ElementState::Unchecked | ElementState::Unselected => e.selected == Some(false),
        ElementState::Attached => true,
        ElementState::Detached => false,
    };
    let facts = format!(
        "{what}: visible {}, enabled {}, selected {:?}",
        e.visible, e.enabled, e.selected
    );
    (ok, facts)
}
