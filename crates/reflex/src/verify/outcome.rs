//! Outcome statements: a sentence the grammar does not read, said in a few words
//! ("Message sent", "The preferences are saved"), held on a message that appeared.

use super::super::text::is_stopword;
use super::super::tokens::Tok;
use super::super::vocab::is_pointing;
use super::around::is_filler;
use super::{word, Check, Criterion};

/// Most content words an outcome statement may have: a longer sentence describes more
/// than a confirmation message says.
const OUTCOME_WORDS: usize = 5;

/// A sentence the grammar does not read, as an outcome statement: its content words
/// (auxiliaries, articles, page words and words of showing left out: "Thanks message
/// displayed" is said by "Thanks, Alan!"), when there are few enough.
pub(super) fn outcome(toks: &[Tok]) -> Check {
    let words: Vec<&str> = toks
        .iter()
        .filter_map(word)
        .filter(|w| !is_stopword(w) && !is_filler(w) && !is_pointing(w))
        .collect();
    if words.is_empty()
        || words.len() > OUTCOME_WORDS
        || words.iter().any(|w| super::super::affirm::is_negator(w))
    {
        return Check::Unreadable;
    }
    let stems = super::super::stem::content_stems(&words.join(" "));
    if stems.is_empty() {
        return Check::Unreadable;
    }
    // One word is matched as written: "Signed in" is not said by a "Sign in" button.
    let said = if stems.len() == 1 {
        Check::Confirmed(vec![words.join(" ")], Default::default())
    } else {
        Check::Confirmed(stems, Default::default())
    };
    // What its verb says happened may show where no message repeats the words.
    match super::happened::read(toks) {
        Some(h) => Check::Either(Box::new(said), Box::new(Check::Happened(Box::new(h)))),
        None => said,
    }
}

/// Whether a normalized text says an outcome: its one word as written, or every stem.
pub fn says_outcome(name: &str, said: &[String]) -> bool {
    match said {
        [one] => super::super::text::contains_phrase(name, one),
        _ => super::super::stem::has_all(name, said),
    }
}

/// Marks, in each outcome check, the elements of the run's first snapshot that already
/// said it: an outcome is a message that appears, not one that was there.
pub fn note_start(criteria: &mut [Criterion], f: &super::super::facts::Facts) {
    for c in criteria {
        note(&mut c.check, f);
    }
}

/// Marks, in each outcome check, what already shows its subject on the snapshot a commit
/// is decided on.
pub fn note_commit(criteria: &mut [Criterion], f: &super::super::facts::Facts) {
    each_happened(criteria, &mut |h| h.note_commit(f));
}

/// Marks, in each outcome check, what every snapshot the run decides on shows (the
/// password fields a sign-in fills, which leave with the form).
pub fn note_step(criteria: &mut [Criterion], f: &super::super::facts::Facts) {
    each_happened(criteria, &mut |h| h.note_step(f));
}

fn each_happened(criteria: &mut [Criterion], act: &mut dyn FnMut(&mut super::happened::Happened)) {
    fn walk(check: &mut Check, act: &mut dyn FnMut(&mut super::happened::Happened)) {
        match check {
            Check::Happened(h) => act(h),
            Check::Either(a, b) => {
                walk(a, act);
                walk(b, act);
            }
            _ => {}
        }
    }
    for c in criteria {
        walk(&mut c.check, act);
    }
}

fn note(check: &mut Check, f: &super::super::facts::Facts) {
    match check {
        Check::Confirmed(stems, stale) => {
            for i in 0..f.len() {
                let sentence = || {
                    f.sentence(i).is_some_and(|s| {
                        says_outcome(&super::super::text::normalize_name(&s), stems)
                    })
                };
                if says_outcome(f.name(i), stems) || sentence() {
                    stale.insert(f.els[i].id.clone());
                }
            }
        }
        Check::Happened(h) => h.note_start(f),
        Check::Either(a, b) => {
            note(a, f);
            note(b, f);
        }
        _ => {}
    }
}
