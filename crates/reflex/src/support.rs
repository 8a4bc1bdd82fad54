//! Whether the elements a judge cited show a criterion: the rule the reader holds its own
//! evidence to, applied to a model's word. A model that says "holds" to anything must
//! never make a run say done, so its claim stands only when
//! - every cited id is a visible element of the current snapshot;
//! - none is a field (text in an editable field is a draft) or a control (a button's name
//!   says what it would do, not what was done);
//! - no cited text was on the page when the run began (a judgment is about what the run
//!   changed: a static "Save preferences" heading shows nothing was saved);
//! - no cited text denies or weakens what it says ("could not be saved");
//! - together they say every content word of the criterion, by stem (words about the
//!   page itself left out): the reader's own rule for an outcome. Any weaker rule lets a
//!   judge that says yes to everything pass "the account is locked" for "the account is
//!   ready", so the judge finds where the evidence is; the words decide whether it is;
//! - the criterion itself affirms: an absence cannot be shown by citing an element.

use super::affirm::denies;
use super::stem::{content_stems, has_all};
use super::text::{is_stopword, normalize};
use super::vocab::{is_filler, is_page_word, is_pointing};
use arc_core::{ElementId, Role, Snapshot};
use std::collections::HashSet;

/// One cited element that showed the criterion: its id and the text that did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub id: ElementId,
    pub text: String,
}

/// The cited elements that show `criterion` on `now`, or why the claim is refused.
/// `start`: the run's first snapshot.
pub fn support(
    criterion: &str,
    now: &Snapshot,
    start: &Snapshot,
    cites: &[ElementId],
) -> Result<Vec<Shown>, String> {
    if denies(criterion) {
        return Err("a criterion that denies cannot be shown by citing an element".into());
    }
    let stems = key_stems(criterion);
    if stems.is_empty() {
        return Err("the criterion names no content word to find on the page".into());
    }
    if cites.is_empty() {
        return Err("the judge cited no element".into());
    }
    let before: HashSet<String> = start
        .elements
        .iter()
        .filter(|e| e.visible)
        .map(|e| normalize(&e.name))
        .collect();
    let mut shown = Vec::new();
    for id in cites {
        let Some(e) = now.element(id.as_str()) else {
            return Err(format!("the judge cited {id}, which is not on the page"));
        };
        if !e.visible {
            return Err(format!("the judge cited {id}, which is not visible"));
        }
        if is_field_or_control(&e.role) {
            return Err(format!(
                "the judge cited {id}, a {}: a field holds a draft and a control's name says what it would do",
                e.role
            ));
        }
        let text = e.name.trim();
        let norm = normalize(text);
        if norm.is_empty() {
            return Err(format!("the judge cited {id}, which shows no text"));
        }
        if before.contains(&norm) {
            return Err(format!(
                "the judge cited {id} ({text:?}), which showed the same before the run acted"
            ));
        }
        if denies(text) {
            return Err(format!("the judge cited {id} ({text:?}), which denies it"));
        }
        shown.push(Shown {
            id: id.clone(),
            text: text.to_owned(),
        });
    }
    let said: Vec<String> = shown.iter().map(|s| normalize(&s.text)).collect();
    if !has_all(&said.join(" "), &stems) {
        return Err(format!(
            "the cited elements do not say every word of the criterion ({})",
            stems.join(", ")
        ));
    }
    Ok(shown)
}

/// The criterion's content words as stems, without the words that only point at the
/// page or at seeing it ("the page", "is shown").
pub(crate) fn key_stems(criterion: &str) -> Vec<String> {
    let norm = normalize(criterion);
    let words: Vec<&str> = norm
        .split(' ')
        .filter(|w| {
            !w.is_empty() && !is_stopword(w) && !is_filler(w) && !is_page_word(w) && !is_pointing(w)
        })
        .collect();
    content_stems(&words.join(" "))
}

pub(crate) fn is_field_or_control(role: &Role) -> bool {
    role.is_text_input()
        || matches!(
            role,
            Role::Button
                | Role::Link
                | Role::CheckBox
                | Role::Radio
                | Role::Switch
                | Role::Slider
                | Role::SpinButton
                | Role::ListBox
                | Role::Option
                | Role::MenuItem
                | Role::Tab
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::Element;

    fn snap(els: &[(&str, Role, &str)]) -> Snapshot {
        let els: Vec<Element> = els
            .iter()
            .map(|(id, role, name)| {
                let mut e = Element::new(*id, role.clone(), *name);
                e.visible = true;
                e
            })
            .collect();
        Snapshot::new("app", "window", els)
    }

    fn ids(v: &[&str]) -> Vec<ElementId> {
        v.iter().map(|s| ElementId::from(*s)).collect()
    }

    #[test]
    fn a_new_confirmation_shows_an_outcome() {
        let start = snap(&[("b", Role::Button, "Save preferences")]);
        let now = snap(&[
            ("b", Role::Button, "Save preferences"),
            ("s", Role::Status, "Preferences saved."),
        ]);
        let got = support("The preferences are saved", &now, &start, &ids(&["s"])).unwrap();
        assert_eq!(got[0].id.as_str(), "s");
        let locked = snap(&[("s", Role::Status, "Preferences locked.")]);
        assert!(support("The preferences are saved", &locked, &start, &ids(&["s"])).is_err());
    }

    #[test]
    fn a_contradicting_page_refuses_an_always_yes_claim() {
        let start = snap(&[("h", Role::Heading, "Sign in")]);
        let now = snap(&[
            ("h", Role::Heading, "Sign in"),
            ("a", Role::Alert, "Wrong username or password."),
            ("f", Role::TextField, "logged in"),
            ("b", Role::Button, "Log in"),
        ]);
        for cited in [&["a"][..], &["h"], &["f"], &["b"], &["zz"], &[]] {
            assert!(
                support("The user is logged in", &now, &start, &ids(cited)).is_err(),
                "{cited:?}"
            );
        }
        let denied = snap(&[("d", Role::Status, "You are not logged in")]);
        assert!(support("The user is logged in", &denied, &start, &ids(&["d"])).is_err());
        assert!(support("No error is shown", &now, &start, &ids(&["h"])).is_err());
    }
}
