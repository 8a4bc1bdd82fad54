//! A press the page asks to confirm: the run's last action pressed a control as a step of
//! the goal ("Archive" in a file's row), and a dialog that was not open before that press
//! (or the page it led to, when that page asks a question: "Are you sure?") now offers the same act ("Archive", "Delete forever") or a plain yes ("Yes",
//! "Confirm", "OK"). Where the goal asked for the act by its verb ("Archive the budget
//! file", "delete Team photo"), the dialog asks whether it was meant, so the run presses
//! that control once. A goal that only asked for the press ("click the Archive button")
//! asked for no more: the planner answers the dialog. Never a cancel-like control, never a dialog the
//! run did not open by its last press (`popup` answers those), never when two controls
//! would confirm, never when the goal names another of the dialog's controls ("press
//! Delete, then Cancel": the goal answers it).

use super::facts::Facts;
use super::goal::Intent;
use super::ground::clickable;
use super::history::tag;
use super::inputs::describe;
use super::intents::queries;
use super::stem::stem;
use super::step::{Act, StepKind};
use super::text::normalize_name;
use super::vocab::Verb;
use arc_core::{Action, ActionKind, ActionRecord, Role, Snapshot};

/// The control that confirms the run's last press, when a dialog that press opened asks.
pub fn pending(
    f: &Facts,
    h: &[ActionRecord],
    goal: &[Intent],
    before_click: Option<&Snapshot>,
) -> Option<Act> {
    let last = h
        .iter()
        .rev()
        .find(|r| r.action.kind() != ActionKind::Wait)?;
    if last.action.kind() != ActionKind::Click
        || !last.on_target()
        || !matches!(tag(last), Some("click" | "commit"))
    {
        return None;
    }
    let pressed = normalize_name(last.target_name.as_deref()?);
    let verb = stem(pressed.split(' ').next().filter(|w| !w.is_empty())?);
    if !goal.iter().any(|it| asks_for_act(it, &verb)) {
        return None;
    }
    // Most steps show no dialog: the snapshot before the press is read only when one is.
    let dialogs: Vec<usize> = (0..f.len())
        .filter(|&d| f.els[d].role == Role::Dialog && f.els[d].visible)
        .collect();
    let before = before_click?;
    let on_page = dialogs.is_empty();
    let members: Vec<usize> = if on_page {
        // The press led to a page that asks ("Are you sure?"): the page is the dialog.
        if !asks_on_new_page(f, before) {
            return None;
        }
        (0..f.len()).collect()
    } else {
        let was_open =
            |id: &arc_core::ElementId| before.elements.iter().any(|e| &e.id == id && e.visible);
        dialogs
            .into_iter()
            .filter(|&d| !was_open(&f.els[d].id))
            .flat_map(|d| f.descendants(d))
            .collect()
    };
    let mut confirming = members.iter().copied().filter(|&i| confirms(f, i, &verb));
    let i = confirming.next()?;
    if confirming.any(|j| j != i) {
        return None;
    }
    let named = |j: usize| {
        goal.iter().any(|it| {
            let (qs, threshold) = queries(it);
            qs.iter().any(|q| q.score(f.name(j)) >= threshold)
        })
    };
    // On a page, its links (a breadcrumb naming the record) are no answer to the question.
    let answers = |j: usize| !on_page || f.els[j].role == Role::Button;
    if members
        .iter()
        .any(|&j| j != i && clickable(f, j) && answers(j) && named(j))
    {
        return None;
    }
    Some(Act {
        action: Action::click(f.els[i].id.clone()),
        kind: StepKind::Click,
        confidence: 0.8,
        margin: 0.8,
        why: format!(
            "the press of {pressed:?} asks to be confirmed → {}",
            describe(f, i)
        ),
        order: i,
    })
}

/// Whether the press led to another page (its URL changed) whose text asks a question
/// ("Are you sure you want to delete the group “Support”?").
fn asks_on_new_page(f: &Facts, before: &Snapshot) -> bool {
    let moved = matches!((f.url(), before.url()), (Some(now), Some(was)) if now != was);
    moved
        && (0..f.len()).any(|i| {
            let e = &f.els[i];
            e.visible && e.actions.is_empty() && e.name.trim_end().ends_with('?')
        })
}

/// Whether the intent asks for an act by the verb `verb` (stemmed) itself: a verb no
/// vocabulary knows that names the control, or a committing verb ("delete", "remove").
fn asks_for_act(it: &Intent, verb: &str) -> bool {
    let first = |s: &str| s.split(' ').next().map(stem);
    match it.verb {
        _ if it.implied.is_some() => first(&it.core).as_deref() == Some(verb),
        Verb::Submit => first(&it.verb_words).as_deref() == Some(verb),
        _ => false,
    }
}

/// A button that says the pressed act's verb, or a plain yes, and does not cancel.
fn confirms(f: &Facts, i: usize, verb: &str) -> bool {
    let e = &f.els[i];
    if !clickable(f, i) || !e.enabled || !matches!(e.role, Role::Button | Role::Link) {
        return false;
    }
    if super::popup::cancel_like(f, i) {
        return false;
    }
    let name = f.name(i);
    let first = name.split(' ').next().unwrap_or_default();
    matches!(first, "yes" | "confirm" | "ok") || name.split(' ').any(|w| stem(w) == verb)
}
