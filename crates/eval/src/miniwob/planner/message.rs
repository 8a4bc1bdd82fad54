//! `Find the email by X and reply to them with the text "Q"`, `… and forward that email to
//! Y`: a message answered or passed on. What is written is a literal, so it goes in as an
//! input — a reply's words under `text` (as the utterance calls them), a forward's
//! recipient under `to` — and the outcome is a submission, which the runtime confirms from
//! its own records (its send after the fill). The item phrase before the verb names the
//! message to open.

use super::utterance_tokens::Tok;
use super::Reading;

pub fn responses(toks: &[Tok], r: &mut Reading) {
    for at in 0..toks.len() {
        let Some(verb) = toks[at].word() else {
            continue;
        };
        let end_of_sentence = (at..toks.len())
            .find(|&k| matches!(toks[k], Tok::Punct('.' | '!' | '?' | ';')))
            .unwrap_or(toks.len());
        let (key, value, end) = match verb.as_str() {
            // "reply to them with the text "Q"": the clause's quote.
            "reply" | "respond" => {
                let Some(q) = (at + 1..toks.len()).find(|&k| matches!(toks[k], Tok::Quote(_)))
                else {
                    continue;
                };
                let Some(text) = toks[q].quote() else {
                    continue;
                };
                ("text", text.to_owned(), (q + 1).max(end_of_sentence))
            }
            // "forward that email to Y": the name after the clause's last "to".
            "forward" => {
                let Some(to) = (at + 1..end_of_sentence)
                    .rev()
                    .find(|&k| toks[k].is_word("to"))
                else {
                    continue;
                };
                let Some(name) = toks.get(to + 1).and_then(|t| t.literal()) else {
                    continue;
                };
                ("to", name.to_owned(), end_of_sentence)
            }
            _ => continue,
        };
        r.input(key, &value);
        r.cover(at, end);
        r.criterion("the form has been submitted".to_owned());
        // The item phrase that leads to it: "Find the email by X and".
        if let Some(from) = (0..at).find(|&k| toks[k].is_word("find") || toks[k].is_word("locate"))
        {
            r.cover(from, at);
        }
    }
}
