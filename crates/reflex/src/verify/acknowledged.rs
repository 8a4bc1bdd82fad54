//! An outcome the page acknowledged: pages confirm in their own words and planners
//! describe outcomes in theirs ("The loan of the atlas to Jo is recorded" for a panel
//! reading "Checked out: World atlas, due 3 May, Jo Smith"). When
//! every step of the goal is done and a criterion is an outcome statement the reader
//! could not hold (unreadable, or its message wording missing), it still holds when
//! - the run's last action was its commit, on its target, the only press since its last
//!   edit, and the page answered it with new text (not in a field, not a control): the
//!   acknowledgement;
//! - nothing new denies, reports a fault or asks ("Wrong password", "Are you sure?"), and
//!   the press did not open a next step (a new password field, or a field given focus);
//! - the acknowledgement itself says at least one of the criterion's content words (or
//!   the fields the commit sent say them all: "Language = Deutsch"), and every one is
//!   said by what the press brought (the new text and what holds it) or a
//!   field the run filled before the press, or the list entry it opened to reach them
//!   (the record it committed); never by the
//!   pressed control's own name, which says what was asked, not what was done. Text that was on the page before the press is no evidence: a page that
//!   names an electric bike does not make the city bike the one rented;
//! - the criterion affirms; an absence or a state is never acknowledged, only checked.

use super::super::affirm::denies;
use super::super::facts::Facts;
use super::super::history;
use super::super::stem::{has_all, has_any, lacking, stem};
use super::super::step::StepKind;
use super::super::support::{is_field_or_control, key_stems};
use super::super::text::normalize;
use super::happened::Event;
use super::{Check, Criterion};
use arc_core::{ActionKind, ActionRecord, Role, Snapshot};
use std::collections::HashSet;

/// How many containers above a new text name where it appeared: its list or section
/// ("Upcoming" for a new event row), on a shallow page the document and its title.
const CONTEXT_DEPTH: usize = 3;

/// The acknowledgement's elements that say the criterion's words, or why it is not one.
/// `before_press`: the snapshot the run's last press was decided on.
pub fn acknowledged(
    f: &Facts,
    h: &[ActionRecord],
    c: &Criterion,
    before_press: &Snapshot,
) -> Result<Vec<usize>, String> {
    if !is_outcome(&c.check) || denies(&c.text) {
        return Err("not an outcome statement".into());
    }
    let kinds = referenced_kinds(&c.text);
    let mut stems = key_stems(&c.text);
    stems.retain(|s| !kinds.contains(s));
    if stems.is_empty() {
        return Err("the criterion names no content word".into());
    }
    let last = h
        .iter()
        .rev()
        .find(|r| r.action.kind() != ActionKind::Wait)
        .ok_or("the run did nothing")?;
    // The form's commit, as this policy made it: a press that only opened something (a
    // note in a list) is answered by what it opened, not by a record made.
    if history::tag(last) != Some(StepKind::Commit.as_str())
        || !last.on_target()
        || !last.state_changed
    {
        return Err("the run's last action was not a commit the page answered".into());
    }
    // And the one press since the form was last edited: after a second press, what shows
    // may answer the first, and the second did something else.
    let since_edit = history::last_edit(h).map_or(0, |k| k + 1);
    let presses = h[since_edit..]
        .iter()
        .filter(|r| r.action.kind() != ActionKind::Wait)
        .count();
    if presses != 1 {
        return Err("the run pressed more than its commit since its last edit".into());
    }
    let before = Facts::new(before_press);
    let seen: HashSet<String> = (0..before.len())
        .filter(|&i| before.els[i].visible)
        .map(|i| before.name(i).to_owned())
        .collect();
    let new: Vec<usize> = (0..f.len())
        .filter(|&i| {
            let e = &f.els[i];
            e.visible
                && !is_field_or_control(&e.role)
                && !f.name(i).is_empty()
                && !seen.contains(f.name(i))
        })
        .collect();
    if let Some(&i) = new.iter().find(|&&i| faults(f, i)) {
        return Err(format!("the page answered with {:?}", f.els[i].name.trim()));
    }
    if let Some(i) = next_step(f, &before) {
        return Err(format!(
            "the press opened a next step ({})",
            super::super::inputs::describe(f, i)
        ));
    }
    let saying: Vec<usize> = new
        .iter()
        .copied()
        .filter(|&i| has_any(f.name(i), &stems))
        .collect();
    let fields = filled(f, h);
    let committed: Vec<String> = fields.iter().flat_map(|(_, said)| said.clone()).collect();
    // "Language = Deutsch": the record committed says it all, and the page took it.
    let by_fields = has_all(&committed.join(" "), &stems);
    if saying.is_empty() && !by_fields {
        return Err(format!(
            "nothing new since the run's last press says any of {}",
            stems.join(", ")
        ));
    }
    let mut said: Vec<String> = Vec::new();
    for &i in &new {
        said.push(f.name(i).to_owned());
        said.extend(
            f.ancestors(i)
                .take(CONTEXT_DEPTH)
                .map(|a| f.name(a).to_owned()),
        );
    }
    // Not the pressed control's name: "Submit feedback" says what the press asked for,
    // and a survey half filled is submitted all the same.
    said.extend(committed);
    let missing = lacking(&said.join(" "), &stems);
    if !missing.is_empty() {
        return Err(format!(
            "what the run's last press brought does not say {}",
            missing.join(", ")
        ));
    }
    if saying.is_empty() {
        // The answer, and the fields whose record it took.
        return Ok(new
            .into_iter()
            .chain(fields.iter().map(|(i, _)| *i))
            .collect());
    }
    Ok(saying)
}

