//! What surrounds a criterion's relation: a negation before it ("no longer appears"),
//! and what follows it (nothing that matters, a state, a scope, or words this reader does
//! not know, which make the sentence unreadable rather than half read).

use super::super::text::is_stopword;
use super::super::tokens::Tok;
use super::super::vocab::is_page_word;
use super::{plain, state_word, subject, word, State, Subject};

/// A negation right before the relation at `at` ("no longer appears", "does not show",
/// "never appears"): how many tokens it takes.
pub(super) fn negation(toks: &[Tok], at: usize) -> Option<usize> {
    let w = |k: usize| toks.get(k).and_then(word);
    let two = at >= 2
        && matches!(
            (w(at - 2), w(at - 1)),
            (Some("no"), Some("longer"))
                | (
                    Some("does" | "do" | "did" | "doesn" | "don" | "didn"),
                    Some("not" | "t")
                )
        );
    if two {
        return Some(2);
    }
    (at >= 1 && matches!(w(at - 1), Some("not" | "never"))).then_some(1)
}

/// What a negated presence says is gone: a quote, or words naming content. "No error
/// appears" names a kind of message whose words are unknown, so it is not read: the page
/// may well show "Invalid password".
pub(super) fn absent(subj: &[Tok]) -> Option<String> {
    let words: Vec<&str> = subj.iter().filter_map(word).collect();
    let quoted = subj.iter().any(|t| matches!(t, Tok::Quote(_)));
    let kind_only = words.iter().all(|w| {
        is_stopword(w)
            || matches!(
                *w,
                "no" | "any"
                    | "error"
                    | "errors"
                    | "message"
                    | "messages"
                    | "warning"
                    | "warnings"
                    | "alert"
                    | "alerts"
                    | "notice"
                    | "banner"
                    | "popup"
                    | "dialog"
                    | "problem"
                    | "problems"
                    | "validation"
            )
    });
    if !quoted && kind_only {
        return None;
    }
    plain(subj)
}

/// What follows a presence, absence, click or state phrase.
pub(super) enum Tail {
    /// Nothing that changes its meaning ("… on the page now").
    Plain,
    /// "… as completed", "… marked done".
    State(State, bool),
    /// "… in the list", "… in the Done column".
    Within(Subject),
    /// Words this reader does not know: the criterion is not read at all rather than read
    /// by half ("X appears with a strike-through" is not "X appears").
    Unknown,
}

/// Words after a phrase that do not change what it says.
pub(super) fn is_filler(w: &str) -> bool {
    is_page_word(w)
        || matches!(
            w,
            "on" | "the"
                | "a"
                | "an"
                | "this"
                | "now"
                | "again"
                | "here"
                | "immediately"
                | "successfully"
                | "currently"
                | "afterwards"
                | "to"
                | "for"
                | "user"
                | "visitor"
                | "onscreen"
        )
}

pub(super) fn tail(rest: &[Tok]) -> Tail {
    if rest.iter().any(|t| matches!(t, Tok::Quote(_))) {
        return Tail::Unknown;
    }
    let words: Vec<&str> = rest.iter().filter_map(word).collect();
    let content: Vec<&str> = words.iter().copied().filter(|w| !is_filler(w)).collect();
    match content.as_slice() {
        [] => Tail::Plain,
        ["as" | "marked", w] | ["as", "being", w] | ["marked", "as", w] => {
            state_word(w).map_or(Tail::Unknown, |(s, want)| Tail::State(s, want))
        }
        ["in" | "inside" | "within" | "under" | "among", ..] => {
            let at = words
                .iter()
                .position(|w| matches!(*w, "in" | "inside" | "within" | "under" | "among"))
                .unwrap_or(0);
            // The scope is a noun phrase: a clause joined on ("… and three rows
            // remain") is more than this reads.
            if words[at + 1..].iter().any(|w| {
                matches!(
                    *w,
                    "and"
                        | "but"
                        | "while"
                        | "where"
                        | "which"
                        | "that"
                        | "with"
                        | "is"
                        | "are"
                        | "remain"
                        | "remains"
                        | "shows"
                        | "show"
                        | "has"
                        | "have"
                )
            }) {
                return Tail::Unknown;
            }
            let scope: Vec<Tok> = words[at + 1..]
                .iter()
                .map(|w| Tok::Word((*w).to_owned()))
                .collect();
            let all_page = words[at + 1..].iter().all(|w| is_filler(w));
            match subject(&scope) {
                _ if all_page => Tail::Plain,
                Some(s) => Tail::Within(s),
                None => Tail::Unknown,
            }
        }
        _ => Tail::Unknown,
    }
}
