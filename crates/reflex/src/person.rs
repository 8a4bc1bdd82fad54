//! What only a person can give. A page that asks for a password no input covers, a
//! one-time code, or an "are you human" challenge is handed to a person (termination
//! `needs_human`, the element named) instead of committed without it, waited on until
//! the budget runs out, or guessed at: nothing is typed into it, and the page stays as
//! it is for the person to answer and the next subtask to go on.
//!
//! The ask stops a press only in the same form (a sign-in box in the page's header does
//! not stop a search), and stops a run that would otherwise wait or hand back when it
//! appeared while the run acted: the second factor asked after signing in (a form shown
//! from the start with a field nothing fills is the planner's to read, not a person's).

use super::facts::Facts;
use super::inputs::{self, Input};
use super::step::{Outcome, Status};
use super::text::normalize;
use arc_core::{Action, ActionKind, ActionRecord, ElementId, HumanNeed, Key, Role, SubmitKey};
use std::collections::HashSet;

/// A page's ask a person must answer: the element and what it wants.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    pub id: ElementId,
    pub need: HumanNeed,
    pub why: String,
}

/// The outcome, or the hand-off it runs into. `at_start`: the ids of the run's first
/// snapshot.
pub fn screen(
    f: &Facts,
    h: &[ActionRecord],
    inputs: &[Input],
    at_start: &HashSet<String>,
    outcome: Outcome,
) -> Outcome {
    let asks = asking(f, h, inputs);
    if asks.is_empty() {
        return outcome;
    }
    let stop = match &outcome {
        // A press (or an Enter) in the form that asks: sent without the answer, it
        // fails, or counts toward a lock-out.
        Outcome::Act(a) => sends(f, &a.action)
            .and_then(|p| asks.iter().find(|&&(i, _)| form_of(f, i) == form_of(f, p))),
        // Nothing else to do but wait, or hand back: the ask is why.
        Outcome::Wait(_) | Outcome::NeedsAgent(_) | Outcome::Unverified(_) => asks
            .iter()
            .find(|&&(i, _)| !at_start.contains(f.els[i].id.as_str())),
        _ => None,
    };
    match stop {
        Some(&(i, need)) => Outcome::NeedsHuman(Box::new(Ask {
            id: f.els[i].id.clone(),
            need,
            why: format!(
                "the page asks for {} in {} {:?}, which the subtask does not give: a person must answer it (nothing was typed there)",
                what(need),
                f.els[i].role,
                f.els[i].name
            ),
        })),
        None => outcome,
    }
}

fn what(need: HumanNeed) -> &'static str {
    match need {
        HumanNeed::Password => "a password",
        HumanNeed::OneTimeCode => "a one-time code",
        HumanNeed::Captcha => "a CAPTCHA's answer",
    }
}

/// The elements asking for a person, in page order: shown, enabled, not yet answered,
/// and no input of the subtask going there.
fn asking(f: &Facts, h: &[ActionRecord], inputs: &[Input]) -> Vec<(usize, HumanNeed)> {
    (0..f.len())
        .filter_map(|i| need_of(f, i).map(|n| (i, n)))
        .filter(|&(i, _)| !covered(f, h, inputs, i))
        .collect()
}

fn need_of(f: &Facts, i: usize) -> Option<HumanNeed> {
    let e = &f.els[i];
    if !e.visible || !e.enabled {
        return None;
    }
    let empty = e
        .value
        .as_ref()
        .is_none_or(|v| v.as_text().trim().is_empty());
    let field =
        e.actions.contains(ActionKind::TypeText) || e.actions.contains(ActionKind::SetValue);
    let placeholder = e
        .facts
        .placeholder
        .as_deref()
        .map(normalize)
        .unwrap_or_default();
    let said = [f.name(i), placeholder.as_str()]
        .iter()
        .any(|t| says_code(t));
    if field && empty && e.role == Role::PasswordField {
        return Some(HumanNeed::Password);
    }
    let one_time = e
        .facts
        .autocomplete
        .as_deref()
        .is_some_and(|a| a.split_whitespace().any(|t| t == "one-time-code"));
    if field && empty && (one_time || said) {
        return Some(HumanNeed::OneTimeCode);
    }
    if is_challenge(f.name(i)) && (e.role == Role::Iframe || e.role == Role::CheckBox) {
        return Some(HumanNeed::Captcha);
    }
    None
}

/// A field's words that name a one-time code: "Verification code", "6-digit code",
/// "One-time password", "Authenticator code", "OTP".
fn says_code(text: &str) -> bool {
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    let has = |w: &str| words.contains(&w);
    let one_time = words.windows(2).any(|p| p == ["one", "time"]);
    has("otp")
        || has("passcode")
        || has("2fa")
        || (one_time && (has("password") || has("code") || has("pin")))
        || (has("code")
            && words.iter().any(|w| {
                matches!(
                    *w,
                    "verification"
                        | "security"
                        | "authentication"
                        | "authenticator"
                        | "digit"
                        | "sms"
                        | "confirmation"
                        | "login"
                ) || w.ends_with("digit")
            }))
}

/// A challenge that tells people from programs: "reCAPTCHA", "hCaptcha", "I'm not a
/// robot", "security challenge", "verify you are human".
fn is_challenge(name: &str) -> bool {
    name.contains("captcha")
        || name.contains("not a robot")
        || name.contains("security challenge")
        || name.contains("you are human")
        || name.contains("you re human")
}

/// Whether an input of the subtask goes into the element, or the run typed into it.
fn covered(f: &Facts, h: &[ActionRecord], inputs: &[Input], i: usize) -> bool {
    let id = &f.els[i].id;
    h.iter().any(|r| r.action.target() == Some(id))
        || inputs
            .iter()
            .any(|input| match inputs::status(f, h, input) {
                Status::Pending(a) => a.action.target() == Some(id),
                _ => false,
            })
}

/// The element whose form an action would send: a click's target, the field an Enter is
/// typed or pressed in.
fn sends(f: &Facts, action: &Action) -> Option<usize> {
    let at = match action {
        Action::Click { target, .. } => target,
        Action::TypeText {
            target,
            submit: Some(SubmitKey::Enter),
            ..
        } => target,
        Action::PressKey { key: Key::Enter } => {
            return (0..f.len()).find(|&i| f.els[i].focused && f.els[i].role != Role::Document)
        }
        _ => return None,
    };
    f.index_of(at.as_str())
}

/// The nearest form around an element (`None`: none).
fn form_of(f: &Facts, i: usize) -> Option<usize> {
    f.ancestors(i).find(|&a| f.els[a].role == Role::Form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_time_code_is_named_in_the_words_pages_use() {
        for yes in [
            "verification code",
            "enter the 6 digit code",
            "one time password",
            "authenticator code",
            "otp",
            "security code",
        ] {
            assert!(says_code(yes), "{yes}");
        }
        for no in [
            "promo code",
            "postal code",
            "discount code",
            "code",
            "password",
        ] {
            assert!(!says_code(no), "{no}");
        }
    }
}
