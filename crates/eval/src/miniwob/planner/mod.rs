//! The deterministic MiniWoB++ planner: utterance in, Subtask out.
//!
//! It reads only the utterance — what a person would be told — never the page, its DOM,
//! its answer or the task's name. Templates are about wording, not tasks:
//! `Enter the <label> "<v>"` names a field; `Enter "<v>" into the <target>` fills the
//! target; `Select A, B and click Submit` names choices; `Click on the "X" button` names a
//! target. What the utterance implies can be checked becomes a verification criterion;
//! where it states nothing checkable, the criterion says so in words the runtime cannot
//! read, so it can only answer NEEDS_AGENT (never a SUBTASK_COMPLETE it cannot back).
//!
//! The goal is the utterance verbatim: the runtime's policy reads its verbs itself.

mod choose;
mod fields;
mod fill;
mod highlight;
mod item;
mod message;
mod scroll;
mod transfer;
mod utterance_tokens;
mod words;

use super::utterance::Utterance;
use arc_core::{Check, Criterion};
use arc_core::{ContractError, Risk, Scalar, Subtask};
use std::collections::BTreeSet;
use utterance_tokens::{lex, Tok};

/// One literal the utterance names for a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub key: String,
    pub value: String,
    pub secret: bool,
}

/// What the planner read from an utterance.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    pub inputs: Vec<Field>,
    pub criteria: Vec<String>,
    /// What the planner states as a typed check rather than a sentence: a click inside
    /// the items showing a word, every field holding its label's shown value.
    pub checks: Vec<Check>,
    /// The last click read from the utterance, and the criterion it got.
    last_click: Option<(choose::Target, String)>,
    pub risks: BTreeSet<Risk>,
    /// Clicks the utterance asks for.
    pub clicks: usize,
    /// Words no template accounted for: a request whose outcome no criterion checks.
    pub unread: Vec<String>,
    /// Token ranges the templates read.
    covered: Vec<(usize, usize)>,
    /// Token ranges that only say where a search looks: no state criterion of their own.
    means: Vec<(usize, usize)>,
}

impl Reading {
    fn input(&mut self, key: &str, value: &str) {
        let key = key.trim().to_lowercase().replace(' ', "_");
        if key.is_empty() || self.inputs.iter().any(|f| f.key == key) {
            return;
        }
        self.inputs.push(Field {
            secret: words::is_secret_label(&key),
            key,
            value: value.to_owned(),
        });
    }

    /// Treats the input under `key` as a secret (a value the utterance labelled so).
    fn mark_secret(&mut self, key: &str) {
        let key = key.trim().to_lowercase().replace(' ', "_");
        for f in self.inputs.iter_mut().filter(|f| f.key == key) {
            f.secret = true;
        }
    }

    /// Whether a template read token `i`.
    fn covers(&self, i: usize) -> bool {
        self.covered.iter().any(|&(a, b)| (a..b).contains(&i))
    }

    /// Marks tokens `from..to` as read by a template.
    fn cover(&mut self, from: usize, to: usize) {
        self.covered.push((from, to));
    }

    fn criterion(&mut self, c: String) {
        if !self.criteria.contains(&c) {
            self.criteria.push(c);
        }
    }

    fn check(&mut self, c: Check) {
        if !self.checks.contains(&c) {
            self.checks.push(c);
        }
    }
}