/// The stems of kind nouns right before a reference ("issue 15", "order number 1044"):
/// the reference says which record, and the record need not repeat what kind it is.
fn referenced_kinds(text: &str) -> Vec<String> {
    super::super::reference::after_kind_noun(&normalize(text))
        .into_iter()
        .map(|(noun, _)| stem(noun))
        .collect()
}

/// Checks a page's own wording may stand in for: an outcome statement the reader could
/// not hold as written. An absence, a state, a value or a quoted text is checked only.
fn is_outcome(check: &Check) -> bool {
    match check {
        Check::Unreadable | Check::Confirmed(..) => true,
        Check::Happened(h) => matches!(
            h.event,
            Event::Appeared | Event::Committed | Event::SignedIn
        ),
        Check::Either(a, b) => is_outcome(a) && is_outcome(b),
        _ => false,
    }
}

/// New text that reports a fault, denies, or asks.
fn faults(f: &Facts, i: usize) -> bool {
    let raw = f.els[i].name.trim();
    raw.ends_with('?')
        || denies(raw)
        || f.name(i).split(' ').any(super::super::vocab::is_fault_word)
        || f.ancestors(i).any(|a| f.els[a].role == Role::Dialog)
}

/// A field the press brought that asks for more: a new password field, or a new field
/// given the focus.
fn next_step(f: &Facts, before: &Facts) -> Option<usize> {
    (0..f.len()).find(|&i| {
        let e = &f.els[i];
        e.visible
            && e.role.is_text_input()
            && before.index_of(e.id.as_str()).is_none()
            && (e.role == Role::PasswordField || e.focused)
    })
}

/// The fields the run filled, each with its name and value (never a password's value):
/// the record its commit sent.
fn filled(f: &Facts, h: &[ActionRecord]) -> Vec<(usize, Vec<String>)> {
    let mut out: Vec<(usize, Vec<String>)> = Vec::new();
    for r in h.iter().filter(|r| history::edits_form(r)) {
        let Some(i) = r.action.target().and_then(|t| f.index_of(t.as_str())) else {
            continue;
        };
        if out.iter().any(|(j, _)| *j == i) {
            continue;
        }
        let mut said = vec![f.name(i).to_owned()];
        if f.els[i].role != Role::PasswordField {
            if let Some(v) = &f.els[i].value {
                said.push(normalize(&v.as_text()));
            }
        }
        out.push((i, said));
    }
    // The list entry the run opened before editing its detail is the record the commit
    // sent ("#15 …" for the status set in its pane): as the page shows it now, by its id
    // or, re-drawn, by the name the run pressed.
    for r in h
        .iter()
        .filter(|r| history::tag(r) == Some(StepKind::OpenItem.as_str()))
    {
        let Some(name) = r.target_name.as_deref().map(normalize) else {
            continue;
        };
        let by_id = r.action.target().and_then(|t| f.index_of(t.as_str()));
        let shown = by_id.or_else(|| (0..f.len()).find(|&i| f.els[i].visible && f.name(i) == name));
        if let Some(i) = shown.filter(|&i| r.on_target() && !out.iter().any(|(j, _)| *j == i)) {
            out.push((i, vec![f.name(i).to_owned()]));
        }
    }
    out
}
