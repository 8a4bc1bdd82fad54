//! Risky operations a planner must opt into (`allowed_risks`). An action that would press
//! something named or showing a risk word is refused unless its risk is allowed: a wrong
//! click on "Delete account" costs more than handing the step back to the planner.
//!
//! Labels are normalized as everywhere (`crate::name`: NFKC, format characters dropped,
//! lower-cased), so a soft hyphen, a zero-width joiner or fullwidth letters inside
//! "Delete" do not hide it. On top, look-alikes fold: combining marks are dropped, a word
//! of other than ASCII letters is compared by its confusable skeleton (a Cyrillic "е"),
//! a letter-spaced run by the word it spells.

use crate::error::quote;
use crate::record::LandedElsewhere;
use serde::{Deserialize, Serialize};
use std::fmt;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
            // Signing out ends the session as closing the app does (the reference's words).
            Risk::Close => &[
                "close",
                "quit",
                "exit",
                "shut down",
                "shutdown",
                "sign out",
                "log out",
                "logout",
            ],
        }
    }

    /// The first risk whose word appears in `label` as a whole word, with the word: as
    /// written, in look-alike letters of another script (a Cyrillic "е"), or spelled out
    /// letter by letter ("D e l e t e").
    pub fn classify(label: &str) -> Option<(Risk, &'static str)> {
        Risk::found(label).next()
    }

    /// Every risk `label` carries (each once, in `Risk::ALL`'s order): "Delete and send"
    /// is both a delete and a send.
    pub fn all_in(label: &str) -> Vec<Risk> {
        let mut risks: Vec<Risk> = Risk::found(label).map(|(risk, _)| risk).collect();
        risks.dedup();
        risks
    }

    /// The risk words found in `label`, in `Risk::ALL`'s order.
    fn found(label: &str) -> impl Iterator<Item = (Risk, &'static str)> {
        let words: Vec<Word> = normalize(label).into_iter().map(Word::new).collect();
        let spelled = spelled_out(&words);
        risk_phrases()
            .iter()
            .filter(move |(_, _, parts)| {
                contains_phrase(&words, parts)
                    || spelled.iter().any(|run| run.contains_phrase(parts))
            })
            .map(|(risk, phrase, _)| (*risk, *phrase))
    }
}

