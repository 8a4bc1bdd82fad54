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
use arc_core::{ActionKind, ActionRecord};
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

/// Whether the run already pressed a control for implied click `it` of `goal`: the k-th
/// implied click with a verb is done once k clicks reached controls whose name begins
/// with that verb. Re-derived on every snapshot, the name that fits best may be another
/// row's once the pressed row is gone ("Move Set up CI to Done" pressed, "Move Write
/// specs to Done" left): one press is what the clause asked for.
pub fn pressed(h: &[ActionRecord], goal: &[Intent], it: &Intent) -> bool {
    let verb = |i: &Intent| {
        i.implied
            .as_deref()
            .and_then(|c| c.words.first())
            .map(|v| normalize(v))
    };
    let Some(v) = verb(it) else {
        return false;
    };
    let Some(k) = goal.iter().position(|g| std::ptr::eq(g, it)) else {
        return false;
    };
    let nth = goal[..=k]
        .iter()
        .filter(|g| verb(g).as_ref() == Some(&v))
        .count();
    let presses = h
        .iter()
        .filter(|r| r.action.kind() == ActionKind::Click && r.on_target())
        .filter(|r| {
            r.target_name
                .as_deref()
                .is_some_and(|n| normalize(n).split(' ').next() == Some(v.as_str()))
        })
        .count();
    presses >= nth
}

/// The normalized name, two words or more, of the clickable controls whose words the
/// implied clause says in order from its verb on; the longest such name, and only when
/// no other name of that length fits too (a tie names no control).
fn control_name(f: &Facts, it: &Intent) -> Option<String> {
    let implied = it.implied.as_deref()?;
    let clause = normalize(&implied.words.join(" "));
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
        None => carrying_item(f, &clause, implied.quote.as_deref()),
    }
}

/// The one name beginning with the clause's verb that the clause names by words only it
/// bears among those names ("budget", "2026" of "Archive Budget 2026.xlsx"; never "done"
/// of every "Move … to Done"); None on a tie, when the clause says a number the name
/// lacks ("Budget 2027") or a quote the name does not say, when it says under half of
/// the name's own words, or when it also says a word only another such name bears.
fn carrying_item(f: &Facts, clause: &[&str], quote: Option<&str>) -> Option<String> {
    let (verb, rest) = clause.split_first()?;
    let mut names: Vec<&str> = (0..f.len())
        .filter(|&i| clickable(f, i))
        .map(|i| f.name(i))
        .filter(|n| n.split(' ').next() == Some(verb) && n.contains(' '))
        .collect();
    names.sort_unstable();
    names.dedup();
    let words = |n: &str| -> Vec<String> {
        n.split(' ')
            .skip(1)
            .filter(|w| !is_stopword(w))
            .map(stem)
            .collect()
    };
    let all: Vec<Vec<String>> = names.iter().map(|n| words(n)).collect();
    // Each name's own words: borne by no other name that begins with the verb.
    let own: Vec<Vec<&String>> = (0..names.len())
        .map(|k| {
            all[k]
                .iter()
                .filter(|w| (0..names.len()).all(|j| j == k || !all[j].contains(w)))
                .collect()
        })
        .collect();
    let said: Vec<String> = rest
        .iter()
        .filter(|w| !is_stopword(w))
        .map(|w| stem(w))
        .collect();
    let mut best: Option<(usize, usize)> = None;
    let mut tied = false;
    for k in 0..names.len() {
        let n = said.iter().filter(|w| own[k].contains(w)).count();
        let lacks_number = said
            .iter()
            .any(|w| w.chars().any(|c| c.is_ascii_digit()) && !all[k].contains(w));
        let names_another = said
            .iter()
            .any(|w| (0..names.len()).any(|j| j != k && own[j].contains(&w)));
        // Most of its own words said: "done" alone of "Move Set up CI to Done" may be
        // where the clause moves a card no control carries ("move 'Book venue' to Done").
        // A quote names its item exactly: the name says it ("move 'Book venue' to Done"
        // is no press of "Move Set up CI to Done", whose own word "done" it says).
        let lacks_quote = quote.is_some_and(|q| !super::text::contains_phrase(names[k], q));
        // "download the annual report" is no press of "Download the monthly report".
        let name: Vec<&str> = names[k].split(' ').skip(1).collect();
        let swapped = super::text::substitutes(rest, &name, is_stopword);
        if n == 0 || n * 2 < own[k].len() || lacks_number || names_another || lacks_quote || swapped
        {
            continue;
        }
        match best {
            Some((_, m)) if n == m => tied = true,
            Some((_, m)) if n < m => {}
            _ => (best, tied) = (Some((k, n)), false),
        }
    }
    best.filter(|_| !tied).map(|(k, _)| names[k].to_owned())
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
