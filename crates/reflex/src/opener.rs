//! "Create a new note titled …": where the page offers a "New note" control, a new record
//! starts there. It is pressed before any input is placed: an editor otherwise holds the
//! record that is open, and typing into it would overwrite that one. Once pressed, it is
//! the creating clause's step when a later clause commits ("… and save it").

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::step::{Act, StepKind};
use super::text::normalize_name;
use arc_core::{Action, ActionRecord, Role};

/// The kinds of thing the goal asks for anew: the word after each "new".
fn kinds(said: &str) -> Vec<&str> {
    let words: Vec<&str> = said.split(' ').collect();
    words
        .windows(2)
        .filter(|w| w[0] == "new" && !super::text::is_stopword(w[1]))
        .map(|w| w[1])
        .collect()
}

/// Whether a control's normalized name says "new <kind>" ("New note", "+ New note").
fn names_new(name: &str, kind: &str) -> bool {
    let name = name.trim_start_matches(['+', ' ']);
    let rest = name.strip_prefix("create ").unwrap_or(name);
    rest.strip_prefix("new ")
        .and_then(|r| r.split(' ').next())
        .is_some_and(|w| super::stem::same_stem(w, kind))
}

/// The one control that starts a new record of a kind the goal asks for.
fn opener(f: &Facts, said: &str) -> Option<usize> {
    let kinds = kinds(said);
    if kinds.is_empty() {
        return None;
    }
    f.only(|i| {
        matches!(f.els[i].role, Role::Button | Role::Link | Role::MenuItem)
            && clickable(f, i)
            && kinds.iter().any(|k| names_new(f.name(i), k))
    })
    .one()
}

/// The press that starts the new record, before anything is typed.
pub fn pending(f: &Facts, h: &[ActionRecord], said: &str) -> Option<Act> {
    if h.iter().any(history::edits_form) || opened(h, said) {
        return None;
    }
    let i = opener(f, said)?;
    Some(Act {
        action: Action::click(f.els[i].id.clone()),
        kind: StepKind::Click,
        confidence: 0.9,
        margin: 0.9,
        why: format!("start a new record ({})", super::inputs::describe(f, i)),
        order: i,
    })
}

/// Whether the run pressed a control starting a new record of a kind the goal names.
pub fn opened(h: &[ActionRecord], said: &str) -> bool {
    let kinds = kinds(said);
    h.iter().any(|r| {
        r.on_target()
            && r.target_name
                .as_deref()
                .is_some_and(|n| kinds.iter().any(|k| names_new(&normalize_name(n), k)))
    })
}

#[cfg(test)]
mod tests {
    use super::{kinds, names_new};

    #[test]
    fn a_new_kind_is_named_by_its_new_control_only() {
        assert_eq!(kinds("create a new note titled gift ideas"), ["note"]);
        assert!(kinds("set the password").is_empty());
        assert!(names_new("new note", "note"));
        assert!(names_new("+ new notes", "note"));
        assert!(names_new("create new note", "note"));
        assert!(!names_new("new password", "note"));
        assert!(!names_new("renew note", "note"));
    }
}
