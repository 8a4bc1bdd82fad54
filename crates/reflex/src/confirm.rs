//! A field that asks for a value again — "Confirm password", "Repeat email", "Password
//! again", "Re-enter password" — takes the literal of the input that fills the field it
//! repeats: a planner gives the password once, as a person is told it once. A field the
//! subtask names itself (`confirm_password`) is left to that input, so a mismatch the
//! planner meant is typed as given.

use super::facts::Facts;
use super::ground::{is_field, THRESHOLD};
use super::inputs::{fill, sent_after_placing, Input};
use super::step::{Act, Status};
use super::text::{identifier_words, is_stopword, Query};
use arc_core::{ActionRecord, Role};

/// Words that say a field repeats another: as written, and their first letters' forms.
fn is_again_word(w: &str) -> bool {
    matches!(
        w,
        "confirm" | "confirmation" | "repeat" | "again" | "retype" | "reenter" | "verify"
    ) || w == "re"
}

/// The words a label names besides its "again" words ("confirm your password" → password).
fn repeated(label: &str) -> Option<String> {
    let words: Vec<&str> = label.split(' ').filter(|w| !w.is_empty()).collect();
    if !words.iter().any(|w| is_again_word(w)) {
        return None;
    }
    let rest: Vec<&str> = words
        .into_iter()
        .filter(|w| {
            !is_again_word(w) && !matches!(*w, "enter" | "type" | "your") && !is_stopword(w)
        })
        .collect();
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// Steps filling each repeat field with the literal of the input its label repeats.
pub fn steps(f: &Facts, h: &[ActionRecord], inputs: &[Input]) -> Vec<Act> {
    // An input named for a repeat field fills it itself.
    if inputs
        .iter()
        .any(|i| identifier_words(i.key).split(' ').any(is_again_word))
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    for i in 0..f.len() {
        let e = &f.els[i];
        if !is_field(f, i) || !matches!(e.role, Role::TextField | Role::PasswordField) {
            continue;
        }
        let Some(what) = repeated(f.name(i)) else {
            continue;
        };
        let Some(input) = inputs.iter().find(|inp| {
            Query::from_norm(identifier_words(inp.key)).score(&what) >= THRESHOLD
                && !sent_after_placing(h, inp)
        }) else {
            continue;
        };
        if let Status::Pending(a) = fill(f, h, input, i, THRESHOLD, 0.5 * THRESHOLD) {
            out.push(a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::repeated;

    #[test]
    fn a_repeat_label_names_what_it_repeats() {
        assert_eq!(repeated("confirm password").as_deref(), Some("password"));
        assert_eq!(repeated("password again").as_deref(), Some("password"));
        assert_eq!(repeated("re enter your email").as_deref(), Some("email"));
        assert_eq!(repeated("password"), None);
        assert_eq!(repeated("confirm"), None);
    }
}
