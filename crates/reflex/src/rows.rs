//! A goal that names one row of a list ("set the count for item 45"): every row's field
//! carries the same label but for the row's own word ("Count for item N"), so an input key
//! ties among the rows. The goal's own words pick the row: the one label whose
//! distinguishing words the goal says beside the same neighbour word ("item 45", not the
//! "9" of "to 9"). When the goal names a row no shown label has and the observation left
//! part of the page out, the page is scrolled towards it (bounded) until it appears.

use super::facts::Facts;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{is_stopword, normalize};
use arc_core::{Action, ActionKind, ActionRecord, ObservationScope, ScrollDirection};

/// Scrolls one run may make looking for a named row (each ≈ 0.8 of a viewport).
pub const MAX_ROW_SCROLLS: usize = 40;

/// What the goal's words say among tied rows.
#[derive(Debug, PartialEq)]
pub enum Row {
    /// Exactly this candidate is the row the goal names.
    One(usize),
    /// The goal names a row by this word, and no candidate shown is it.
    Beyond(String),
    /// The goal names no row (or several candidates fit): the tie stands.
    Unnamed,
}

/// Among `candidates` (tied fields, with `labels` their normalized labels), the row the
/// goal names.
pub fn pick(goal: &str, candidates: &[usize], labels: &[String]) -> Row {
    let goal = normalize(goal);
    let goal: Vec<&str> = goal.split(' ').filter(|w| !w.is_empty()).collect();
    let labels: Vec<Vec<&str>> = labels
        .iter()
        .map(|l| l.split(' ').filter(|w| !w.is_empty()).collect())
        .collect();
    let common = |w: &str| labels.iter().all(|l| l.contains(&w));
    let mut found = None;
    for (k, label) in labels.iter().enumerate() {
        let own: Vec<usize> = (0..label.len()).filter(|&p| !common(label[p])).collect();
        if !own.is_empty() && own.iter().all(|&p| said_beside(&goal, label, p)) {
            if found.is_some() {
                return Row::Unnamed;
            }
            found = Some(candidates[k]);
        }
    }
    if let Some(i) = found {
        return Row::One(i);
    }
    // The word the goal puts where a label has its own word, beside the same neighbour.
    let shown = |w: &str| labels.iter().any(|l| l.contains(&w));
    for label in &labels {
        for p in (0..label.len()).filter(|&p| !common(label[p])) {
            for g in 0..goal.len() {
                let named = if p > 0 && common(label[p - 1]) && goal[g] == label[p - 1] {
                    goal.get(g + 1)
                } else if p + 1 < label.len() && common(label[p + 1]) && goal[g] == label[p + 1] {
                    g.checked_sub(1).map(|b| &goal[b])
                } else {
                    None
                };
                if let Some(w) = named.filter(|w| !is_stopword(w) && !shown(w)) {
                    return Row::Beyond((*w).to_owned());
                }
            }
        }
    }
    // Said elsewhere in the goal ("the stock of Cherries" for "Quantity for Cherries"):
    // the one label whose own words the goal holds, all of them.
    let holds_own = |label: &Vec<&str>| {
        let own: Vec<&&str> = label.iter().filter(|w| !common(w)).collect();
        !own.is_empty()
            && own.iter().all(|w| {
                // A number may be the literal the goal sets, not the row it names.
                w.chars().any(char::is_alphabetic) && !is_stopword(w) && goal.contains(w)
            })
    };
    let held: Vec<usize> = (0..labels.len())
        .filter(|&k| holds_own(&labels[k]))
        .collect();
    if let [k] = held[..] {
        return Row::One(candidates[k]);
    }
    Row::Unnamed
}

/// Whether the goal says label word `p` with one of its label neighbours beside it.
fn said_beside(goal: &[&str], label: &[&str], p: usize) -> bool {
    (0..goal.len()).any(|g| {
        goal[g] == label[p]
            && ((p > 0 && g > 0 && goal[g - 1] == label[p - 1])
                || (p + 1 < label.len() && g + 1 < goal.len() && goal[g + 1] == label[p + 1]))
    })
}