/// Reads an utterance (all templates; each adds what its wording names).
pub fn read(u: &Utterance) -> Reading {
    let toks = lex(&u.text);
    let mut r = Reading::default();
    fill::labelled_values(&toks, &mut r);
    fill::value_into_target(&toks, &mut r);
    fill::value_as_target(&toks, &mut r);
    fill::search_for(&toks, &mut r);
    fill::constrained_item(&toks, &mut r);
    fill::values_per_control(&toks, &mut r);
    choose::selections(&toks, &mut r);
    choose::clicks(&toks, &mut r);
    choose::ordinal_results(&toks, &mut r);
    item::named(&toks, &mut r);
    item::spread(&toks, &mut r);
    choose::searches(&toks, &mut r);
    choose::states(&toks, &mut r);
    transfer::copy_paste(&toks, &mut r);
    transfer::value_of(&toks, &mut r);
    transfer::value_per_label(&toks, &mut r);
    highlight::passages(&toks, &mut r);
    message::responses(&toks, &mut r);
    scroll::to_an_end(&toks, &mut r);
    if r.clicks == 0
        && (!r.inputs.is_empty() || r.criteria.iter().any(|c| c.ends_with(" is checked")))
    {
        // A MiniWoB++ form counts only once submitted: a form the utterance fills without
        // naming its button still ends with one (the runtime finds it; none → it hands back).
        r.criterion("the form has been submitted".to_owned());
    }
    r.risks = risks(&toks);
    r.unread = unread(&toks, &r.covered);
    if (r.criteria.is_empty() && r.checks.is_empty()) || !r.unread.is_empty() {
        // Part of the request has no checkable outcome: a criterion no policy can confirm
        // from the page, so the run can end in NEEDS_AGENT but never claim completion.
        // Secret literals stay out of the criterion, as out of everything the run reports.
        let secrets = r.inputs.iter().filter(|f| f.secret).map(|f| &f.value);
        let said = arc_core::Redactor::new(secrets)
            .redact(&u.text)
            .into_owned();
        r.criteria
            .push(format!("the instruction {said:?} has been carried out"));
    }
    r
}

/// The words outside every covered range, fillers and punctuation aside.
fn unread(toks: &[Tok], covered: &[(usize, usize)]) -> Vec<String> {
    toks.iter()
        .enumerate()
        .filter(|(i, _)| !covered.iter().any(|&(a, b)| (a..b).contains(i)))
        .filter_map(|(_, t)| t.literal())
        .filter(|w| !words::is_filler(&w.to_lowercase()))
        .map(str::to_owned)
        .collect()
}

/// The Subtask for an utterance: from its fields when they state the request, else from
/// its words (the goal then is the utterance verbatim).
pub fn plan(u: &Utterance) -> Result<Subtask, ContractError> {
    let (goal, r) = fields::statement(&u.fields).unwrap_or_else(|| (u.text.clone(), read(u)));
    let mut s = Subtask::new(goal, String::new());
    s.verification = r.criteria.into_iter().map(Criterion::Text).collect();
    s.verification
        .extend(r.checks.into_iter().map(Criterion::Check));
    for f in r.inputs {
        if f.secret {
            s.secret_inputs.insert(f.key.clone());
        }
        s.inputs.insert(f.key, Scalar::Text(f.value));
    }
    s.allowed_risks = r.risks;
    s.validate()?;
    Ok(s)
}

/// A risk is allowed when the utterance itself asks for it in one of the risk's words
/// ("Close the dialog", "delete it", "reply to them").
fn risks(toks: &[Tok]) -> BTreeSet<Risk> {
    let mut said: Vec<String> = toks.iter().filter_map(Tok::word).collect();
    // `Click the "Reply" button`: a control the utterance names for a press is a press
    // it asks for, risk and all (a quoted literal to type is not).
    for i in 0..toks.len() {
        if toks[i].word().is_some_and(|w| words::is_click_verb(&w)) {
            if let Some((choose::Target { name: Some(n), .. }, _)) =
                choose::click_target(toks, i + 1)
            {
                said.extend(n.split_whitespace().map(str::to_lowercase));
            }
        }
    }
    // `the button labeled "x"`: a close control, named by its glyph.
    let glyph = toks
        .iter()
        .filter_map(Tok::quote)
        .any(|q| matches!(q.trim(), "x" | "X" | "×" | "✕"));
    Risk::ALL
        .into_iter()
        .filter(|risk| {
            (glyph && *risk == Risk::Close)
                || risk.words().iter().any(|phrase| {
                    let parts: Vec<&str> = phrase.split(' ').collect();
                    said.windows(parts.len())
                        .any(|w| w.iter().zip(&parts).all(|(a, b)| a == b))
                })
        })
        .collect()
}

#[cfg(test)]
mod tests;