/// Every risk word, with its words as `Word`s (their skeletons computed once).
fn risk_phrases() -> &'static [(Risk, &'static str, Vec<Word>)] {
    static PHRASES: std::sync::OnceLock<Vec<(Risk, &'static str, Vec<Word>)>> =
        std::sync::OnceLock::new();
    PHRASES.get_or_init(|| {
        Risk::ALL
            .into_iter()
            .flat_map(|risk| risk.words().iter().map(move |w| (risk, *w)))
            .map(|(risk, w)| {
                (
                    risk,
                    w,
                    w.split(' ').map(|p| Word::new(p.to_owned())).collect(),
                )
            })
            .collect()
    })
}

/// A normalized word and how it looks: its UTS #39 confusable skeleton, lower-cased.
struct Word {
    plain: String,
    look: String,
}

impl Word {
    fn new(plain: String) -> Word {
        let look = unicode_security::confusable_detection::skeleton(&plain)
            .flat_map(char::to_lowercase)
            .collect();
        Word { plain, look }
    }

    /// Whether this label word is the risk word `risk`. A word of plain ASCII letters is
    /// what it reads ("dose" is no "close", though the skeleton folds "d" into "cl"); any
    /// other (another script's letters, digits among letters) is compared by its look.
    fn is(&self, risk: &Word) -> bool {
        if self.plain.bytes().all(|b| b.is_ascii_lowercase()) {
            self.plain == risk.plain
        } else {
            self.look == risk.look
        }
    }

    fn contains_phrase(&self, parts: &[Word]) -> bool {
        let joined = |f: fn(&Word) -> &str| parts.iter().map(f).collect::<String>();
        if self.plain.bytes().all(|b| b.is_ascii_lowercase()) {
            self.plain.contains(&joined(|w| &w.plain))
        } else {
            self.look.contains(&joined(|w| &w.look))
        }
    }
}

/// Runs of three or more one-letter words joined: "D e l e t e" (letter-spaced, or
/// "D-e-l-e-t-e") is read as the word it spells.
fn spelled_out(words: &[Word]) -> Vec<Word> {
    words
        .chunk_by(|a, b| a.plain.chars().count() == 1 && b.plain.chars().count() == 1)
        .filter(|run| run.len() >= 3)
        .map(|run| Word::new(run.iter().map(|w| w.plain.as_str()).collect()))
        .collect()
}

impl fmt::Display for Risk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The words the gate reads in a label before it folds look-alikes: the shared
/// normalization (`crate::name`), split at its spaces.
pub fn label_words(label: &str) -> Vec<String> {
    crate::name::normalize_name(label)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Words as a person reads them, folded further than the grounding reads a name: combining
/// marks dropped (an accent or an overlaid stroke does not hide "Delete"), then the shared
/// normalization: "De\u{AD}l\u{336}ete-account!" → ["delete", "account"].
fn normalize(label: &str) -> Vec<String> {
    let unmarked: String = label.nfkd().filter(|&c| !is_combining_mark(c)).collect();
    label_words(&unmarked)
}

fn contains_phrase(words: &[Word], parts: &[Word]) -> bool {
    words
        .windows(parts.len())
        .any(|win| win.iter().zip(parts).all(|(a, b)| a.is(b)))
}

/// A refusal: which risk, and a reason naming the element and the word.
#[derive(Clone, Debug, PartialEq)]
pub struct RiskRefusal {
    pub risk: Risk,
    pub reason: String,
}

/// What the live page shows about what an action would press, beyond the snapshot's
/// accessible names; the backend reads it just before the gate (a backend that cannot
/// leaves it empty and the snapshot's names are all that is classified).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PressFacts {
    /// Every element the press reaches, as the page shows it: the target (or the focused
    /// element for Enter/Space), the control it sits in (a click on a button's icon
    /// bubbles to the button) and the control a label activates (`<label for>`, or the
    /// control a label wraps) — each with every name the page gives it.
    pub pressed: Vec<Pressable>,
    /// What Enter in a form field submits: the form's default button (its first submit
    /// button, as the HTML spec's implicit submission), or the form itself when it has none.
    pub submitter: Option<Pressable>,
}

impl PressFacts {
    /// Adds what a read further in found (the focus inside a shadow root or a frame):
    /// every element it reaches, and its submitter where none was found before.
    pub fn merge(&mut self, inner: PressFacts) {
        self.pressed.extend(inner.pressed);
        self.submitter = self.submitter.take().or(inner.submitter);
    }
}

/// An element the page would press, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pressable {
    /// How a person would point at it: tag, DOM id and text (`button#wipe "Delete account"`).
    pub element: String,
    /// Its accessible name (approximated in the page).
    #[serde(default)]
    pub name: String,
    /// Its visible text.
    #[serde(default)]
    pub text: String,
    /// Every other name the page gives it, which the accessible name's first source hides:
    /// its tooltip (`title`), `aria-label`, `aria-description`, `alt`, the SVG `<title>`s,
    /// alts and tooltips inside it, the labels pointing at it (an icon button whose text
    /// is "🗑" and whose tooltip says "Delete account").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

impl Pressable {
    /// Everything it is called: name, visible text and every other name.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        [self.name.as_str(), self.text.as_str()]
            .into_iter()
            .chain(self.also.iter().map(String::as_str))
    }

    /// The first risk one of its labels carries that `allowed` does not admit, with the
    /// word and how that label reads it (`button#tip called "Delete account"`): the one
    /// test every press the page reports goes through.
    pub fn risk(&self, allowed: impl Fn(Risk) -> bool) -> Option<(Risk, &'static str, String)> {
        self.labels().find_map(|label| {
            let (risk, word) = Risk::classify(label)?;
            (!allowed(risk)).then(|| {
                (
                    risk,
                    word,
                    format!("{} called {}", self.element, quote(label)),
                )
            })
        })
    }
}

