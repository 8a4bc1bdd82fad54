//! A count shown between a "−" and a "+" (a cart line's quantity): no field takes the
//! input, so the run presses the button that moves the count toward the literal, one
//! press per decision, reading the count again each time. The shown count is the key's
//! element ("Quantity of Ceramic mug"); among several, the one whose own words the goal
//! says. A press that leaves the count as it was hands back rather than pressing on.

use super::facts::Facts;
use super::ground::{clickable, is_field, THRESHOLD};
use super::history;
use super::inputs::{describe, Input};
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{contains_phrase, identifier_words, is_stopword, normalize, Query};
use arc_core::{Action, ActionRecord, Role};

/// The step toward the literal on the count the key names, if the page shows one.
pub fn step(f: &Facts, h: &[ActionRecord], input: &Input) -> Option<Status> {
    let want: i64 = input.literal.as_text().trim().parse().ok()?;
    let key = Query::from_norm(identifier_words(input.key));
    // (element, its count, its raise and lower buttons)
    let counts: Vec<(usize, i64, (usize, usize))> = (0..f.len())
        .filter(|&i| f.els[i].visible && !is_field(f, i) && key.score(f.name(i)) >= THRESHOLD)
        .filter_map(|i| Some((i, count(f, i)?, buttons(f, i)?)))
        .collect();
    let ids: Vec<usize> = counts.iter().map(|c| c.0).collect();
    let named = named_by_goal(f, &ids, input.goal)?;
    let &(i, have, (up, down)) = counts.iter().find(|c| c.0 == named)?;
    if have == want {
        return Some(Status::Done);
    }
    let press = if have < want { up } else { down };
    let action = Action::click(f.els[press].id.clone());
    // The count this button's last press was decided on (`count_at`, kept in the
    // decision's raw): unchanged since, the press moved nothing.
    let pressed_at = h
        .iter()
        .rev()
        .filter(|r| history::tag(r) == Some(StepKind::Step.as_str()))
        .find(|r| r.target_name.as_deref() == Some(f.els[press].name.as_str()))
        .and_then(|r| r.decision.raw.as_ref()?.pointer("/reflex/count")?.as_i64());
    if pressed_at == Some(have) {
        return Some(Status::Stop(Outcome::NeedsAgent(format!(
            "pressing {} left {} at {have}, short of input {:?}",
            describe(f, press),
            describe(f, i),
            input.key
        ))));
    }
    Some(Status::Pending(Act {
        action,
        kind: StepKind::Step,
        confidence: THRESHOLD,
        margin: THRESHOLD,
        why: format!(
            "input {:?} → {} shows {have}: {}",
            input.key,
            describe(f, i),
            describe(f, press)
        ),
        order: i,
    }))
}

/// The count element `i` shows: its value, else the one number among its texts.
fn count(f: &Facts, i: usize) -> Option<i64> {
    if let Some(v) = &f.els[i].value {
        return v.as_text().trim().parse().ok();
    }
    let mut numbers = f
        .descendants(i)
        .filter_map(|j| f.els[j].name.trim().parse::<i64>().ok());
    let n = numbers.next()?;
    numbers.next().is_none().then_some(n)
}

/// The button beside count `i` that raises it and the one that lowers it: among the
/// count's siblings, the one whose name holds the count's ("Increase quantity of Ceramic
/// mug"), else the nearest in page order (a bare "+" beside it; a page's line containers
/// are often pruned, leaving every line's buttons siblings).
fn buttons(f: &Facts, i: usize) -> Option<(usize, usize)> {
    let parent = f.parent(i)?;
    let beside: Vec<usize> = (0..f.len())
        .filter(|&j| {
            f.parent(j) == Some(parent)
                && f.els[j].role == Role::Button
                && f.els[j].enabled
                && clickable(f, j)
        })
        .collect();
    let one = |dir: fn(&str) -> bool| {
        let candidates: Vec<usize> = beside
            .iter()
            .copied()
            .filter(|&j| dir(&f.els[j].name))
            .collect();
        let naming: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&j| contains_phrase(f.name(j), f.name(i)))
            .collect();
        match naming[..] {
            [j] => Some(j),
            [] => {
                let d = |j: usize| j.abs_diff(i);
                let nearest = candidates.iter().copied().min_by_key(|&j| d(j))?;
                (candidates.iter().filter(|&&j| d(j) == d(nearest)).count() == 1).then_some(nearest)
            }
            _ => None,
        }
    };
    Some((one(raises)?, one(lowers)?))
}

fn raises(name: &str) -> bool {
    name.trim() == "+"
        || normalize(name)
            .split(' ')
            .any(|w| matches!(w, "increase" | "increment" | "plus" | "more" | "raise"))
}

fn lowers(name: &str) -> bool {
    matches!(name.trim(), "−" | "-" | "–")
        || normalize(name).split(' ').any(|w| {
            matches!(
                w,
                "decrease" | "decrement" | "minus" | "fewer" | "less" | "lower"
            )
        })
}

/// The one count whose own words (those its label shares with no other count) the goal
/// all says; the only count when there is one.
fn named_by_goal(f: &Facts, counts: &[usize], goal: &str) -> Option<usize> {
    if let [i] = counts {
        return Some(*i);
    }
    let goal = normalize(goal);
    let said: Vec<&str> = goal.split(' ').collect();
    let words =
        |i: usize| -> Vec<&str> { f.name(i).split(' ').filter(|w| !is_stopword(w)).collect() };
    let shared = |w: &str| counts.iter().all(|&c| words(c).contains(&w));
    let mut named = counts.iter().copied().filter(|&c| {
        let own: Vec<&str> = words(c).into_iter().filter(|w| !shared(w)).collect();
        !own.is_empty() && own.iter().all(|w| said.contains(w))
    });
    let i = named.next()?;
    named.next().is_none().then_some(i)
}

/// The count a step's press was decided on: its `order` is the count's element.
pub fn count_at(f: &Facts, a: &Act) -> Option<i64> {
    count(f, a.order)
}
