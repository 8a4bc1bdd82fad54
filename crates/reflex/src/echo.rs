//! What the run typed, shown back before its commit (a wizard's review, a preview), is no
//! answer to that commit: a criterion held only by such an echo, right after the commit
//! press, waits for the page's own answer ("Your workspace is ready … Orion Labs is set
//! up"), and hands back if none comes. A record the page makes is new or changed text;
//! the echo was there, word for word, when the run pressed.

use super::facts::Facts;
use super::history;
use super::inputs::Input;
use super::step::StepKind;
use super::text::{contains_phrase, normalize};
use super::verify::{judge, Criterion};
use arc_core::{ActionKind, ActionRecord, Snapshot};

/// Why the criteria, though held, are no answer yet: every piece of evidence echoes an
/// input the run placed and stood as it is on `before`, the page the commit was pressed on.
pub fn unanswered(
    f: &Facts,
    h: &[ActionRecord],
    criteria: &[Criterion],
    inputs: &[Input],
    before: Option<&Snapshot>,
) -> Option<String> {
    let before = before?;
    let last = h
        .iter()
        .rev()
        .find(|r| r.action.kind() != ActionKind::Wait)?;
    if history::tag(last) != Some(StepKind::Commit.as_str()) {
        return None;
    }
    let placed: Vec<String> = inputs
        .iter()
        .filter(|i| !i.secret && history::used_input(h, i.key))
        .map(|i| normalize(&i.literal.as_text()))
        .filter(|l| !l.is_empty())
        .collect();
    let mut evidence = Vec::new();
    for c in criteria {
        // Held by the URL, an absence or the run's own records: no echo decided it.
        let shown = judge(f, h, c).ok().filter(|e| !e.is_empty())?;
        evidence.extend(shown);
    }
    let echo = |i: usize| {
        let e = &f.els[i];
        placed.iter().any(|l| contains_phrase(f.name(i), l))
            && before
                .element(e.id.as_str())
                .is_some_and(|b| b.name == e.name)
    };
    (!evidence.is_empty() && evidence.iter().all(|&i| echo(i))).then(|| {
        format!(
            "the page shows only what the run typed, as it stood before the commit ({}); its answer has not come",
            evidence
                .iter()
                .map(|&i| super::inputs::describe(f, i))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}
