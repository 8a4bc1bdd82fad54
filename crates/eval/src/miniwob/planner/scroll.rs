//! `Scroll to the bottom of the textarea`, `Scroll the textarea to the top`: a scroll to
//! one end of an element, a step the runtime carries out and checks itself (the element
//! reports how far it is scrolled), so the clause is read. It ends at punctuation, "and",
//! "then", or a click verb that runs on ("… of the text hit submit").

use super::utterance_tokens::Tok;
use super::words::is_click_verb;
use super::Reading;

pub fn to_an_end(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        if !toks[i].is_word("scroll") {
            continue;
        }
        let mut end = i + 1;
        let mut names_end = false;
        while let Some(Tok::Word(w)) = toks.get(end) {
            let w = w.to_lowercase();
            if matches!(w.as_str(), "and" | "then") || is_click_verb(&w) {
                break;
            }
            names_end |= matches!(w.as_str(), "bottom" | "top");
            end += 1;
        }
        if names_end {
            r.cover(i, end);
        }
    }
}
