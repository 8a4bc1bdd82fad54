//! Whether a text *says* a phrase or only mentions it. "Not saved", "Upload failed: not
//! complete" and "Almost done" contain "saved", "complete" and "done" as words, yet each
//! says the opposite: a criterion found only there is not met.
//!
//! A match counts when no negator or qualifier precedes it in its clause (clauses end at
//! `. ! ? ; ,` and line breaks; a colon joins a label to its value, so "Status: not
//! saved" stays one clause). Words are matched whole, so "unsaved" never contains
//! "saved"; a hyphenated prefix ("un-saved", "non-successful") negates the word it
//! joins. The word lists are English grammar, not any page's wording.

use super::text::normalize_into;

/// How a text relates to a phrase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mention {
    /// At least one occurrence that nothing negates or qualifies.
    Affirmed,
    /// Every occurrence is negated or qualified ("Not saved").
    Qualified,
    /// No occurrence as whole words.
    Absent,
}

/// Words that negate or weaken what follows them in the same clause.
pub fn is_negator(w: &str) -> bool {
    matches!(
        w,
        "not"
            | "no"
            | "never"
            | "none"
            | "nothing"
            | "nobody"
            | "neither"
            | "nor"
            | "without"
            | "cannot"
            | "unable"
            | "fail"
            | "fails"
            | "failed"
            | "failure"
            | "almost"
            | "nearly"
            | "partially"
            | "partly"
            | "hardly"
            | "barely"
            | "scarcely"
    )
}

/// Whether a message denies or weakens what it says anywhere in it: a negator, an "n't",
/// a failure word ("Bio could not be saved", "Ada can't be removed", "Upload error").
pub fn denies(raw: &str) -> bool {
    words(raw)
        .iter()
        .any(|w| w.nt || is_negator(&w.text) || is_failure_after(&w.text))
}

/// Prefixes that negate the word they are hyphenated to ("un-saved").
fn is_negating_prefix(w: &str) -> bool {
    matches!(w, "un" | "in" | "non" | "im" | "ir" | "il" | "dis")
}

/// One word of the text, normalized as `text::normalize` would, with what separated it
/// from the previous word.
struct Word {
    text: String,
    /// A clause ended between the previous word and this one.
    clause_start: bool,
    /// Joined to the previous word by a hyphen alone.
    hyphenated: bool,
    /// The "t" of "n't": joined to a word ending in "n" by an apostrophe alone.
    nt: bool,
}

fn words(raw: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut gap = String::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, gap: &mut String, out: &mut Vec<Word>| {
        if cur.is_empty() {
            return;
        }
        let prev_n = out.last().is_some_and(|w| w.text.ends_with('n'));
        let apostrophe = !gap.is_empty() && gap.chars().all(|c| matches!(c, '\'' | '’'));
        out.push(Word {
            clause_start: gap
                .chars()
                .any(|c| matches!(c, '.' | '!' | '?' | ';' | ',' | '\n' | '\r' | '•' | '|')),
            hyphenated: !out.is_empty() && matches!(gap.as_str(), "-" | "‐" | "‑"),
            nt: prev_n && apostrophe && cur == "t",
            text: std::mem::take(cur),
        });
        gap.clear();
    };
    for c in raw.chars() {
        if c.is_alphanumeric() {
            let mut one = [0u8; 4];
            normalize_into(c.encode_utf8(&mut one), &mut cur);
        } else {
            flush(&mut cur, &mut gap, &mut out);
            gap.push(c);
        }
    }
    flush(&mut cur, &mut gap, &mut out);
    out
}

/// Words that, right after a mention in its clause, say it did not happen ("Upload
/// failed", "Changes not saved", "Request declined").
fn is_failure_after(w: &str) -> bool {
    matches!(
        w,
        "failed"
            | "fails"
            | "failure"
            | "unsuccessful"
            | "not"
            | "never"
            | "rejected"
            | "declined"
            | "denied"
            | "error"
    )
}

