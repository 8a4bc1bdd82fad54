//! `Highlight the text in X`: a passage to select with the mouse. The outcome is
//! checkable by the runtime (its selection of X's text, read back from the page), so the
//! clause becomes the criterion "the text in X is highlighted" — X as said, a quote kept.

use super::utterance_tokens::Tok;
use super::words::phrase;
use super::Reading;

const CLAUSE_END: &[&str] = &["and", "then"];

pub fn passages(toks: &[Tok], r: &mut Reading) {
    let mut from = 0;
    while let Some(at) = (from..toks.len()).find(|&i| toks[i].is_word("highlight")) {
        let (words, mut end) = phrase(toks, at + 1, CLAUSE_END);
        // `highlight "the quick brown fox"`: the quote names the passage.
        let quote = match toks.get(end) {
            Some(Tok::Quote(q)) => {
                end += 1;
                Some(q.clone())
            }
            _ => None,
        };
        from = end.max(at + 1);
        let said = words.join(" ");
        let object = match (&quote, said.is_empty()) {
            (Some(q), true) => format!("{q:?}"),
            (Some(q), false) => format!("{said} {q:?}"),
            (None, false) => said,
            (None, true) => continue,
        };
        r.cover(at, end);
        r.criterion(format!("{object} is highlighted"));
    }
}
