//! Word stems (Snowball English, `rust-stemmers`), for judging that something is *gone*:
//! "the meeting note is gone" must not hold while the page still shows "Meeting notes".
//! Absence is checked on stems, presence on words as written (a "Save" button must not
//! say "saved").

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::OnceLock;

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Nouns that say what kind of thing is meant, not which one ("the shopping list *note*",
/// "the *row* for Dates"): an absence is judged on the words that name it.
pub fn is_kind_noun(w: &str) -> bool {
    // "posted", "recorded": the verb, never the noun its stem shares ("Comment posted").
    if w.ends_with("ed") {
        return false;
    }
    matches!(
        stemmer().stem(w).as_ref(),
        "note"
            | "row"
            | "item"
            | "entri"
            | "record"
            | "task"
            | "card"
            | "file"
            | "line"
            | "contact"
            | "event"
            | "member"
            | "issu"
            | "post"
            | "product"
            | "todo"
            | "comment"
            | "messag"
            | "thread"
            | "order"
            | "invit"
            | "account"
            | "user"
            | "one"
    )
}

/// The stems an absence is judged on: the phrase's words without the kind noun that heads
/// it ("shopping list note" → shopping, list; "row for Dates" → date) and without
/// stopwords. Empty when only a kind is named ("the note is gone" says not which).
pub fn content_stems(norm: &str) -> Vec<String> {
    let mut words: Vec<&str> = norm.split(' ').filter(|w| !w.is_empty()).collect();
    while words.first().is_some_and(|w| super::text::is_stopword(w)) {
        words.remove(0);
    }
    // "row for Dates", "the entry named Ada": the name follows.
    if words.len() > 2
        && is_kind_noun(words[0])
        && matches!(
            words[1],
            "for" | "of" | "named" | "called" | "titled" | "labelled"
        )
    {
        words.drain(..2);
    } else if words.len() > 1 && words.last().is_some_and(|w| is_kind_noun(w)) {
        words.pop();
    }
    if words
        .iter()
        .all(|w| is_kind_noun(w) || super::text::is_stopword(w))
    {
        return Vec::new();
    }
    let s = stemmer();
    words
        .into_iter()
        .filter(|w| !super::text::is_stopword(w))
        .map(|w| s.stem(w).into_owned())
        .collect()
}

/// Whether two words share their stem ("agreeing", "agree").
pub fn stem(w: &str) -> String {
    stemmer().stem(w).into_owned()
}

pub fn same_stem(a: &str, b: &str) -> bool {
    let s = stemmer();
    s.stem(a) == s.stem(b)
}

/// Whether a normalized text holds any of the stems as a word (stemmed once).
pub fn has_any(text_norm: &str, stems: &[String]) -> bool {
    let s = stemmer();
    !stems.is_empty()
        && text_norm.split(' ').filter(|w| !w.is_empty()).any(|w| {
            let have = s.stem(w);
            stems.iter().any(|st| *st == have)
        })
}

/// The stems a normalized text does not hold as a word (the text stemmed once).
pub fn lacking<'a>(text_norm: &str, stems: &'a [String]) -> Vec<&'a str> {
    let s = stemmer();
    let have: std::collections::HashSet<String> = text_norm
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| s.stem(w).into_owned())
        .collect();
    stems
        .iter()
        .filter(|st| !have.contains(st.as_str()))
        .map(String::as_str)
        .collect()
}

/// Whether a normalized text holds every stem as a word (any order).
pub fn has_all(text_norm: &str, stems: &[String]) -> bool {
    if stems.is_empty() {
        return false;
    }
    // Cheap first: a stem's first letters stand in any form of its word (Snowball trims
    // endings), so most texts are ruled out without stemming them (this runs per element
    // per check, on every decision).
    let prefix = |st: &String| -> String { st.chars().take(3).collect() };
    if !stems
        .iter()
        .all(|st| text_norm.contains(prefix(st).as_str()))
    {
        return false;
    }
    let s = stemmer();
    let have: Vec<String> = text_norm
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| s.stem(w).into_owned())
        .collect();
    stems.iter().all(|want| have.iter().any(|h| h == want))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_tenses_share_a_stem() {
        assert!(has_all("meeting notes", &content_stems("meeting note")));
        assert!(has_all("deleted items", &content_stems("delete")));
        assert!(!has_all("nothing", &content_stems("notes app")));
        let want = content_stems("mountain bike rented for hours");
        assert_eq!(lacking("rented a mountain bike", &want), ["hour"]);
    }

    #[test]
    fn an_absence_is_judged_on_the_words_that_name_the_thing() {
        assert_eq!(content_stems("the shopping list note"), ["shop", "list"]);
        assert_eq!(content_stems("the row for dates"), ["date"]);
        assert_eq!(content_stems("meeting notes"), ["meet"]);
        assert!(content_stems("the note").is_empty());
        assert_eq!(content_stems("comment posted"), ["comment", "post"]);
        assert!(has_all(
            "shopping list",
            &content_stems("shopping list note")
        ));
        assert!(has_all("dates 4 kg", &content_stems("row for dates")));
        assert!(!has_all("apples", &content_stems("row for dates")));
    }
}
