//! A popup the run did not open ("Subscribe to our newsletter? [No thanks] [Subscribe]")
//! that stands between the plan and its target: a dialog, or controls that appeared since
//! the run's first snapshot. It is uninvited when it was first seen at the start or after
//! an action that does not open things (typing, toggling, waiting) — never right after
//! the run clicked or pressed something, whose answer it may be ("Are you sure?").
//!
//! When such a popup is on the page, the goal names nothing in it, and the plan is
//! blocked by it (its next target is inside the popup, behind a dialog, disabled, or
//! gone), the reflex presses the popup's cancel-like control — never its accept control,
//! and a dismissal is no commit (`StepKind::Dismiss`). A popup that offers no dismissal
//! is handed back, named.

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{clickable, field_score, is_field, THRESHOLD};
use super::history;
use super::inputs::{describe, Input};
use super::intents::queries;
use super::step::{Act, Outcome, StepKind};
use super::text::{identifier_words, Query};
use super::vocab::is_close_glyph;
use arc_core::{Action, ActionKind, ActionRecord, Role};
use std::collections::{HashMap, HashSet};

/// Dismissals one run makes (popups can come back; a page that keeps sending them is
/// the model's problem).
pub const MAX_DISMISSALS: usize = 4;

/// Per run: for each popup root seen, whether it came uninvited.
#[derive(Default)]
pub struct Memory {
    uninvited: HashMap<String, bool>,
}

/// A popup on this snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Popup {
    root: usize,
    /// A dialog: what lies outside it cannot be reached while it is open.
    modal: bool,
    dismiss: Option<usize>,
}

/// The popup the run did not open, if one is on the page and the goal names nothing in
/// it (then it is the goal's own business: "click OK in the dialog").
pub fn find(
    f: &Facts,
    h: &[ActionRecord],
    at_start: &HashSet<String>,
    memory: &mut Memory,
    goal: &[Intent],
    inputs: &[Input],
) -> Option<Popup> {
    let invited_now = opens_things(h);
    let mut found = None;
    for root in roots(f, at_start) {
        let id = f.els[root].id.as_str().to_owned();
        let uninvited = *memory.uninvited.entry(id).or_insert(!invited_now);
        if found.is_none() && uninvited && !addressed(f, root, goal, inputs) {
            found = Some(Popup {
                root,
                modal: f.els[root].role == Role::Dialog,
                dismiss: dismissal(f, root),
            });
        }
    }
    found
}

/// The planned outcome, or the dismissal the popup calls for first.
pub fn screen(f: &Facts, h: &[ActionRecord], popup: Option<Popup>, planned: Outcome) -> Outcome {
    let Some(p) = popup else {
        return planned;
    };
    let blocked = match &planned {
        Outcome::Act(a) => match a.action.target().and_then(|t| f.index_of(t.as_str())) {
            Some(t) => inside(f, t, p.root) || p.modal,
            None => p.modal && a.kind != StepKind::Wait,
        },
        Outcome::Wait(_) | Outcome::NeedsAgent(_) | Outcome::Unverified(_) => true,
        Outcome::Complete(_) | Outcome::NeedsInput(_) | Outcome::NeedsHuman(_) => false,
    };
    if !blocked {
        return planned;
    }
    let why = match &planned {
        Outcome::Act(a) => a.why.clone(),
        Outcome::Wait(w) | Outcome::NeedsAgent(w) => w.clone(),
        _ => String::new(),
    };
    let Some(d) = p.dismiss else {
        return Outcome::NeedsAgent(format!(
            "a popup the run did not open, {}, blocks the page and offers no control to dismiss it ({why})",
            describe(f, p.root)
        ));
    };
    let action = Action::click(f.els[d].id.clone());
    let dismissals = h
        .iter()
        .filter(|r| history::tag(r) == Some(StepKind::Dismiss.as_str()))
        .count();
    let (tries, unchanged) = history::tries(h, &action);
    if tries > 0 && unchanged || dismissals >= MAX_DISMISSALS {
        return Outcome::NeedsAgent(format!(
            "a popup the run did not open, {}, stays after {dismissals} dismissal(s) ({why})",
            describe(f, p.root)
        ));
    }
    Outcome::Act(Act {
        action,
        kind: StepKind::Dismiss,
        confidence: 0.6,
        margin: 0.6,
        why: format!(
            "dismiss the popup {} the run did not open → {} ({why})",
            describe(f, p.root),
            describe(f, d)
        ),
        order: d,
    })
}

