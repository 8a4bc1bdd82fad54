//! Word classes of instructions.

use super::utterance_tokens::Tok;

pub fn is_fill_verb(w: &str) -> bool {
    matches!(w, "enter" | "type" | "input" | "write" | "fill" | "paste")
}

pub fn is_select_verb(w: &str) -> bool {
    matches!(w, "select" | "choose" | "pick")
}

pub fn is_click_verb(w: &str) -> bool {
    matches!(w, "click" | "clicking" | "press" | "hit" | "tap" | "push")
}

/// Keys a "press …" may name instead of a target.
pub fn is_key_name(w: &str) -> bool {
    matches!(
        w,
        "enter" | "return" | "escape" | "esc" | "tab" | "space" | "backspace"
    )
}

/// Nouns that say what kind of value follows, not which field takes it.
pub fn is_value_noun(w: &str) -> bool {
    matches!(
        w,
        "number" | "text" | "word" | "words" | "value" | "string" | "phrase" | "item"
    )
}

/// Words naming a kind of control.
pub fn is_role_word(w: &str) -> bool {
    matches!(
        w,
        "button"
            | "link"
            | "tab"
            | "checkbox"
            | "radio"
            | "option"
            | "icon"
            | "item"
            | "menu"
            | "widget"
    )
}

pub fn is_article(w: &str) -> bool {
    matches!(w, "the" | "a" | "an")
}

/// Labels whose literal must not leave the run: typed, never echoed.
pub fn is_secret_label(key: &str) -> bool {
    let k = key.to_lowercase();
    ["password", "passcode", "passphrase", "pin", "secret"]
        .iter()
        .any(|s| k.split(['_', ' ']).any(|w| w == *s))
}

/// "1st", "2nd", "3rd", "4th", …
pub fn is_ordinal(w: &str) -> bool {
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && matches!(&w[digits.len()..], "st" | "nd" | "rd" | "th")
}

/// Words from `i` up to (not including) a stop word, punctuation or a quote.
pub fn phrase(toks: &[Tok], i: usize, stop: &[&str]) -> (Vec<String>, usize) {
    let mut out = Vec::new();
    let mut j = i;
    while let Some(Tok::Word(w)) = toks.get(j) {
        if stop.contains(&w.to_lowercase().as_str()) {
            break;
        }
        out.push(w.clone());
        j += 1;
    }
    (out, j)
}

/// `words` without a leading article.
pub fn strip_article(words: &[String]) -> &[String] {
    match words.first() {
        Some(w) if is_article(&w.to_lowercase()) => &words[1..],
        _ => words,
    }
}

/// Where the current sentence started (after the last `.`, `;`, `!` or `?` before `i`).
pub fn sentence_start(toks: &[Tok], i: usize) -> usize {
    toks[..i]
        .iter()
        .rposition(|t| matches!(t, Tok::Punct('.' | ';' | '!' | '?')))
        .map_or(0, |p| p + 1)
}

/// Words that join requests without asking for anything themselves.
pub fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "and"
            | "then"
            | "also"
            | "please"
            | "finally"
            | "first"
            | "next"
            | "now"
            | "the"
            | "a"
            | "an"
    )
}
