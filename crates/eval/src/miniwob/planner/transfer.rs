//! `Copy the text in X, paste it into Y`: a transfer through the clipboard, pure UI
//! mechanics the runtime carries out and checks itself (Y holds what X holds once pasted),
//! so the two clauses are read — no literal, since the text is on the page, not in the
//! utterance. A copy with no paste, or a paste with no copy, states no outcome: unread.

use super::utterance_tokens::Tok;
use super::words::phrase;
use super::Reading;
use arc_core::Check;

const CLAUSE_END: &[&str] = &["and", "then"];

/// The clause of `verb` at or after `from`: (start, end), if its words name a place
/// (a preposition followed by at least one word).
fn clause(toks: &[Tok], from: usize, verb: &str, places: &[&str]) -> Option<(usize, usize)> {
    let at = (from..toks.len()).find(|&i| toks[i].is_word(verb))?;
    let (words, end) = phrase(toks, at + 1, CLAUSE_END);
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let prep = lower.iter().position(|w| places.contains(&w.as_str()))?;
    (prep + 1 < lower.len()).then_some((at, end))
}

pub fn copy_paste(toks: &[Tok], r: &mut Reading) {
    let Some((copy_at, copy_end)) = clause(toks, 0, "copy", &["in", "from", "of", "inside"]) else {
        return;
    };
    let Some((paste_at, paste_end)) = clause(toks, copy_end, "paste", &["into", "in", "to"]) else {
        return;
    };
    r.cover(copy_at, copy_end);
    r.cover(paste_at, paste_end);
}

/// `Enter the value of K into Y`: the literal is what the page shows for K, so there is
/// no input; the runtime carries it over (through the clipboard) and checks that Y holds
/// exactly it — the criterion `Y contains the value of "K"`.
pub fn value_of(toks: &[Tok], r: &mut Reading) {
    const VERBS: &[&str] = &["enter", "type", "put", "write", "copy"];
    for at in 0..toks.len() {
        if !toks[at].word().is_some_and(|w| VERBS.contains(&w.as_str())) {
            continue;
        }
        let (words, end) = phrase(toks, at + 1, CLAUSE_END);
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        if lower.len() < 5 || lower[..3] != ["the", "value", "of"] {
            continue;
        }
        let Some(into) = lower.iter().rposition(|w| w == "into") else {
            continue;
        };
        let (key, target) = (&words[3..into], &words[into + 1..]);
        if key.is_empty() || target.is_empty() {
            continue;
        }
        r.cover(at, end);
        r.check(Check::FieldValue {
            field: target.join(" "),
            equals: None,
            contains: None,
            shown_for: Some(key.join(" ")),
        });
    }
}

/// `Enter the value that corresponds with each label into the form`: every field's literal
/// is what the page shows for that field's own label — no input; the criterion says each
/// labelled field holds it. A trailing `and submit [when done]` is the form's commit.
pub fn value_per_label(toks: &[Tok], r: &mut Reading) {
    const VERBS: &[&str] = &["enter", "type", "put", "write", "fill"];
    for at in 0..toks.len() {
        if !toks[at].word().is_some_and(|w| VERBS.contains(&w.as_str())) {
            continue;
        }
        let (words, end) = phrase(toks, at + 1, CLAUSE_END);
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let valued = lower.iter().any(|w| w == "value" || w == "values");
        let each = lower.windows(2).any(|p| {
            matches!(p[0].as_str(), "each" | "every" | "all")
                && matches!(p[1].as_str(), "label" | "labels")
        });
        if !(valued && each) {
            continue;
        }
        r.cover(at, end);
        r.check(Check::ValuesByLabel {});
        // "… and submit when done": the commit.
        let (next, after) = phrase(toks, end + 1, &[]);
        let submits = toks.get(end).is_some_and(|t| t.is_word("and"))
            && next
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("submit"))
            && next[1..]
                .iter()
                .all(|w| matches!(w.to_lowercase().as_str(), "when" | "done" | "finished"));
        if submits {
            r.cover(end, after);
            r.criterion("the form has been submitted".to_owned());
        }
    }
}
