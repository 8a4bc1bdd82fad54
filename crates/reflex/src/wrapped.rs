//! A control's name the goal says around the item it acts on: "Mark invoice INV-202 as
//! paid" presses "Mark as paid", "Void invoice 201" presses "Void invoice". A clause whose
//! verb no vocabulary knows implies a click (`goal::implied`); the control is the one
//! whose name's words the clause says in order from that verb on, the longest such name
//! when several fit. The clause's other words then pick the item (`item`), as for a
//! control named by its verb alone ("Archive the Q3 report").
//!
//! Where each row's control carries its item in its own name ("Archive Budget 2026.xlsx"),
//! no name is said whole; the control is then the one, beginning with the verb, whose
//! other words the clause says most ("archive the Budget 2026 spreadsheet").

use super::facts::Facts;
use super::goal::Intent;
use super::ground::clickable;
use super::stem::stem;
use super::text::{is_stopword, normalize};
use std::borrow::Cow;

/// The goal with each implied click named by the longest control the page shows around
/// its item; unchanged (borrowed) when no implied click has such a control.
pub fn widen<'g>(f: &Facts, goal: &'g [Intent]) -> Cow<'g, [Intent]> {
    if goal.iter().all(|i| i.implied.is_none()) {
        return Cow::Borrowed(goal);
    }
    let named: Vec<Option<String>> = goal.iter().map(|i| control_name(f, i)).collect();
    if named.iter().all(Option::is_none) {
        return Cow::Borrowed(goal);
    }
    Cow::Owned(
        goal.iter()
            .zip(named)
            .map(|(it, name)| match name {
                Some(name) => Intent {
                    object: name.clone(),
                    core: name,
                    ..it.clone()
                },
                None => it.clone(),
            })
            .collect(),
    )
}

/// The normalized name, two words or more, of the clickable controls whose words the
/// implied clause says in order from its verb on; the longest such name, and only when
/// no other name of that length fits too (a tie names no control).
fn control_name(f: &Facts, it: &Intent) -> Option<String> {
    let clause = normalize(&it.implied.as_deref()?.join(" "));
    let clause: Vec<&str> = clause.split(' ').filter(|w| !w.is_empty()).collect();
    let mut best: Option<&str> = None;
    let mut tied = false;
    let mut best_len = 1;
    for i in (0..f.len()).filter(|&i| clickable(f, i)) {
        let name = f.name(i);
        let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
        if words.len() < best_len || !said_in_order(&clause, &words) {
            continue;
        }
        if words.len() > best_len {
            (best, best_len, tied) = (Some(name), words.len(), false);
        } else if best.is_some_and(|b| b != name) {
            tied = true;
        }
    }
    match best {
        Some(name) if !tied => Some(name.to_owned()),
        Some(_) => None,
        None => carrying_item(f, &clause),
    }
}

/// The one name beginning with the clause's verb whose other words the clause says
/// most (at least one that is no stopword); None on a tie.
fn carrying_item(f: &Facts, clause: &[&str]) -> Option<String> {
    let (verb, rest) = clause.split_first()?;
    let said: Vec<String> = rest
        .iter()
        .filter(|w| !is_stopword(w))
        .map(|w| stem(w))
        .collect();
    let mut best: Option<(&str, usize)> = None;
    let mut tied = false;
    for i in (0..f.len()).filter(|&i| clickable(f, i)) {
        let name = f.name(i);
        let mut words = name.split(' ');
        if words.next() != Some(verb) {
            continue;
        }
        let n = words
            .filter(|w| !is_stopword(w) && said.contains(&stem(w)))
            .count();
        match best {
            _ if n == 0 => {}
            Some((b, m)) if n == m && b != name => tied = true,
            Some((_, m)) if n <= m => {}
            _ => (best, tied) = (Some((name, n)), false),
        }
    }
    best.filter(|_| !tied).map(|(name, _)| name.to_owned())
}

/// Whether `name` starts with the clause's verb and its other words come in the clause
/// after it, in order (other words between them allowed).
fn said_in_order(clause: &[&str], name: &[&str]) -> bool {
    let (Some(verb), Some(first)) = (clause.first(), name.first()) else {
        return false;
    };
    if verb != first {
        return false;
    }
    let mut rest = clause[1..].iter();
    name[1..].iter().all(|w| rest.any(|c| c == w))
}

#[cfg(test)]
mod tests {
    use super::said_in_order;

    fn fits(clause: &str, name: &str) -> bool {
        let c: Vec<&str> = clause.split(' ').collect();
        let n: Vec<&str> = name.split(' ').collect();
        said_in_order(&c, &n)
    }

    #[test]
    fn a_name_is_said_from_the_verb_in_order() {
        assert!(fits("mark invoice inv 202 as paid", "mark as paid"));
        assert!(fits("void invoice 201", "void invoice"));
        // Not from the verb, or out of order, or a word the clause lacks.
        assert!(!fits("mark invoice 202 as paid", "as paid"));
        assert!(!fits("mark invoice 202 as paid", "mark paid as"));
        assert!(!fits("mark invoice 202 as paid", "mark as shipped"));
    }
}
