//! Normalization and similarity. Case, punctuation and spacing never decide a match;
//! words do. Kept allocation-light: one decision scores hundreds of labels.

use strsim::normalized_damerau_levenshtein;

// One normalization with the risk gate and the cache (`arc_core::name`): the gate and the
// grounding never read one label as different words.
pub use arc_core::name::{normalize, normalize_into, normalize_name, normalize_name_into};

/// A calendar date written as YYYY-MM-DD or MM/DD/YYYY (any separators, one-digit parts
/// allowed) → (year, month, day); None for anything else.
pub fn calendar_date(s: &str) -> Option<(u32, u32, u32)> {
    let parts: Vec<&str> = s
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    if !parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let n = |p: &str| p.parse::<u32>().ok();
    let (y, m, d) = match (a.len(), b.len(), c.len()) {
        (4, 1..=2, 1..=2) => (n(a)?, n(b)?, n(c)?),
        (1..=2, 1..=2, 4) => (n(c)?, n(a)?, n(b)?),
        _ => return None,
    };
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

/// Two texts naming the same calendar date in different written forms.
pub fn same_date(a: &str, b: &str) -> bool {
    calendar_date(a).is_some_and(|d| calendar_date(b) == Some(d))
}

/// A time of day as seconds since midnight: "2:53 PM", "14:53", "14:53:10".
pub fn clock_time(s: &str) -> Option<u32> {
    let s = s.trim().to_lowercase();
    let (clock, half) = match s.find(['a', 'p']) {
        Some(k) if matches!(s[k..].replace('.', "").as_str(), "am" | "pm") => {
            (s[..k].trim(), Some(s.as_bytes()[k] == b'p'))
        }
        Some(_) => return None,
        None => (s.as_str(), None),
    };
    // A normalized criterion writes "2:53 PM" as "2 53 pm".
    let parts: Vec<u32> = clock
        .split([':', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| {
            (p.len() <= 2 && !p.is_empty())
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect::<Option<_>>()?;
    let (h, m, sec) = match parts.as_slice() {
        [h, m] => (*h, *m, 0),
        [h, m, s] => (*h, *m, *s),
        _ => return None,
    };
    let h = match half {
        Some(_) if !(1..=12).contains(&h) => return None,
        Some(pm) => h % 12 + if pm { 12 } else { 0 },
        None => h,
    };
    (h < 24 && m < 60 && sec < 60).then_some((h * 60 + m) * 60 + sec)
}

/// Two texts naming the same time of day in different written forms ("2:53 PM", "14:53").
pub fn same_time(a: &str, b: &str) -> bool {
    clock_time(a).is_some_and(|t| clock_time(b) == Some(t))
}

/// Splits an identifier into words: `firstName`, `first_name`, `first-name` → "first name".
pub fn identifier_words(raw: &str) -> String {
    let mut spaced = String::with_capacity(raw.len() + 4);
    let mut prev_lower = false;
    for c in raw.chars() {
        if c.is_uppercase() && prev_lower {
            spaced.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        spaced.push(c);
    }
    normalize(&spaced)
}

/// Words that carry no identity in a label or a goal.
pub fn is_stopword(w: &str) -> bool {
    matches!(
        w,
        "a" | "an"
            | "the"
            | "to"
            | "of"
            | "in"
            | "on"
            | "into"
            | "onto"
            | "for"
            | "with"
            | "from"
            | "by"
            | "at"
            | "as"
            | "and"
            | "or"
            | "my"
            | "your"
            | "our"
            | "their"
            | "his"
            | "her"
            | "its"
            | "this"
            | "that"
            | "these"
            | "those"
            | "i"
            | "me"
            | "we"
            | "you"
            | "it"
            | "is"
            | "are"
            | "be"
            | "please"
            // Where on the page, not which element ("the section below").
            | "below"
            | "above"
    )
}

/// Whether `needle` occurs in `hay` as whole words (both normalized).
pub fn contains_phrase(hay: &str, needle: &str) -> bool {
    if needle.is_empty() || needle.len() > hay.len() {
        return false;
    }
    let bytes = hay.as_bytes();
    let mut from = 0;
    while let Some(pos) = hay[from..].find(needle) {
        let start = from + pos;
        let end = start + needle.len();
        let left = start == 0 || bytes[start - 1] == b' ';
        let right = end == hay.len() || bytes[end] == b' ';
        if left && right {
            return true;
        }
        from = start + hay[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Equal once spaces are ignored ("sign up" / "signup").
fn compact_eq(a: &str, b: &str) -> bool {
    a.bytes()
        .filter(|&c| c != b' ')
        .eq(b.bytes().filter(|&c| c != b' '))
}

/// Word equality tolerant of a plural `s`.
fn token_eq(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    short.len() >= 3
        && ((long.len() == short.len() + 1 && long.ends_with('s') && long.starts_with(short))
            || ing_form(long, short))
}

/// "walking" of "walk", "making" of "make", "running" of "run": a planner names an item
/// by what doing it is ("tick off walking the dog" for "Walk the dog"). Not "-ed": a
/// "Save" button must never read as "saved".
fn ing_form(long: &str, short: &str) -> bool {
    let Some(base) = long.strip_suffix("ing") else {
        return false;
    };
    let doubled = base.len() == short.len() + 1
        && base.starts_with(short)
        && base.as_bytes()[base.len() - 1] == base.as_bytes()[base.len() - 2];
    base.len() >= 3 && (base == short || short.strip_suffix('e') == Some(base) || doubled)
}

/// The content words of a normalized text: stopwords dropped unless nothing else is left.
fn content_words(norm: &str) -> impl Iterator<Item = &str> + Clone {
    let all_stop = norm.split(' ').all(is_stopword);
    norm.split(' ')
        .filter(move |w| !w.is_empty() && (all_stop || !is_stopword(w)))
}

/// Whether `name` says another word where `said` says one of its own, before a word both
/// say: a modifier of the same thing swapped ("annual" for "monthly" before "report",
/// "billing" for "shipping" before "address"), not a longer or terser name, nor a typo
/// ("frist"). After the last shared word it may be the same thing said otherwise
/// ("Budget 2026 spreadsheet" for "Budget 2026.xlsx"). `ignored`: name words that count
/// as said (the row the utterance names).
pub fn substitutes(said: &[&str], name: &[&str], ignored: impl Fn(&str) -> bool) -> bool {
    let anchors: Vec<Option<usize>> = said
        .iter()
        .map(|q| name.iter().position(|w| token_eq(q, w)))
        .collect();
    anchors.iter().enumerate().any(|(i, at)| {
        if at.is_some() {
            return false;
        }
        let before = anchors[..i].iter().rev().find_map(|a| *a);
        let Some(after) = anchors[i + 1..].iter().find_map(|a| *a) else {
            return false;
        };
        let from = match before {
            Some(b) if b < after => b + 1,
            Some(_) => return false,
            None => 0,
        };
        let own: Vec<&&str> = name[from..after]
            .iter()
            .filter(|w| !said.iter().any(|q| token_eq(q, w)) && !ignored(w))
            .collect();
        !own.is_empty()
            && own
                .iter()
                .all(|w| normalized_damerau_levenshtein(said[i], w) < TYPO)
    })
}

/// The most a label scores that says another word in place of one of the query's
/// (`Query::substituted`): below the grounding threshold, so it names nothing.
const SUBSTITUTED: f64 = 0.5;
/// Character similarity from which one text reads as the other misspelt.
const TYPO: f64 = 0.75;

/// A text to ground, prepared once and scored against many normalized labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    pub norm: String,
    content: Vec<String>,
    content_joined: String,
    /// Words the utterance says elsewhere (the row it names): a label repeating them
    /// ("Mute @ann" in Ann's row menu) is not the less the query's for it.
    context: Vec<String>,
}

impl Query {
    pub fn new(raw: &str) -> Query {
        Query::from_norm(normalize_name(raw))
    }

    pub fn from_norm(norm: String) -> Query {
        let content: Vec<String> = content_words(&norm).map(str::to_owned).collect();
        let content_joined = content.join(" ");
        Query {
            norm,
            content,
            content_joined,
            context: Vec::new(),
        }
    }

    /// The same query, with label words in `context` (normalized words the utterance
    /// names besides the query) left out of a label's precision.
    pub fn with_context(mut self, context: Vec<String>) -> Query {
        self.context = context;
        self
    }

    pub fn is_empty(&self) -> bool {
        self.norm.is_empty()
    }

    /// Word-level similarity to a normalized label, 0..=1. 1.0 only for the same words in
    /// the same order; query words found in the label weigh more than label words found
    /// in the query (planners are terser than labels).
    pub fn score(&self, label: &str) -> f64 {
        if label.is_empty() || self.norm.is_empty() {
            return 0.0;
        }
        if label == self.norm {
            return 1.0;
        }
        if compact_eq(label, &self.norm) {
            return 0.97;
        }
        let words = content_words(label);
        let mut label_count = 0usize;
        let mut label_matched = 0usize;
        for w in words.clone() {
            let matched = self.content.iter().any(|q| token_eq(q, w));
            if !matched && self.context.iter().any(|c| c == w) {
                continue;
            }
            label_count += 1;
            if matched {
                label_matched += 1;
            }
        }
        if label_matched == 0 || label_count == 0 {
            return 0.0;
        }
        let query_matched = self
            .content
            .iter()
            .filter(|q| words.clone().any(|w| token_eq(q, w)))
            .count();
        let recall = query_matched as f64 / self.content.len() as f64;
        let precision = label_matched as f64 / label_count as f64;
        if recall >= 1.0 && precision >= 1.0 {
            return 0.95;
        }
        let score = 0.9 * (0.6 * recall + 0.4 * precision);
        if self.substituted(&words.collect::<Vec<_>>()) {
            // "the annual report" is not "the monthly report", however much else they share.
            return score.min(SUBSTITUTED);
        }
        score
    }

    /// Whether the label says another word where the query says one of its own: between
    /// the same two words they share (or before the first, after the last), each has a
    /// word the other lacks, and not a misspelling of it. A different thing named alike
    /// ("billing" for "shipping"), not a longer or a terser name, nor a typo ("frist").
    fn substituted(&self, label: &[&str]) -> bool {
        let said: Vec<&str> = self.content.iter().map(String::as_str).collect();
        substitutes(&said, label, |w| self.context.iter().any(|c| c == w))
    }

    /// Character-level similarity, for typos ("Sumbit"); only consulted when no label
    /// matches by words, because it is the expensive one.
    pub fn fuzzy(&self, label: &str) -> f64 {
        let q = &self.content_joined;
        if q.len() < 4 || label.is_empty() {
            return 0.0;
        }
        let (a, b) = (q.len() as f64, label.len() as f64);
        if (a - b).abs() > 0.34 * a.max(b) {
            return 0.0;
        }
        // A number is no typo: "Budget 2023" is another file than "Budget 2024".
        let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
        if digits(q) != digits(label) {
            return 0.0;
        }
        // Nor is another word among the same ones: "billing address" is no typo of
        // "shipping address" (0.75 alike by characters).
        if self.substituted(&content_words(label).collect::<Vec<_>>()) {
            return 0.0;
        }
        let sim = normalized_damerau_levenshtein(q, label);
        if sim >= TYPO {
            0.85 * sim
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_with_another_word_in_the_querys_place_names_nothing() {
        let q = |t: &str| Query::new(t);
        let norm = |t: &str| normalize_name(t);
        for (query, label) in [
            ("download the annual report", "Download the monthly report"),
            ("delete the draft invoice", "Delete the final invoice"),
            ("the billing address", "Shipping address"),
        ] {
            let (query, label) = (q(query), norm(label));
            assert!(
                query.score(&label) < 0.6,
                "{label}: {}",
                query.score(&label)
            );
            assert!(
                query.fuzzy(&label) < 0.6,
                "{label}: fuzzy {}",
                query.fuzzy(&label)
            );
        }
        // A terser or a longer name of the same thing still names it.
        for (query, label) in [
            ("download the annual report", "Download report"),
            ("the save", "Save changes"),
            ("redeem the gift card gc 42", "Redeem gift card"),
            ("the annual report", "Annual report 2024 (PDF)"),
            ("the budget 2026 spreadsheet", "Budget 2026 xlsx"),
        ] {
            let (query, label) = (q(query), norm(label));
            assert!(
                query.score(&label) >= 0.6,
                "{label}: {}",
                query.score(&label)
            );
        }
        // A misspelt word is still the word.
        for (query, label) in [("the frist name", "First name"), ("sumbit", "Submit")] {
            let (query, label) = (q(query), norm(label));
            let best = query.score(&label).max(query.fuzzy(&label));
            assert!(best >= 0.6, "{label}: {best}");
        }
    }

    #[test]
    fn an_ing_form_names_what_its_verb_names_and_an_ed_form_does_not() {
        for (a, b) in [("walking", "walk"), ("making", "make"), ("running", "run")] {
            assert!(token_eq(a, b), "{a} / {b}");
        }
        for (a, b) in [("saved", "save"), ("sing", "s")] {
            assert!(!token_eq(a, b), "{a} / {b}");
        }
        assert!(Query::new("walking the dog").score("walk the dog") >= 0.6);
    }

    #[test]
    fn a_symbol_name_appended_to_a_shared_buffer_is_only_its_own_symbols() {
        // Facts keeps every name in one buffer: a pager's "1" then ">".
        let mut names = String::from("1");
        let start = names.len();
        normalize_name_into(">", &mut names);
        assert_eq!(&names[start..], ">");
        let start = names.len();
        normalize_name_into("★ ★", &mut names);
        assert_eq!(&names[start..], "★ ★");
    }

    #[test]
    fn normalization_drops_case_punctuation_and_spacing() {
        assert_eq!(normalize("  Sign-up, NOW!  "), "sign up now");
        assert_eq!(normalize("ada@example.com"), "ada example com");
        assert_eq!(normalize("Émile Zola"), "émile zola");
        assert_eq!(identifier_words("firstName"), "first name");
        assert_eq!(identifier_words("last_name"), "last name");
    }

    #[test]
    fn times_of_day_compare_across_written_forms() {
        assert!(same_time("14:53", "2:53 PM"));
        assert!(same_time("2 53 pm", "14:53"));
        assert!(same_time("00:05", "12:05 AM"));
        assert!(same_time("12:30", "12:30 p.m."));
        assert!(!same_time("02:53", "2:53 PM"));
        assert_eq!(clock_time("13:00 PM"), None);
        assert_eq!(clock_time("apple"), None);
        assert_eq!(clock_time("10/11/2016"), None);
    }

    #[test]
    fn phrases_match_whole_words_only() {
        assert!(contains_phrase(
            "selected country germany",
            "country germany"
        ));
        assert!(!contains_phrase("payment", "pay"));
        assert!(!contains_phrase("submitted", "submit"));
        assert!(contains_phrase("submit", "submit"));
    }

    #[test]
    fn scores_rank_exact_over_partial_over_unrelated() {
        let q = Query::new("name");
        assert_eq!(q.score("name"), 1.0);
        let partial = q.score("first name");
        assert!(partial > 0.6 && partial < 0.9, "{partial}");
        assert_eq!(q.score("first name"), q.score("last name"));
        assert_eq!(Query::new("checkout").score("home"), 0.0);
        assert!(Query::new("signup").score("sign up") > 0.95);
        assert!(Query::new("terms").score("i accept the terms") > 0.6);
        assert!(Query::new("sumbit").fuzzy("submit") > 0.6);
    }
}
