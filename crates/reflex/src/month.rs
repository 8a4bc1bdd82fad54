//! A popup calendar that shows another month than the date wanted: turned one month at a
//! time by its own previous/next control until its caption names the date's month and
//! year (the day is then clicked by `inputs`). The caption is a visible text of a month
//! and a year ("June 2025", or "June" beside "2025"); the controls are the clickable
//! elements nearest it named previous/next (or their glyphs). Bounded: at most
//! [`MAX_TURNS`] turns, and a turn that changed nothing is a hand-back.

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::inputs::describe;
use super::step::{Act, Outcome, Status, StepKind};
use arc_core::ActionRecord;

/// Months turned in one run before it hands back (three years).
pub const MAX_TURNS: usize = 36;

/// How far (in snapshot order) a calendar's control may sit from its caption.
const NEAR: usize = 8;

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn year(w: &str) -> Option<u32> {
    (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
        .then(|| w.parse().ok())
        .flatten()
}

/// The captions of shown calendars: (index, months since year 0).
fn captions(f: &Facts) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    for i in 0..f.len() {
        if !f.els[i].visible {
            continue;
        }
        let words: Vec<&str> = f.name(i).split(' ').filter(|w| !w.is_empty()).collect();
        let Some(m) = words
            .first()
            .and_then(|w| MONTHS.iter().position(|m| m == w))
        else {
            continue;
        };
        let y = match words.len() {
            2 => year(words[1]),
            // "June" with its year in the next element ("<span>June</span> <span>2025</span>").
            1 => (i + 1 < f.len()).then(|| year(f.name(i + 1))).flatten(),
            _ => None,
        };
        if let Some(y) = y {
            out.push((i, y * 12 + m as u32));
        }
    }
    out
}

/// Whether element `i` is a calendar's previous (`false`) or next (`true`) control.
fn direction(f: &Facts, i: usize) -> Option<bool> {
    let raw = f.els[i].name.trim();
    match raw {
        "‹" | "«" | "<" | "←" | "◀" | "◄" => return Some(false),
        "›" | "»" | ">" | "→" | "▶" | "►" => return Some(true),
        _ => {}
    }
    let words: Vec<&str> = f.name(i).split(' ').filter(|w| !w.is_empty()).collect();
    let rest_is_month = |r: &[&str]| r.is_empty() || r == ["month"];
    match words.split_first() {
        Some((&("prev" | "previous"), r)) if rest_is_month(r) => Some(false),
        Some((&"next", r)) if rest_is_month(r) => Some(true),
        _ => None,
    }
}

/// The step that brings a shown calendar toward date `(y, m, _)`; None when no calendar
/// is shown or it already shows that month.
pub fn turn(
    f: &Facts,
    h: &[ActionRecord],
    (y, m, _): (u32, u32, u32),
    confidence: f64,
    why: &str,
) -> Option<Status> {
    let caps = captions(f);
    let want = y * 12 + (m - 1);
    let (first, last) = (caps.first()?, caps.last()?);
    if (first.1..=last.1).contains(&want) {
        return None;
    }
    let forward = want > last.1;
    let from = if forward { last } else { first };
    let stop = |s: String| Some(Status::Stop(Outcome::NeedsAgent(s)));
    let turns: Vec<&ActionRecord> = h
        .iter()
        .filter(|r| history::tag(r) == Some(StepKind::Turn.as_str()))
        .collect();
    if turns.len() >= MAX_TURNS {
        return stop(format!(
            "the calendar shows {} after {MAX_TURNS} turns ({why})",
            describe(f, from.0)
        ));
    }
    if turns.last().is_some_and(|r| !r.state_changed) {
        return stop(format!(
            "turning the calendar changed nothing; it shows {} ({why})",
            describe(f, from.0)
        ));
    }
    let control = (0..f.len())
        .filter(|&j| j.abs_diff(from.0) <= NEAR)
        .filter(|&j| f.els[j].visible && f.els[j].enabled && clickable(f, j))
        .filter(|&j| direction(f, j) == Some(forward))
        .min_by_key(|&j| j.abs_diff(from.0));
    let Some(j) = control else {
        return stop(format!(
            "the calendar shows {}, and no {} control is beside it ({why})",
            describe(f, from.0),
            if forward { "next" } else { "previous" }
        ));
    };
    Some(Status::Pending(Act {
        action: arc_core::Action::click(f.els[j].id.clone()),
        kind: StepKind::Turn,
        confidence,
        margin: confidence,
        why: format!(
            "{why}: the calendar shows {}, turn to {}/{y}",
            describe(f, from.0),
            m
        ),
        order: j,
    }))
}
