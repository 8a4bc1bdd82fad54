//! What the run has already done, read from its records: which steps ran, whether an
//! identical action changed nothing before, how long the run has been waiting. Records
//! from other policies (a cascade) are read by their action kind.

use super::step::StepKind;
use super::text::{normalize_name, Query};
use arc_core::{Action, ActionKind, ActionRecord};

/// The step tag this policy wrote into the decision's `raw`, if it made it.
pub fn tag(r: &ActionRecord) -> Option<&str> {
    r.decision
        .raw
        .as_ref()?
        .get("reflex")?
        .get("step")?
        .as_str()
}

/// Whether the record changed what a form holds.
pub fn edits_form(r: &ActionRecord) -> bool {
    match tag(r) {
        Some(t) => StepKind::edits_form(t),
        None => matches!(
            r.action.kind(),
            ActionKind::TypeText | ActionKind::SetValue | ActionKind::SelectOption
        ),
    }
}

/// Index of the last record that edited the form.
pub fn last_edit(h: &[ActionRecord]) -> Option<usize> {
    h.iter().rposition(edits_form)
}

/// WAITs since the last real action.
pub fn trailing_waits(h: &[ActionRecord]) -> usize {
    h.iter()
        .rev()
        .take_while(|r| r.action.kind() == ActionKind::Wait)
        .count()
}

/// How often exactly this action ran, and whether any run of it changed nothing.
pub fn tries(h: &[ActionRecord], action: &Action) -> (usize, bool) {
    let mut n = 0;
    let mut unchanged = false;
    for r in h.iter().filter(|r| &r.action.action == action) {
        n += 1;
        unchanged |= !r.state_changed;
    }
    (n, unchanged)
}

/// Whether a commit (the run's submit, on its target) came after record `k`.
pub fn committed_after(h: &[ActionRecord], k: usize) -> bool {
    h.get(k + 1..).is_some_and(|rest| {
        rest.iter()
            .any(|r| r.on_target() && tag(r) == Some(StepKind::Commit.as_str()))
    })
}

/// Whether an action with this input key ran (typed, set or selected).
pub fn used_input(h: &[ActionRecord], key: &str) -> bool {
    h.iter().any(|r| r.action.action.input_key() == Some(key))
}

/// Whether a CLICK on an element named like one of `queries` ran after record `since`.
/// Not a list entry the run opened to reach a control (`entry`): "Meeting notes" opened
/// is not "Delete the Meeting notes note" done.
pub fn clicked(
    h: &[ActionRecord],
    queries: &[Query],
    threshold: f64,
    since: Option<usize>,
) -> bool {
    let from = since.map_or(0, |i| i + 1);
    h.iter().skip(from).any(|r| {
        r.action.kind() == ActionKind::Click
            && r.on_target()
            && tag(r) != Some(StepKind::OpenItem.as_str())
            && r.target_name.as_deref().is_some_and(|name| {
                let name = normalize_name(name);
                queries.iter().any(|q| q.score(&name) >= threshold)
            })
    })
}

/// Whether the run clicked an element named like `queries`, better than `score`, that is
/// no longer on the page: the target it chose is gone (a row deleted by its own button),
/// and the runners-up left behind are not what the step meant.
pub fn clicked_gone(
    h: &[ActionRecord],
    queries: &[Query],
    score: f64,
    on_page: impl Fn(&str) -> bool,
) -> bool {
    h.iter().any(|r| {
        r.action.kind() == ActionKind::Click
            && r.on_target()
            && r.action.target().is_some_and(|t| !on_page(t.as_str()))
            && r.target_name.as_deref().is_some_and(|name| {
                let name = normalize_name(name);
                queries.iter().any(|q| q.score(&name) > score)
            })
    })
}

/// Whether element `id` was clicked after record `since`.
pub fn clicked_id(h: &[ActionRecord], id: &str, since: Option<usize>) -> bool {
    let from = since.map_or(0, |i| i + 1).min(h.len());
    presses(&h[from..], id) > 0
}

/// How many clicks reached element `id` (a toggle pressed twice is back where it was).
pub fn presses(h: &[ActionRecord], id: &str) -> usize {
    h.iter()
        .filter(|r| {
            r.action.kind() == ActionKind::Click
                && r.on_target()
                && r.action.target().is_some_and(|t| t.as_str() == id)
        })
        .count()
}

/// Whether a click on element `id` began on it (its mousedown, which gives a field the
/// focus, reached it), even when the page covered it before the release.
pub fn pressed_down_on(h: &[ActionRecord], id: &str) -> bool {
    h.iter().any(|r| {
        r.action.kind() == ActionKind::Click
            && r.action.target().is_some_and(|t| t.as_str() == id)
            && r.landed_elsewhere
                .as_ref()
                .is_none_or(|l| l.began_on_target)
    })
}

/// How many disclosures the run opened looking for a missing target.
pub fn explored(h: &[ActionRecord]) -> usize {
    h.iter()
        .filter(|r| tag(r) == Some(StepKind::Explore.as_str()))
        .count()
}

/// Whether element `id` was open (a selected tab) when the run explored: its content
/// was on that snapshot already.
pub fn seen_open(h: &[ActionRecord], id: &str) -> bool {
    h.iter()
        .filter(|r| tag(r) == Some(StepKind::Explore.as_str()))
        .filter_map(|r| r.decision.raw.as_ref()?.pointer("/reflex/seen")?.as_array())
        .flatten()
        .any(|v| v.as_str() == Some(id))
}

/// Whether the page showed input `key` in place when the run acted: a field already
/// holding its literal on an earlier stage of a wizard holds it still once that stage
/// is gone, with no edit of ours to show for it.
pub fn held_input(h: &[ActionRecord], key: &str) -> bool {
    h.iter()
        .filter_map(|r| r.decision.raw.as_ref()?.pointer("/reflex/held")?.as_array())
        .flatten()
        .any(|v| v.as_str() == Some(key))
}
