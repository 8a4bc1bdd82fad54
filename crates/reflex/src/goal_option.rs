//! A choice the goal names in its own words that no input carries: "Send a billing
//! question" on a form whose Topic select offers "Billing" and shows "General question".
//! The executor types and selects only literals from `inputs`, so it cannot make that
//! choice itself; sending the form without it would send the wrong thing and, when the
//! criteria only say "Message sent", call it done. So no commit is made while such a
//! choice is unmade: the run hands back naming the option and the select, before anything
//! is sent, and a planner can add the input.

use super::facts::Facts;
use super::ground::{field_score, THRESHOLD};
use super::inputs::{describe, Input};
use super::text::{identifier_words, is_stopword, normalize, Query};
use arc_core::Role;

/// The first select on the page with exactly one option the goal names whole (every
/// content word of it, as a word of the goal) while another is selected, which no input
/// grounds to: what to say when handing back instead of committing.
pub fn unmade(f: &Facts, said: &str, inputs: &[Input]) -> Option<String> {
    let goal: Vec<&str> = said.split(' ').collect();
    let named = |j: usize| {
        let words: Vec<String> = normalize(&f.els[j].name)
            .split(' ')
            .filter(|w| !w.is_empty() && !is_stopword(w))
            .map(str::to_owned)
            .collect();
        !words.is_empty() && words.iter().all(|w| goal.contains(&w.as_str()))
    };
    (0..f.len())
        .filter(|&i| f.is_native_select(i) && f.els[i].visible && f.els[i].enabled)
        .filter(|&i| !inputs.iter().any(|inp| grounds(f, i, inp)))
        .find_map(|i| {
            let options: Vec<usize> = f
                .descendants(i)
                .filter(|&j| f.els[j].role == Role::Option)
                .collect();
            let chosen = options
                .iter()
                .copied()
                .find(|&j| f.els[j].selected == Some(true))?;
            let mut goal_named = options.iter().copied().filter(|&j| named(j));
            let j = goal_named.next()?;
            (goal_named.next().is_none() && j != chosen && !named(chosen)).then(|| {
                format!(
                    "the goal names {:?}, an option of {} (which shows {:?}), and no input gives it: not committing without it",
                    f.els[j].name,
                    describe(f, i),
                    f.els[chosen].name
                )
            })
        })
}

/// Whether the input is this select's: by its key naming the field, or its literal being
/// one of the options.
fn grounds(f: &Facts, i: usize, input: &Input) -> bool {
    let key = Query::from_norm(identifier_words(input.key));
    let lit = normalize(&input.literal.as_text());
    field_score(f, i, &key) >= THRESHOLD
        || f.descendants(i)
            .any(|j| f.els[j].role == Role::Option && normalize(&f.els[j].name) == lit)
}
