//! "Mark X as done", "mark it not done": the goal gives an item a state with a verb that
//! names no control. Done is what a to-do's box says when ticked, so the clause reads as
//! checking X (or unchecking it); where X has no box, the control of X's that bears the
//! state's word does the marking ("Done" in its row, `intents`). A state other than done
//! or not done ("mark as shipped") keeps the verb as a control's name (`goal::implied`).

use super::stem::stem;
use super::vocab::Verb;

/// The verb, the object's words and the state's words of a "mark" clause whose state is
/// done or not done; None for any other clause.
pub fn read<'a, 'w>(words: &'a [&'w str]) -> Option<(Verb, &'a [&'w str], String)> {
    let (first, rest) = words.split_first()?;
    if *first != "mark" {
        return None;
    }
    // The first state after the object, "as" or not: "mark X as done", "mark it done
    // right away", "mark that task as not done".
    (1..=rest.len()).find_map(|at| {
        let object = &rest[..at - 1];
        let object = object.strip_suffix(&["as"]).unwrap_or(object);
        [2, 1].into_iter().find_map(|n| {
            let state = rest.get(at - 1..at - 1 + n)?;
            let verb = if done(state)? {
                Verb::Check
            } else {
                Verb::Uncheck
            };
            Some((verb, object, state.join(" ")))
        })
    })
}

/// Whether the words say done (true) or not done (false): "done", "completed",
/// "finished", "not complete", "undone", "incomplete".
fn done(words: &[&str]) -> Option<bool> {
    let said = |w: &str| matches!(stem(w).as_str(), "done" | "complet" | "finish");
    match words {
        [w] if said(w) => Some(true),
        ["not", w] if said(w) => Some(false),
        [w] => ["un", "in"]
            .iter()
            .find_map(|p| w.strip_prefix(p))
            .filter(|rest| said(rest))
            .map(|_| false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(goal: &str) -> Option<(Verb, String, String)> {
        let words: Vec<&str> = goal.split(' ').collect();
        read(&words).map(|(v, o, s)| (v, o.join(" "), s))
    }

    #[test]
    fn done_and_not_done_are_a_box_state() {
        assert_eq!(
            read_str("mark the laundry as done"),
            Some((Verb::Check, "the laundry".into(), "done".into()))
        );
        assert_eq!(
            read_str("mark it completed"),
            Some((Verb::Check, "it".into(), "completed".into()))
        );
        assert_eq!(
            read_str("mark that task as not done"),
            Some((Verb::Uncheck, "that task".into(), "not done".into()))
        );
        assert_eq!(
            read_str("mark the report incomplete").map(|r| r.0),
            Some(Verb::Uncheck)
        );
        assert_eq!(
            read_str("mark the chore undone").map(|r| r.0),
            Some(Verb::Uncheck)
        );
        // Any other state is a control's business ("Mark as shipped").
        assert_eq!(read_str("mark order 1042 as shipped"), None);
        assert_eq!(read_str("mark the email as read"), None);
        assert_eq!(read_str("archive the done items"), None);
        assert_eq!(
            read_str("mark it done right away"),
            Some((Verb::Check, "it".into(), "done".into()))
        );
    }
}