/// Refuses an action that would trigger a risk the subtask did not allow: an action that
/// presses an element (`pressed_targets`: a click of any button, a value set, a drop, a
/// drag that may end where it began, a text selection inside a control) or Enter/Space
/// (also in a chord) on the focused one, when its name, visible text or any other name
/// carries a risk word — or its press reaches a control that does (the button an icon
/// sits in, the control a label activates); Enter in a form field (pressed on the focus, or
/// after typing into the field) whose form's submitter carries one; or selecting an option whose literal is one. The one gate: the loop calls
/// it once per action, before anything is pressed.
pub fn check(
    action: &crate::ExecutableAction,
    snapshot: &crate::Snapshot,
    subtask: &crate::Subtask,
    facts: &PressFacts,
) -> Result<(), RiskRefusal> {
    let named: Vec<&crate::Element> = if presses_focused(action) {
        snapshot.focused().into_iter().collect()
    } else {
        pressed_targets(action, snapshot)
            .into_iter()
            .filter(|t| t.own)
            .filter_map(|t| snapshot.element(t.id.as_str()))
            .collect()
    };
    let refused = |label: &str, what: String| {
        refuse(label, subtask, |risk, word| {
            format!(
                "refused {} on {what}: the word {word:?} marks a '{risk}' risk, which allowed_risks does not include",
                action.kind()
            )
        })
    };
    for el in named {
        if let Some(r) = refused(&el.name, format!("{} {}", el.id, quote(&el.name))) {
            return Err(r);
        }
    }
    let mut pressed: Vec<(&Pressable, &str)> = facts.pressed.iter().map(|p| (p, "")).collect();
    if let Some(submitter) = facts.submitter.as_ref().filter(|_| presses_enter(action)) {
        pressed.push((submitter, "the form's submitter "));
    }
    for (p, role) in pressed {
        if let Some((risk, word, what)) = p.risk(|r| subtask.allows(r)) {
            return Err(RiskRefusal {
                risk,
                reason: format!(
                    "refused {} on {role}{what}: the word {word:?} marks a '{risk}' risk, which allowed_risks does not include",
                    action.kind(),
                ),
            });
        }
    }
    if let crate::Action::SelectOption { input_key, .. } = &action.action {
        let literal = action.text().into_owned();
        let what = if subtask.is_secret(input_key) {
            "a secret option".to_owned()
        } else {
            format!("option {}", quote(&literal))
        };
        if let Some(r) = refused(&literal, what) {
            return Err(r);
        }
    }
    Ok(())
}

/// An element an action puts a pointer button down on or drops onto, which the gate
/// classifies; `own` is false when the element itself is not what is pressed, only the
/// control it sits in (the text SELECT_TEXT drags across inside a clickable card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PressedTarget<'a> {
    pub id: &'a crate::ElementId,
    pub own: bool,
}

