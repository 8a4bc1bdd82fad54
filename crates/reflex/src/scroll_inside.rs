//! "Scroll to the bottom of the text area", "scroll the terms to the top": scrolling an
//! element's own content, not the page. The element is one that reports how far it is
//! scrolled (`ElementFacts::scroll`), named by the clause's words — those before "to"
//! ("scroll the box to the bottom"), else those after "the bottom of" — or, when the
//! words name only a role, the one scroller of that role. The wheel turns over it until
//! the snapshot shows it at that end; a turn that moved nothing there is a hand-back.
//! A clause that names no scroller is the page's scroll (`intents::scroll`).

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{ground, ground_role, Grounding, THRESHOLD};
use super::inputs::describe;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{is_stopword, Query};
use super::vocab::{is_page_word, strip_role_words};
use arc_core::{Action, ActionKind, ActionRecord, ScrollDirection};

/// Wheel turns one clause may take (each is most of a viewport).
const MAX_TURNS: usize = 20;

/// Where-words: they say which end, not which element.
fn is_place_word(w: &str) -> bool {
    matches!(
        w,
        "to" | "bottom" | "top" | "end" | "down" | "up" | "of" | "all" | "way" | "very"
    ) || is_stopword(w)
}

/// The words that name the scrolled element, and the roles among them.
fn named(object: &str) -> (String, Vec<arc_core::Role>) {
    let words: Vec<&str> = object.split(' ').filter(|w| !w.is_empty()).collect();
    let to = words.iter().position(|w| *w == "to");
    let span = match to {
        Some(k) if words[..k].iter().any(|w| !is_place_word(w)) => &words[..k],
        Some(k) => &words[k + 1..],
        None => &words[..],
    };
    let (rest, roles) = strip_role_words(span);
    let core: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|w| !is_place_word(w) && !is_page_word(w))
        .collect();
    (core.join(" "), roles)
}

fn scroller(f: &Facts, i: usize) -> bool {
    f.els[i].visible && f.els[i].facts.scroll.is_some()
}

/// The scroller the clause names; `None` when it names none (the page scrolls).
fn target(f: &Facts, it: &Intent) -> Option<Result<usize, Status>> {
    let (core, roles) = named(&it.object);
    let g = if core.is_empty() {
        if roles.is_empty() {
            return None;
        }
        ground_role(f, &roles, None, |i| scroller(f, i))
    } else {
        let q = [Query::from_norm(core)];
        ground(f, &q, &roles, THRESHOLD, |i| scroller(f, i))
    };
    match g {
        Grounding::Found { idx, .. } => Some(Ok(idx)),
        Grounding::Tie { a, b, .. } => Some(Err(Status::Stop(Outcome::NeedsAgent(format!(
            "two scrollable elements match {:?} equally: {}, {}",
            it.object,
            describe(f, a),
            describe(f, b)
        ))))),
        Grounding::Missing { .. } => None,
    }
}

/// Where a scroll clause naming an element stands; `None` when it names no scroller.
pub fn status(f: &Facts, h: &[ActionRecord], it: &Intent) -> Option<Status> {
    let i = match target(f, it)? {
        Ok(i) => i,
        Err(s) => return Some(s),
    };
    let offset = f.els[i].facts.scroll?;
    let direction = it.scroll.unwrap_or(ScrollDirection::Down);
    let there = match direction {
        ScrollDirection::Up => offset.at_top(),
        ScrollDirection::Down => offset.at_bottom(),
        // Sideways ends are not reported: the page's scroll handles the clause.
        ScrollDirection::Left | ScrollDirection::Right => return None,
    };
    if there {
        return Some(Status::Done);
    }
    let id = &f.els[i].id;
    let turns: Vec<&ActionRecord> = h
        .iter()
        .filter(|r| {
            r.action.kind() == ActionKind::Scroll
                && r.action.target().is_some_and(|t| t.as_str() == id.as_str())
        })
        .collect();
    if turns.last().is_some_and(|r| !r.state_changed) || turns.len() >= MAX_TURNS {
        return Some(Status::Stop(Outcome::NeedsAgent(format!(
            "{} stopped at {} of {} px after {} wheel turn(s), short of its {}",
            describe(f, i),
            offset.top,
            offset.max,
            turns.len(),
            if direction == ScrollDirection::Up {
                "top"
            } else {
                "bottom"
            }
        ))));
    }
    Some(Status::Pending(Act {
        action: Action::Scroll {
            direction,
            target: Some(id.clone()),
        },
        kind: StepKind::Scroll,
        confidence: 0.9,
        margin: 0.9,
        why: format!(
            "scroll {} {} (at {} of {} px)",
            describe(f, i),
            format!("{direction:?}").to_lowercase(),
            offset.top,
            offset.max
        ),
        order: i,
    }))
}

/// A scroll clause that comes before the goal's first edit and names a scroller not yet
/// at its end: it goes first, since what follows may wait for it (a form enabled only
/// once its terms are read to the end).
pub fn first(f: &Facts, h: &[ActionRecord], goal: &[Intent]) -> Option<Status> {
    let first = goal.first()?;
    if first.verb != super::vocab::Verb::Scroll {
        return None;
    }
    match status(f, h, first)? {
        Status::Done => None,
        s => Some(s),
    }
}
