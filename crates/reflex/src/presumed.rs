//! A goal that changes something presumes it is there: "Update Mary Somerville's phone
//! number" speaks of Mary's record, not of a new one. When the goal opens with a verb of
//! changing and names an owner by name ("Mary Somerville's …") that nothing on the run's
//! first page shows, the run hands back before it acts: filling the page's empty "add"
//! form would create what the goal said to change, and the new record would then read
//! as the change made.

use super::facts::Facts;
use super::text::{contains_phrase, normalize};

/// Verbs that change what exists (not "add", "create", "register").
fn changes(w: &str) -> bool {
    matches!(
        w,
        "update" | "edit" | "change" | "modify" | "correct" | "fix" | "amend" | "adjust"
    )
}

/// Why the goal cannot be done here: the owner it names is not on the page.
pub fn missing(goal: &str, f: &Facts) -> Option<String> {
    let owner = owner(goal)?;
    let shown = (0..f.len()).any(|i| {
        let e = &f.els[i];
        e.visible && !e.role.is_text_input() && contains_phrase(f.name(i), &owner)
    });
    (!shown).then(|| {
        format!("the goal changes {owner:?}'s record, and nothing on the page shows {owner:?}")
    })
}

/// The capitalized name before the first "'s" of a goal whose first word changes
/// something ("Fix Ada Byron's email" → "ada byron").
fn owner(goal: &str) -> Option<String> {
    let words: Vec<&str> = goal.split_whitespace().collect();
    if !changes(&words.first()?.to_lowercase()) {
        return None;
    }
    let at = words
        .iter()
        .position(|w| w.ends_with("'s") || w.ends_with("\u{2019}s"))?;
    let capitalized = |w: &str| w.chars().next().is_some_and(char::is_uppercase);
    let last = words[at]
        .trim_end_matches('s')
        .trim_end_matches(['\'', '\u{2019}']);
    if !capitalized(last) {
        return None;
    }
    let first = at
        - words[1..at]
            .iter()
            .rev()
            .take_while(|w| capitalized(w))
            .count();
    let owner = normalize(&[&words[first..at], &[last]].concat().join(" "));
    (!owner.is_empty()).then_some(owner)
}

#[cfg(test)]
mod tests {
    use super::owner;

    #[test]
    fn the_owner_is_the_capitalized_name_before_the_possessive() {
        assert_eq!(
            owner("Update Mary Somerville's phone number").as_deref(),
            Some("mary somerville")
        );
        assert_eq!(owner("Fix Ada’s email").as_deref(), Some("ada"));
        assert_eq!(owner("Change the team's name"), None);
        assert_eq!(owner("Add Mary Somerville's number"), None);
        assert_eq!(owner("Update the phone number"), None);
    }
}