/// The goal names row `word`, which this snapshot does not show: scroll towards it while
/// the observation left part of the page out, down unless every shown row's number is
/// above the wanted one; hand back once scrolling changes nothing or the bound is reached.
/// None when the whole page was read and the run never scrolled for it: the tie stands.
pub fn seek(
    f: &Facts,
    h: &[ActionRecord],
    key: &str,
    word: &str,
    shown: &[String],
) -> Option<Status> {
    let scrolls: Vec<&ActionRecord> = h
        .iter()
        .filter(|r| r.action.kind() == ActionKind::Scroll)
        .collect();
    let partial = f.snapshot.facts.scope == Some(ObservationScope::Viewport)
        || f.snapshot.facts.left_out_elements.unwrap_or(0) > 0;
    let stalled = scrolls.last().is_some_and(|r| !r.state_changed);
    if !partial && scrolls.is_empty() {
        return None;
    }
    if !partial || stalled || scrolls.len() >= MAX_ROW_SCROLLS {
        return Some(Status::Stop(Outcome::NeedsAgent(format!(
            "input {key:?}: the goal names row {word:?}, and no field of that row is on the page{}",
            if scrolls.is_empty() {
                String::new()
            } else {
                format!(" after {} scroll(s)", scrolls.len())
            }
        ))));
    }
    let direction = match (word.parse::<u64>(), row_numbers(shown)) {
        (Ok(want), Some(min)) if want < min => ScrollDirection::Up,
        _ => ScrollDirection::Down,
    };
    Some(Status::Pending(Act {
        action: Action::Scroll {
            direction,
            target: None,
        },
        kind: StepKind::Scroll,
        confidence: 0.8,
        margin: 0.8,
        why: format!("input {key:?}: look for the row the goal names ({word:?})"),
        order: 0,
    }))
}

/// The smallest number among the shown labels' last numeric words, when every label has one.
fn row_numbers(labels: &[String]) -> Option<u64> {
    labels
        .iter()
        .map(|l| {
            l.split(' ')
                .filter_map(|w| w.parse::<u64>().ok())
                .next_back()
        })
        .collect::<Option<Vec<u64>>>()?
        .into_iter()
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(ns: &[u32]) -> (Vec<usize>, Vec<String>) {
        (
            ns.iter().map(|&n| n as usize).collect(),
            ns.iter().map(|n| format!("count for item {n}")).collect(),
        )
    }

    #[test]
    fn the_goal_picks_its_row_and_not_the_literal_it_mentions() {
        let (c, l) = labels(&[3, 9, 45]);
        assert_eq!(pick("Set the count for item 45 to 9", &c, &l), Row::One(45));
        assert_eq!(pick("Set item 9's count to 3", &c, &l), Row::One(9));
    }

    #[test]
    fn a_row_not_shown_is_named_and_a_goal_without_one_keeps_the_tie() {
        let (c, l) = labels(&[1, 2, 3]);
        assert_eq!(
            pick("Set the count for item 45 to 9", &c, &l),
            Row::Beyond("45".into())
        );
        assert_eq!(pick("Set the count to 9", &c, &l), Row::Unnamed);
    }

    #[test]
    fn rows_named_by_words_are_picked_by_their_words() {
        let c = vec![0, 1, 2];
        let l: Vec<String> = [
            "quantity of blue mug",
            "quantity of red mug",
            "quantity of blue plate",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            pick("Set the quantity of the red mug to 2", &c, &l),
            Row::One(1)
        );
    }

    #[test]
    fn a_row_named_away_from_its_labels_neighbour_is_still_picked() {
        let c = vec![0, 1, 2];
        let l: Vec<String> = [
            "quantity for apples",
            "quantity for bananas",
            "quantity for cherries",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            pick("Update the stock of Cherries to 20", &c, &l),
            Row::One(2)
        );
        // Two rows named: the tie stands.
        assert_eq!(pick("Move 5 from Apples to Cherries", &c, &l), Row::Unnamed);
        // A number names no row ("to 3" is the literal).
        let (c, l) = labels(&[1, 2, 3]);
        assert_eq!(pick("Set the count to 3", &c, &l), Row::Unnamed);
    }
}
