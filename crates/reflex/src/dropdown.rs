//! Custom dropdowns: a button (or a styled div) that says whether its list is open
//! (`aria-expanded`) and, when pressed, draws a list of choices over the page — options
//! of a `role=listbox`, or plain clickable divs. An input is placed by opening the
//! trigger, clicking the choice named like the literal, and reading the trigger's text,
//! which shows the choice. A list the run opened that is still open when the run moves on
//! to another control is closed first (by its trigger), so it does not cover that control.

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::inputs::describe;
use super::label::adjacent_label;
use super::step::{Act, StepKind};
use super::text::{normalize, Query};
use arc_core::{Action, ActionKind, ActionRecord, Role};

/// Below a real field of the same name: the trigger is the control, its label the name.
const TRIGGER_WEIGHT: f64 = 0.95;

/// A control that opens a list: it states its expansion, a click opens it, and it is not
/// a text entry, a native select, a tab, a tree item or a menu's item (those are walked
/// by their own rules).
pub fn is_trigger(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    e.expanded.is_some()
        && e.enabled
        && clickable(f, i)
        && matches!(e.role, Role::Button | Role::Generic | Role::ComboBox)
        && !e.actions.contains(ActionKind::TypeText)
        && !f.is_native_select(i)
}

/// How well input key `key` names trigger `i`: by its name (a trigger labelled by its
/// caption and its choice) or by the text beside it (its name is then only its choice).
pub fn score(f: &Facts, i: usize, key: &Query) -> f64 {
    let by_label = adjacent_label(f, i).map_or(0.0, |l| key.score(f.name(l)));
    TRIGGER_WEIGHT * key.score(f.name(i)).max(by_label)
}

/// Whether trigger `i` shows `literal` as its choice (its text holds the literal's words
/// in order).
pub fn shows(f: &Facts, i: usize, literal: &str) -> bool {
    let want = normalize(literal);
    !want.is_empty()
        && f.els[i].role != Role::ComboBox
        && format!(" {} ", f.name(i)).contains(&format!(" {want} "))
}

/// In the open list of trigger `i`: the clickable element named exactly `want` (compact
/// form), in the trigger's own container first, else anywhere after it.
pub fn choice(f: &Facts, i: usize, want: &str, compact: impl Fn(&str) -> String) -> Option<usize> {
    if f.els[i].expanded != Some(true) {
        return None;
    }
    let is_choice = |j: usize| {
        j != i
            && !f.is_descendant(j, i)
            && clickable(f, j)
            && f.els[j].enabled
            && compact(&f.els[j].name) == want
    };
    let near = f
        .parent(i)
        .and_then(|p| f.descendants(p).find(|&j| j > i && is_choice(j)));
    near.or_else(|| (i + 1..f.len()).find(|&j| is_choice(j)))
}

/// Before acting on anything else: close a list the run opened and left open (a pick
/// that does not close it), by its trigger — once per opening.
pub fn close_first(f: &Facts, h: &[ActionRecord], next: &Act) -> Option<Act> {
    if matches!(
        next.kind,
        StepKind::Choose | StepKind::Expand | StepKind::Wait | StepKind::Scroll
    ) {
        return None;
    }
    let target = next.action.target().map(|t| t.as_str());
    (0..f.len())
        .filter(|&i| f.els[i].expanded == Some(true) && is_trigger(f, i))
        .filter(|&i| target != Some(f.els[i].id.as_str()))
        .find(|&i| opened_and_not_closed(h, f.els[i].id.as_str()))
        .map(|i| Act {
            action: Action::click(f.els[i].id.clone()),
            kind: StepKind::Close,
            confidence: 0.8,
            margin: 0.8,
            why: format!(
                "close the list of {} before moving on ({})",
                describe(f, i),
                next.why
            ),
            order: i,
        })
}

/// The run's last expand of `id` came after its last close of it.
fn opened_and_not_closed(h: &[ActionRecord], id: &str) -> bool {
    let on = |r: &&ActionRecord| r.action.target().is_some_and(|t| t.as_str() == id);
    let last = |kind: StepKind| {
        h.iter()
            .rposition(|r| on(&r) && history::tag(r) == Some(kind.as_str()))
    };
    match (last(StepKind::Expand), last(StepKind::Close)) {
        (Some(e), Some(c)) => e > c,
        (Some(_), None) => true,
        _ => false,
    }
}