/// Whether the run's last action (waits aside) could have opened something: a click or
/// a key press, unless it only edited a field or answered a popup.
fn opens_things(h: &[ActionRecord]) -> bool {
    let Some(last) = h.iter().rev().find(|r| r.action.kind() != ActionKind::Wait) else {
        return false;
    };
    let pressing = matches!(
        last.action.kind(),
        ActionKind::Click
            | ActionKind::DoubleClick
            | ActionKind::RightClick
            | ActionKind::PressKey
            | ActionKind::Hotkey
    );
    let quiet = matches!(
        history::tag(last),
        Some("fill" | "toggle" | "choose" | "dismiss")
    );
    pressing && !quiet
}

/// Popup roots: visible dialogs, and the outermost new container (not on the run's first
/// snapshot) around a new cancel-like control.
fn roots(f: &Facts, at_start: &HashSet<String>) -> Vec<usize> {
    let new = |i: usize| !at_start.contains(f.els[i].id.as_str());
    let mut out: Vec<usize> = Vec::new();
    for i in 0..f.len() {
        let e = &f.els[i];
        if !e.visible || out.iter().any(|&r| r == i || f.is_descendant(i, r)) {
            continue;
        }
        if e.role == Role::Dialog {
            out.push(i);
        } else if new(i) && cancel_like(f, i) {
            let mut root = i;
            for _ in 0..64 {
                match f.parent(root) {
                    Some(p) if new(p) && f.els[p].role != Role::Document => root = p,
                    _ => break,
                }
            }
            out.push(root);
        }
    }
    out
}

fn inside(f: &Facts, i: usize, root: usize) -> bool {
    i == root || f.is_descendant(i, root)
}

/// Whether the goal or an input names something inside the popup.
fn addressed(f: &Facts, root: usize, goal: &[Intent], inputs: &[Input]) -> bool {
    let members: Vec<usize> = std::iter::once(root).chain(f.descendants(root)).collect();
    let by_goal = goal.iter().any(|it| {
        let (qs, threshold) = queries(it);
        members.iter().any(|&i| {
            let name = f.name(i);
            qs.iter().any(|q| q.score(name) >= threshold)
        })
    });
    let by_input = inputs.iter().any(|input| {
        let key = Query::from_norm(identifier_words(input.key));
        members
            .iter()
            .any(|&i| is_field(f, i) && field_score(f, i, &key) >= THRESHOLD)
    });
    by_goal || by_input
}

/// The popup's cancel-like control, in document order: the root itself when the popup's
/// own container is not in the tree (a new "Cancel" whose unnamed wrapper was pruned).
fn dismissal(f: &Facts, root: usize) -> Option<usize> {
    std::iter::once(root)
        .chain(f.descendants(root))
        .find(|&i| cancel_like(f, i))
}

/// A control that answers a popup without accepting it: "Cancel", "No thanks", "Not
/// now", "Maybe later", "Close", "×".
pub(super) fn cancel_like(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    if !clickable(f, i) || !e.enabled || !matches!(e.role, Role::Button | Role::Link) {
        return false;
    }
    let name = f.name(i);
    if is_close_glyph(e.name.trim()) {
        return true;
    }
    let mut words = name.split(' ');
    let first = words.next().unwrap_or_default();
    let second = words.next().unwrap_or_default();
    matches!(
        first,
        "cancel" | "close" | "dismiss" | "skip" | "decline" | "later"
    ) || (first == "no" && matches!(second, "" | "thanks" | "thank"))
        || (first == "not" && second == "now")
        || (first == "maybe" && second == "later")
}
