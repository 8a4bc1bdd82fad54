//! Risky operations a planner must opt into (`allowed_risks`). An action whose target is
//! named with a risk word is refused unless its risk is allowed: a wrong click on
//! "Delete account" costs more than handing the step back to the planner.

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Risk {
    Delete,
    Send,
    Purchase,
    Close,
}

impl Risk {
    pub const ALL: [Risk; 4] = [Risk::Delete, Risk::Send, Risk::Purchase, Risk::Close];

    pub fn as_str(self) -> &'static str {
        match self {
            Risk::Delete => "delete",
            Risk::Send => "send",
            Risk::Purchase => "purchase",
            Risk::Close => "close",
        }
    }

    /// Whole words (or word sequences) that mark an element as carrying this risk.
    pub fn words(self) -> &'static [&'static str] {
        match self {
            Risk::Delete => &[
                "delete",
                "remove",
                "erase",
                "trash",
                "discard",
                "destroy",
                "wipe",
                "uninstall",
            ],
            Risk::Send => &["send", "post", "publish", "reply", "forward", "transmit"],
            Risk::Purchase => &[
                "buy",
                "purchase",
                "pay",
                "checkout",
                "check out",
                "place order",
                "order now",
            ],
            Risk::Close => &["close", "quit", "exit", "shut down", "shutdown"],
        }
    }

    /// The first risk whose word appears in `label` as a whole word, with the word.
    pub fn classify(label: &str) -> Option<(Risk, &'static str)> {
        if label.is_empty() {
            return None;
        }
        let words = normalize(label);
        Risk::ALL.into_iter().find_map(|risk| {
            risk.words()
                .iter()
                .find(|w| contains_phrase(&words, w))
                .map(|w| (risk, *w))
        })
    }
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Lower-case words, punctuation dropped: "Delete-account!" → ["delete", "account"].
fn normalize(label: &str) -> Vec<String> {
    label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn contains_phrase(words: &[String], phrase: &str) -> bool {
    let parts: Vec<&str> = phrase.split(' ').collect();
    words
        .windows(parts.len())
        .any(|win| win.iter().zip(&parts).all(|(a, b)| a == b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("Delete account", Some(Risk::Delete))]
    #[case("Send message", Some(Risk::Send))]
    #[case("Place order", Some(Risk::Purchase))]
    #[case("Close", Some(Risk::Close))]
    #[case("Sign up", None)]
    #[case("Senders", None)]
    #[case("Sort order", None)]
    #[case("Posts", None)]
    fn labels_classify(#[case] label: &str, #[case] risk: Option<Risk>) {
        assert_eq!(Risk::classify(label).map(|(r, _)| r), risk);
    }
}

/// A refusal: which risk, and a reason naming the element and the word.
#[derive(Clone, Debug, PartialEq)]
pub struct RiskRefusal {
    pub risk: Risk,
    pub reason: String,
}

/// Refuses an action that would trigger a risk the subtask did not allow: a click-like
/// action on, a value set into, or Enter/Space on the focused, element named with a risk
/// word; or selecting an option whose literal is one.
pub fn check(
    action: &crate::ExecutableAction,
    snapshot: &crate::Snapshot,
    subtask: &crate::Subtask,
) -> Result<(), RiskRefusal> {
    use crate::action::Action;
    use crate::key::Key;
    let element = |id: &crate::ElementId| snapshot.element(id.as_str());
    let named = match &action.action {
        Action::Click { target }
        | Action::DoubleClick { target }
        | Action::SetValue { target, .. } => element(target),
        Action::DragTo { destination, .. } => element(destination),
        Action::PressKey {
            key: Key::Enter | Key::Space,
        } => snapshot.focused(),
        _ => None,
    };
    let mut labels: Vec<(String, String)> = Vec::new();
    if let Some(el) = named {
        labels.push((el.name.clone(), format!("{} {:?}", el.id, el.name)));
    }
    if let Action::SelectOption { input_key, .. } = &action.action {
        let literal = action.text().into_owned();
        let what = if subtask.is_secret(input_key) {
            "a secret option".to_owned()
        } else {
            format!("option {literal:?}")
        };
        labels.push((literal, what));
    }
    for (label, what) in labels {
        if let Some((risk, word)) = Risk::classify(&label) {
            if !subtask.allows(risk) {
                return Err(RiskRefusal {
                    risk,
                    reason: format!(
                        "refused {} on {what}: the word {word:?} marks a '{risk}' risk, which allowed_risks does not include",
                        action.kind()
                    ),
                });
            }
        }
    }
    Ok(())
}