/// Whether the occurrence of `len` words starting at word `at` is negated or qualified:
/// by a negator before it in its clause, or a failure word right after it.
fn qualified(ws: &[Word], at: usize, len: usize) -> bool {
    if at > 0 && ws[at].hyphenated && is_negating_prefix(&ws[at - 1].text) {
        return true;
    }
    if let Some(next) = ws.get(at + len) {
        if !next.clause_start && is_failure_after(&next.text) {
            return true;
        }
    }
    let mut k = at;
    while k > 0 && !ws[k].clause_start {
        k -= 1;
        if is_negator(&ws[k].text) || ws[k].nt {
            return true;
        }
    }
    false
}

/// How `raw` relates to `phrase` (normalized, as criteria are).
pub fn mention(raw: &str, phrase: &str) -> Mention {
    let want: Vec<&str> = phrase.split(' ').filter(|w| !w.is_empty()).collect();
    if want.is_empty() {
        return Mention::Absent;
    }
    let ws = words(raw);
    let mut found = Mention::Absent;
    for at in 0..ws.len().saturating_sub(want.len() - 1) {
        if want.iter().zip(&ws[at..]).all(|(p, w)| *p == w.text) {
            if !qualified(&ws, at, want.len()) {
                return Mention::Affirmed;
            }
            found = Mention::Qualified;
        }
    }
    found
}

/// Whether `raw` negates or qualifies anything with a word `phrase` lacks: "Order not
/// confirmed" against "order confirmed", which a loose grounding would otherwise accept.
pub fn negates_beyond(raw: &str, phrase: &str) -> bool {
    let own: Vec<&str> = phrase.split(' ').collect();
    words(raw).iter().any(|w| {
        (is_negator(&w.text) && !own.contains(&w.text.as_str())) || (w.nt && !own.contains(&"t"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negated_and_qualified_mentions_do_not_affirm() {
        assert_eq!(mention("Not saved", "saved"), Mention::Qualified);
        assert_eq!(
            mention("Payment failed: not successful", "successful"),
            Mention::Qualified
        );
        assert_eq!(mention("Almost done", "done"), Mention::Qualified);
        assert_eq!(
            mention("Changes weren't saved", "saved"),
            Mention::Qualified
        );
        assert_eq!(mention("Draft un-saved", "saved"), Mention::Qualified);
        assert_eq!(mention("Unsaved", "saved"), Mention::Absent);
        assert_eq!(
            mention("Saved without changes", "changes"),
            Mention::Qualified
        );
        assert_eq!(mention("Upload failed", "upload"), Mention::Qualified);
        assert_eq!(mention("Changes not saved", "changes"), Mention::Qualified);
        assert_eq!(mention("Upload failed", "upload failed"), Mention::Affirmed);
        assert_eq!(
            mention("Upload done, failed one retry", "upload done"),
            Mention::Affirmed
        );
    }

    #[test]
    fn plain_and_separated_mentions_affirm() {
        assert_eq!(mention("Saved", "saved"), Mention::Affirmed);
        assert_eq!(
            mention("Your changes were saved.", "saved"),
            Mention::Affirmed
        );
        assert_eq!(
            mention("Payment successful", "successful"),
            Mention::Affirmed
        );
        assert_eq!(mention("No errors. Saved", "saved"), Mention::Affirmed);
        assert_eq!(mention("Not saved", "not saved"), Mention::Affirmed);
        assert_eq!(
            mention("Sign in successful", "successful"),
            Mention::Affirmed
        );
        // One affirmed occurrence is enough.
        assert_eq!(mention("Not saved; saved", "saved"), Mention::Affirmed);
        assert!(negates_beyond("Order not confirmed", "order confirmed"));
        assert!(!negates_beyond("Order confirmed", "order confirmed"));
        assert!(!negates_beyond("No results", "no results"));
    }
}
