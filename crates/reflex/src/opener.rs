//! "Create a new note titled …", "Add a user …": where the page offers a "New note" control,
//! a new record starts there. It is pressed before any input is placed: an editor otherwise
//! holds the record that is open, and typing into it would overwrite that one. "Add user",
//! or a bare "Add" where its row or list item names the kind ("Users | Add | Change", an
//! admin's index), lead to the form only while it is not on the page: on a form, "Add
//! event" is its commit. Once pressed,
//! it is the creating clause's step when a later clause commits ("… and save it").

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::step::{Act, StepKind};
use super::text::normalize_name;
use arc_core::{Action, ActionRecord, Role};

/// Verbs that start a record when they lead a control's name or a goal's clause.
const CREATING: [&str; 3] = ["new", "add", "create"];

/// The kinds of thing the goal asks for anew: the word after each "new", and after
/// "add/create a|an|another" ("add a user", "create a group called …").
fn kinds(said: &str) -> Vec<&str> {
    let words: Vec<&str> = said.split(' ').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = match *w {
            "new" => words.get(i + 1),
            "add" | "create" if matches!(words.get(i + 1), Some(&("a" | "an" | "another"))) => {
                words.get(i + 2)
            }
            _ => None,
        };
        if let Some(&k) = next {
            if k != "new" && !super::text::is_stopword(k) && !out.contains(&k) {
                out.push(k);
            }
        }
    }
    out
}

/// Whether a control's normalized name says "new <kind>", "add <kind>", "create new
/// <kind>" ("New note", "+ Add user").
fn names_new(name: &str, kind: &str) -> bool {
    let name = name.trim_start_matches(['+', ' ']);
    let mut words = name.split(' ').peekable();
    let mut led = false;
    while let Some(w) = words.next_if(|w| CREATING.contains(w) || (led && *w == "a")) {
        led |= w != "a";
    }
    led && words
        .next()
        .is_some_and(|w| super::stem::same_stem(w, kind))
}

/// A control named by creating verbs alone ("Add", "+ New", "Create New").
fn bare(name: &str) -> bool {
    let name = name.trim_start_matches(['+', ' ']).trim();
    !name.is_empty() && name.split(' ').all(|w| CREATING.contains(&w))
}

/// A bare creating control whose row, list item or paragraph names the kind ("Users"
/// beside "Add"; a sidebar's "Issues" block with "Create New").
fn bare_in_row_of(f: &Facts, i: usize, kinds: &[&str]) -> bool {
    let Some(row) = f
        .ancestors(i)
        .find(|&a| matches!(f.els[a].role, Role::Row | Role::ListItem | Role::Paragraph))
    else {
        return false;
    };
    f.descendants(row).any(|d| {
        d != i
            && !bare(f.name(d))
            && f.name(d)
                .split(' ')
                .any(|w| kinds.iter().any(|k| super::stem::same_stem(w, k)))
    })
}

/// The one control that starts a new record of a kind the goal asks for; a bare one only
/// when `form_absent` (a field the goal fills is not on the page).
fn opener(f: &Facts, said: &str, form_absent: impl FnOnce() -> bool) -> Option<usize> {
    let kinds = kinds(said);
    if kinds.is_empty() {
        return None;
    }
    let control = |i: usize| {
        matches!(f.els[i].role, Role::Button | Role::Link | Role::MenuItem) && clickable(f, i)
    };
    // "New note", "Create new note": what starts a record; "Add note" may commit one.
    let says_new = |i: usize| {
        let name = f.name(i).trim_start_matches(['+', ' ']);
        let mut lead = name
            .split(' ')
            .take_while(|w| CREATING.contains(w) || *w == "a");
        lead.any(|w| w == "new")
    };
    let named = |i: usize| kinds.iter().any(|k| names_new(f.name(i), k));
    f.only(|i| control(i) && named(i) && says_new(i))
        .one()
        .or_else(|| {
            // "Add event" is as often the commit of a form on the page as the way to it.
            // A control naming the kind before a bare "Add" beside it in a sidebar's row.
            form_absent().then(|| {
                f.only(|i| control(i) && named(i)).one().or_else(|| {
                    f.only(|i| control(i) && bare(f.name(i)) && bare_in_row_of(f, i, &kinds))
                        .one()
                })
            })?
        })
}

/// The press that starts the new record, before anything is typed.
pub fn pending(
    f: &Facts,
    h: &[ActionRecord],
    said: &str,
    form_absent: impl FnOnce() -> bool,
) -> Option<Act> {
    if h.iter().any(history::edits_form) || opened(h, said) {
        return None;
    }
    let i = opener(f, said, form_absent)?;
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
            && r.target_name.as_deref().is_some_and(|n| {
                let n = normalize_name(n);
                (bare(&n) && !kinds.is_empty()) || kinds.iter().any(|k| names_new(&n, k))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::{kinds, names_new};

    #[test]
    fn a_new_kind_is_named_by_its_new_control_only() {
        assert_eq!(kinds("create a new note titled gift ideas"), ["note"]);
        assert_eq!(kinds("add a new user"), ["user"]);
        assert_eq!(kinds("create a group called auditors"), ["group"]);
        assert!(kinds("add amara to the support group").is_empty());
        assert!(kinds("set the password").is_empty());
        assert!(names_new("add user", "user"));
        assert!(names_new("+ add a group", "group"));
        assert!(!names_new("add", "user"));
        assert!(!names_new("a user", "user"));
        assert!(names_new("new note", "note"));
        assert!(names_new("+ new notes", "note"));
        assert!(names_new("create new note", "note"));
        assert!(!names_new("new password", "note"));
        assert!(!names_new("renew note", "note"));
    }
}
