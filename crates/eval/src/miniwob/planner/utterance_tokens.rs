//! A MiniWoB++ utterance as tokens: words (original case, edge punctuation split off),
//! quoted strings (verbatim), and the punctuation that separates clauses and list items.
//!
//! Not the reflex's `tokens.rs`, on purpose: this planner *writes* a subtask, so it keeps
//! each word's case and every separator (a literal such as "Tab #1" or a list "a, b and c"
//! is copied out of the utterance verbatim), while the reflex *reads* a planner's goal and
//! criteria, so it normalizes words and keeps only clause breaks.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Word(String),
    Quote(String),
    /// `,` `.` `;` `:` `!` `?` at a word's edge.
    Punct(char),
}

impl Tok {
    /// The word, lower-cased for matching.
    pub fn word(&self) -> Option<String> {
        match self {
            Tok::Word(w) => Some(w.to_lowercase()),
            _ => None,
        }
    }

    pub fn is_word(&self, w: &str) -> bool {
        matches!(self, Tok::Word(x) if x.eq_ignore_ascii_case(w))
    }

    pub fn quote(&self) -> Option<&str> {
        match self {
            Tok::Quote(q) => Some(q),
            _ => None,
        }
    }

    /// A word or a quote, verbatim (a value the utterance names).
    pub fn literal(&self) -> Option<&str> {
        match self {
            Tok::Word(w) | Tok::Quote(w) => Some(w),
            Tok::Punct(_) => None,
        }
    }
}

fn is_edge_punct(c: char) -> bool {
    matches!(c, ',' | '.' | ';' | ':' | '!' | '?')
}

fn closing(open: char) -> Option<char> {
    match open {
        '"' => Some('"'),
        '“' => Some('”'),
        _ => None,
    }
}

pub fn lex(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if let Some(close) = closing(c) {
            let body = &rest[c.len_utf8()..];
            if let Some(end) = body.find(close) {
                out.push(Tok::Quote(body[..end].to_owned()));
                rest = &body[end + close.len_utf8()..];
                continue;
            }
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let end = match rest[..end].find(['"', '“']) {
            Some(q) if q > 0 => q,
            _ => end,
        };
        push_word(&rest[..end], &mut out);
        rest = &rest[end..];
    }
    out
}

/// A whitespace-delimited chunk: leading and trailing punctuation become their own tokens
/// ("Tab #1." → `Tab`… `#1`, `.`); inner punctuation stays ("10/20/2017", "A>B").
fn push_word(chunk: &str, out: &mut Vec<Tok>) {
    let core = chunk.trim_end_matches(is_edge_punct);
    let lead = core.trim_start_matches(is_edge_punct);
    for c in core[..core.len() - lead.len()].chars() {
        out.push(Tok::Punct(c));
    }
    if !lead.is_empty() {
        out.push(Tok::Word(lead.to_owned()));
    }
    for c in chunk[core.len()..].chars() {
        out.push(Tok::Punct(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Tok {
        Tok::Word(s.into())
    }

    #[test]
    fn quotes_words_and_edge_punctuation() {
        assert_eq!(
            lex(r#"Click on the link "Neque,"."#),
            vec![
                w("Click"),
                w("on"),
                w("the"),
                w("link"),
                Tok::Quote("Neque,".into()),
                Tok::Punct('.')
            ]
        );
        assert_eq!(
            lex("Select A, B and click Tab #1."),
            vec![
                w("Select"),
                w("A"),
                Tok::Punct(','),
                w("B"),
                w("and"),
                w("click"),
                w("Tab"),
                w("#1"),
                Tok::Punct('.')
            ]
        );
        assert_eq!(
            lex("Enter 10/20/2017 as"),
            vec![w("Enter"), w("10/20/2017"), w("as")]
        );
        assert_eq!(lex("Select A>B"), vec![w("Select"), w("A>B")]);
        assert_eq!(lex("“x”"), vec![Tok::Quote("x".into())]);
    }
}
