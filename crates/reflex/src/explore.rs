//! Looking for a target the snapshot does not show: behind a tab not selected, inside a
//! collapsed tree item or section. Each disclosure control is opened at most once per
//! run — unselected tabs in document order, collapsed items breadth-first (shallowest
//! first, then document order) — and the plan re-grounds on every snapshot, so the
//! search stops as soon as the target appears. Bounded: after [`MAX_EXPLORE`] openings,
//! or when nothing is left to open, the run hands back saying where it looked. A tab
//! that was selected when the run opened another was already seen: not reopened.

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::inputs::describe;
use super::step::{Act, Outcome, StepKind};
use arc_core::{Action, ActionKind, ActionRecord, Role};

/// Disclosures one run may open looking for a target.
pub const MAX_EXPLORE: usize = 12;

/// A control that shows hidden content when clicked: an unselected tab, or anything
/// collapsed (`expanded == false`) a click opens — not a native select (its list is not
/// part of the page) nor a text entry.
pub fn is_disclosure(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    let closed = e.expanded == Some(false) || (e.role == Role::Tab && e.selected == Some(false));
    closed
        && e.enabled
        && clickable(f, i)
        && !f.is_native_select(i)
        && !e.actions.contains(ActionKind::TypeText)
}

/// The tabs selected now: their panels are on this snapshot.
pub fn open_tabs(f: &Facts) -> Vec<String> {
    (0..f.len())
        .filter(|&i| f.els[i].role == Role::Tab && f.els[i].selected == Some(true))
        .map(|i| f.els[i].id.as_str().to_owned())
        .collect()
}

fn depth(f: &Facts, i: usize) -> usize {
    let mut d = 0;
    let mut cur = i;
    while let Some(p) = f.parent(cur) {
        d += 1;
        cur = p;
        if d >= 64 {
            break;
        }
    }
    d
}

/// WAITs after an opening whose disclosure still reads closed: a menu's submenu opens on
/// a timer once the pointer enters its item (jQuery UI's menu: 300 ms; one WAIT settles
/// ≈ 150 ms), so the search does not move on while it is on its way.
const MAX_OPEN_WAITS: usize = 3;

/// The last opening, when its disclosure still reads closed and the bounded wait for it
/// is not spent.
fn opening_on_its_way<'h>(f: &Facts, h: &'h [ActionRecord]) -> Option<&'h ActionRecord> {
    let waits = history::trailing_waits(h);
    let last = h[..h.len() - waits].last()?;
    let id = last.action.target()?;
    let i = f.index_of(id.as_str())?;
    (history::tag(last) == Some(StepKind::Explore.as_str())
        && last.on_target()
        && is_disclosure(f, i)
        && waits < MAX_OPEN_WAITS)
        .then_some(last)
}

/// The next disclosure to open (among `within`, when the goal names where to look), or
/// the hand-back once the search is exhausted; `None` when there is nothing to search (no
/// disclosure on the page and none opened), so the caller reports the missing target as
/// it would have. A disclosure whose name shares a word (any form) with the goal (`said`)
/// is opened first: "the answer about returns" is behind "What is your returns policy?",
/// and opening the others first changes what the page shows for nothing.
pub fn next(
    f: &Facts,
    h: &[ActionRecord],
    absent: &[String],
    within: Option<&[usize]>,
    said: &str,
) -> Option<Outcome> {
    if let Some(r) = opening_on_its_way(f, h) {
        return Some(Outcome::Wait(format!(
            "{} still reads closed after the run opened it: waiting for it ({})",
            r.target_name.as_deref().unwrap_or("the disclosure"),
            absent.join("; ")
        )));
    }
    let opened = history::explored(h);
    let goal = super::stem::content_stems(said);
    let fresh = (0..f.len())
        .filter(|&i| {
            let id = f.els[i].id.as_str();
            is_disclosure(f, i)
                && within.is_none_or(|w| w.contains(&i))
                && !history::clicked_id(h, id, None)
                && !history::seen_open(h, id)
        })
        .min_by_key(|&i| (!super::stem::has_any(f.name(i), &goal), depth(f, i), i));
    let looked = |n: usize| {
        format!(
            "{} after opening {n} tab(s) or collapsed item(s) to look for it",
            absent.join("; ")
        )
    };
    match fresh {
        Some(_) if opened >= MAX_EXPLORE => Some(Outcome::NeedsAgent(format!(
            "{}; stopped at the bound of {MAX_EXPLORE} openings",
            looked(opened)
        ))),
        Some(i) => Some(Outcome::Act(Act {
            action: Action::click(f.els[i].id.clone()),
            kind: StepKind::Explore,
            confidence: 0.6,
            margin: 0.6,
            why: format!(
                "open {} to look for what is missing ({})",
                describe(f, i),
                absent.join("; ")
            ),
            order: i,
        })),
        None if opened > 0 => Some(Outcome::NeedsAgent(format!(
            "{}; nothing else on the page opens",
            looked(opened)
        ))),
        None => None,
    }
}
