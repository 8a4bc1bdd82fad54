//! Suggestions a field shows while typing: "an item that starts with \"Ab\", ending in
//! \"yz\"" is planned as the prefix for the field (typed by `inputs`) and a criterion
//! on the field's value (`Check::Affix`). Once the field holds the prefix and the
//! criterion is still unmet, the one visible suggestion whose text satisfies the whole
//! constraint is clicked; none yet is waited for (a list may come after a delay), two
//! are a hand-back naming both — never a guess.

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::inputs::describe;
use super::plan::MAX_WAITS;
use super::step::{Act, Outcome, StepKind};
use super::verify::{field_subject, holds, subject_element, Check, Criterion};
use arc_core::{Action, ActionRecord};

/// The step that picks a suggestion for an unmet affix criterion, if one is due.
pub fn pick(f: &Facts, h: &[ActionRecord], criteria: &[Criterion]) -> Option<Outcome> {
    criteria.iter().find_map(|c| match &c.check {
        Check::Affix(s, prefix, suffix) if holds(f, h, c).is_err() => {
            let field = field_subject(f, s).or_else(|| subject_element(f, s, |_| true).ok())?;
            let value = f.els[field].value.as_ref()?.as_text();
            // Only once the prefix is typed: the list answers what the field holds.
            if !value.trim().starts_with(prefix.as_str()) {
                return None;
            }
            Some(choose(f, h, field, prefix, suffix.as_deref(), &c.text))
        }
        _ => None,
    })
}

/// Whether `a` would retype the prefix into a field whose value already starts with it
/// and which an affix criterion speaks of: a picked suggestion completed it.
pub fn completes(f: &Facts, h: &[ActionRecord], criteria: &[Criterion], a: &Act) -> bool {
    let Action::TypeText { target, .. } = &a.action else {
        return false;
    };
    let Some(i) = f.index_of(target.as_str()) else {
        return false;
    };
    let value = f.els[i]
        .value
        .as_ref()
        .map(|v| v.as_text())
        .unwrap_or_default();
    history::used_input(h, a.action.input_key().unwrap_or_default())
        && criteria.iter().any(|c| match &c.check {
            Check::Affix(s, prefix, _) => {
                value.trim().starts_with(prefix.as_str())
                    && field_subject(f, s).or_else(|| subject_element(f, s, |_| true).ok())
                        == Some(i)
            }
            _ => false,
        })
}

fn choose(
    f: &Facts,
    h: &[ActionRecord],
    field: usize,
    prefix: &str,
    suffix: Option<&str>,
    criterion: &str,
) -> Outcome {
    let fits = |j: usize| {
        let name = f.els[j].name.trim();
        j != field
            && !f.is_descendant(j, field)
            && f.els[j].visible
            && f.els[j].enabled
            && clickable(f, j)
            && name.starts_with(prefix)
            && suffix.is_none_or(|x| name.ends_with(x))
    };
    // The innermost of an item and its wrapper (a list item around its text).
    let hits: Vec<usize> = (0..f.len())
        .filter(|&j| fits(j))
        .filter(|&j| !f.descendants(j).any(|k| k != j && fits(k)))
        .collect();
    match hits.as_slice() {
        [one] => Outcome::Act(Act {
            action: Action::click(f.els[*one].id.clone()),
            kind: StepKind::Choose,
            confidence: 0.9,
            margin: 0.9,
            why: format!(
                "the suggestion {} of {} satisfies {criterion:?}",
                describe(f, *one),
                describe(f, field)
            ),
            order: *one,
        }),
        [a, b, ..] => Outcome::NeedsAgent(format!(
            "two suggestions satisfy {criterion:?}: {}, {}",
            describe(f, *a),
            describe(f, *b)
        )),
        [] if history::trailing_waits(h) < MAX_WAITS => Outcome::Wait(format!(
            "waiting for {} to suggest a text for {criterion:?}",
            describe(f, field)
        )),
        [] => Outcome::NeedsAgent(format!(
            "{} suggests nothing that satisfies {criterion:?}",
            describe(f, field)
        )),
    }
}
