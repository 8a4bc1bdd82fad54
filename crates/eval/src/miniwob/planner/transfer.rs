//! `Copy the text in X, paste it into Y`: a transfer through the clipboard, pure UI
//! mechanics the runtime carries out and checks itself (Y holds what X holds once pasted),
//! so the two clauses are read — no literal, since the text is on the page, not in the
//! utterance. A copy with no paste, or a paste with no copy, states no outcome: unread.

use super::utterance_tokens::Tok;
use super::words::phrase;
use super::Reading;

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
