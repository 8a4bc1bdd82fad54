//! "Highlight the text in the 2nd paragraph": select, with the mouse, all the text of the
//! passage the object names (SELECT_TEXT). The backend reads the page's selection back
//! after its drag and fails the action on anything else, so the run's own successful
//! SELECT_TEXT on the passage is the page's word that it is highlighted — the step's
//! "done" and the criterion "… is highlighted" both rest on it.
//!
//! The passage is named by its role and position ("the 2nd paragraph"), by a quote of its
//! words, or by its words. A page often sets prose in a plain block rather than a `<p>`:
//! with no paragraph on the page, "paragraph" names its blocks of text.

use super::facts::Facts;
use super::ground::{among, ground, ground_role, Grounding, QUOTED_THRESHOLD};
use super::inputs::describe;
use super::ordinal::Nth;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::{is_stopword, Query};
use super::vocab::strip_role_words;
use arc_core::{Action, ActionKind, ActionRecord, Role};

/// Words of an object that say what is marked or where it sits, not which passage.
fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "text"
            | "passage"
            | "words"
            | "content"
            | "contents"
            | "below"
            | "above"
            | "here"
            | "about"
    )
}

/// The element whose text the object names (see the module doc), or why none is.
pub fn passage(f: &Facts, object: &str, quoted: Option<&str>) -> Result<usize, String> {
    let eligible = |i: usize| f.offers(i, ActionKind::SelectText);
    let grounding = if let Some(q) = quoted {
        ground(f, &[Query::new(q)], &[], QUOTED_THRESHOLD, eligible)
    } else {
        let words: Vec<&str> = object.split(' ').filter(|w| !w.is_empty()).collect();
        let (rest, roles) = strip_role_words(&words);
        let core: Vec<&str> = rest
            .iter()
            .map(String::as_str)
            .filter(|w| !is_stopword(w) && !is_filler(w))
            .collect();
        let (nth, others) = Nth::split(&core);
        if others.is_empty() {
            let roles = if roles.is_empty() {
                vec![Role::Paragraph]
            } else {
                roles
            };
            match ground_role(f, &roles, nth, eligible) {
                Grounding::Missing { .. } if roles == [Role::Paragraph] => {
                    ground_role(f, &[Role::StaticText], nth, eligible)
                }
                g => g,
            }
        } else {
            // A passage is long and named by a few of its words: every one must be in it.
            let holds_all = |i: usize| {
                let shown: Vec<&str> = f.name(i).split(' ').collect();
                others.iter().all(|w| shown.contains(w))
            };
            let found: Vec<usize> = (0..f.len())
                .filter(|&i| eligible(i) && holds_all(i))
                .filter(|&i| roles.is_empty() || roles.contains(&f.els[i].role))
                .collect();
            among(&found, nth, 1.0)
        }
    };
    match grounding {
        Grounding::Found { idx, .. } => Ok(idx),
        Grounding::Tie { a, b, .. } => Err(format!(
            "two passages match {object:?} equally: {}, {}",
            describe(f, a),
            describe(f, b)
        )),
        Grounding::Missing { .. } => Err(format!("no passage of text matches {object:?}")),
    }
}

/// Whether the run selected element `i`'s text (its SELECT_TEXT on it succeeded).
fn selected(f: &Facts, h: &[ActionRecord], i: usize) -> bool {
    h.iter().any(
        |r| matches!(&r.action.action, Action::SelectText { target } if *target == f.els[i].id),
    )
}

/// The step: select the passage's text, once.
pub fn status(f: &Facts, h: &[ActionRecord], object: &str, quoted: Option<&str>) -> Status {
    match passage(f, object, quoted) {
        Ok(i) if selected(f, h, i) => Status::Done,
        Ok(i) => Status::Pending(Act {
            action: Action::SelectText {
                target: f.els[i].id.clone(),
            },
            kind: StepKind::Highlight,
            confidence: 1.0,
            margin: 1.0,
            why: format!("highlight {object:?} → {}", describe(f, i)),
            order: i,
        }),
        Err(why) => Status::Stop(Outcome::NeedsAgent(why)),
    }
}

/// The criterion "the text in X is highlighted": the run selected X's text.
pub fn highlighted(
    f: &Facts,
    h: &[ActionRecord],
    object: &str,
    quoted: Option<&str>,
) -> Result<(), String> {
    let i = passage(f, object, quoted)?;
    if selected(f, h, i) {
        Ok(())
    } else {
        Err(format!("{} is not highlighted yet", describe(f, i)))
    }
}