/// The elements `action` presses, the one rule the gate and the backends' live reads
/// share: a click's, double or right click's target (a right click fires mousedown, which
/// a page may act on), a value's field, a drop's destination, a drag's source when the
/// drag may end on it (a release over the element its press began on is a click: a zero
/// drag), the control a text selection starts inside, a field typed into and then
/// submitted with Enter. Enter/Space press the focus (`presses_focused`).
pub fn pressed_targets<'a>(
    action: &'a crate::ExecutableAction,
    snapshot: &crate::Snapshot,
) -> Vec<PressedTarget<'a>> {
    use crate::action::Action;
    use crate::key::SubmitKey;
    let own = |id| PressedTarget { id, own: true };
    let bounds = |id: &crate::ElementId| snapshot.element(id.as_str()).and_then(|e| e.bounds);
    match &action.action {
        Action::Click { target, .. }
        | Action::DoubleClick { target }
        | Action::RightClick { target }
        | Action::SetValue { target, .. }
        | Action::TypeText {
            target,
            submit: Some(SubmitKey::Enter),
            ..
        } => vec![own(target)],
        Action::SelectText { target } => vec![PressedTarget {
            id: target,
            own: false,
        }],
        Action::DragBy { target, dx, dy } => {
            let ends_on_source =
                bounds(target).is_none_or(|b| dx.abs() < b.width && dy.abs() < b.height);
            ends_on_source.then(|| own(target)).into_iter().collect()
        }
        Action::DragTo {
            target,
            destination,
        } => {
            let ends_on_source = match (bounds(target), bounds(destination)) {
                (Some(a), Some(b)) => {
                    a.x < b.x + b.width
                        && b.x < a.x + a.width
                        && a.y < b.y + b.height
                        && b.y < a.y + a.height
                }
                _ => true,
            };
            let mut out = vec![own(destination)];
            if ends_on_source {
                out.push(own(target));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Whether the action presses whatever has focus: Enter or Space, alone or in a chord.
pub fn presses_focused(action: &crate::ExecutableAction) -> bool {
    use crate::action::Action;
    use crate::key::Key;
    let key = match &action.action {
        Action::PressKey { key } => *key,
        Action::Hotkey { chord } => chord.key,
        _ => return false,
    };
    matches!(key, Key::Enter | Key::Space)
}

/// Whether the action presses Enter, which submits the form of the field it is pressed in:
/// on the focus (alone or in a chord), or on its target right after typing into it.
pub fn presses_enter(action: &crate::ExecutableAction) -> bool {
    use crate::action::Action;
    use crate::key::{Key, SubmitKey};
    match &action.action {
        Action::PressKey { key } => *key == Key::Enter,
        Action::Hotkey { chord } => chord.key == Key::Enter,
        Action::TypeText { submit, .. } => *submit == Some(SubmitKey::Enter),
        _ => false,
    }
}

/// A press that landed on another element than its target, when that element carries a
/// risk the subtask did not allow: the run must stop and say so.
pub fn landed_on_risk(landed: &LandedElsewhere, subtask: &crate::Subtask) -> Option<RiskRefusal> {
    let el = &landed.element;
    let (risk, word, what) = el.risk(|r| subtask.allows(r))?;
    Some(RiskRefusal {
        risk,
        reason: format!(
            "the press meant for {} landed on {what} instead: the word {word:?} marks a '{risk}' risk, which allowed_risks does not include",
            landed.intended
        ),
    })
}

fn refuse(
    label: &str,
    subtask: &crate::Subtask,
    reason: impl FnOnce(Risk, &str) -> String,
) -> Option<RiskRefusal> {
    let (risk, word) = Risk::classify(label)?;
    (!subtask.allows(risk)).then(|| RiskRefusal {
        risk,
        reason: reason(risk, word),
    })
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
    // Invisible or look-alike characters inside the word do not hide it.
    #[case("De\u{AD}lete account", Some(Risk::Delete))]
    #[case("Del\u{200B}ete", Some(Risk::Delete))]
    #[case("D\u{200D}e\u{200C}l\u{2060}e\u{FEFF}te", Some(Risk::Delete))]
    #[case("\u{202E}Delete\u{202C}", Some(Risk::Delete))]
    #[case("\u{FF24}\u{FF25}\u{FF2C}\u{FF25}\u{FF34}\u{FF25}", Some(Risk::Delete))]
    #[case("De\u{301}lete", Some(Risk::Delete))]
    #[case("P\u{00E1}y now", Some(Risk::Purchase))]
    #[case("\u{1D5E6}\u{1D5F2}\u{1D5FB}\u{1D5F1}", Some(Risk::Send))]
    #[case("DELETE", Some(Risk::Delete))]
    #[case("Sub\u{AD}scribe", None)]
    // Look-alike letters of another script, digits for letters, letter-spacing.
    #[case("D\u{435}lete account", Some(Risk::Delete))]
    #[case("\u{420}ay now", Some(Risk::Purchase))]
    #[case("\u{421}lose", Some(Risk::Close))]
    #[case("De1ete", Some(Risk::Delete))]
    #[case("D e l e t e account", Some(Risk::Delete))]
    #[case("S-e-n-d", Some(Risk::Send))]
    #[case("P l a c e  o r d e r", Some(Risk::Purchase))]
    #[case("x D E L E T E", Some(Risk::Delete))]
    // Plain words the skeleton would fold together stay what they read.
    #[case("Change dose", None)]
    #[case("Modern", None)]
    #[case("a b c", None)]
    #[case("Step 1 of 3", None)]
    fn labels_classify(#[case] label: &str, #[case] risk: Option<Risk>) {
        assert_eq!(Risk::classify(label).map(|(r, _)| r), risk, "{label:?}");
    }

    // Every risk a label carries; signing out is closing; a word inside another is none.
    #[rstest]
    #[case("Sign out", &[Risk::Close])]
    #[case("Log out", &[Risk::Close])]
    #[case("Logout", &[Risk::Close])]
    #[case("Delete and send", &[Risk::Delete, Risk::Send])]
    #[case("Closed tickets", &[])]
    #[case("Shared with me", &[])]
    #[case("Sign in", &[])]
    #[case("", &[])]
    fn labels_carry_every_risk(#[case] label: &str, #[case] risks: &[Risk]) {
        assert_eq!(Risk::all_in(label), risks, "{label:?}");
    }
}
