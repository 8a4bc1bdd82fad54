//! Verification criteria, read once and checked against each snapshot: "the page shows X",
//! "X appears", "the Email field contains X", "X is checked/selected/visible", "the URL
//! contains X". A criterion this cannot read never holds: completion is claimed only on
//! evidence. Here a criterion is split into sentences (clauses, "and"-joined statements,
//! marks for words); `sentence` reads each one into a check.

use super::tokens::{tokenize, Tok};

mod acknowledged;
mod around;
mod assignment;
mod check;
mod describe;
mod downloaded;
mod happened;
mod holds;
mod mention;
mod outcome;
mod sentence;
mod stated;
pub use acknowledged::acknowledged;
pub use check::{Bounds, Check, Criterion, FieldMatch, State, Subject};
pub use holds::{field_subject, holds, judge, subject_element};
pub use outcome::{note_commit, note_start, note_step, says_outcome};
use sentence::{plain, read, state_word, subject, word, ABSENCE, PRESENCE, TEXT_RELATIONS};

/// The planner's criterion number `of` as checks: a sentence is read clause by clause
/// (every clause must hold: "…ticked, and the message appears"), a stated check
/// translated.
pub fn criteria(of: usize, c: &arc_core::Criterion) -> Vec<Criterion> {
    match c {
        arc_core::Criterion::Text(written) => {
            let t = &marks_as_words(written);
            let parts = super::tokens::clauses(t);
            let mut read: Vec<Criterion> = if parts.len() > 1 {
                parts.iter().flat_map(|p| joined(p)).collect()
            } else {
                joined(t)
            };
            let whole = read.len() == 1;
            for r in &mut read {
                r.of = of;
                // A verdict quotes the planner's words, marks and all.
                if whole {
                    r.text = written.clone();
                } else if t != written {
                    r.text = r.text.split_whitespace().collect::<Vec<_>>().join(" ");
                }
            }
            read
        }
        arc_core::Criterion::Check(check) => vec![Criterion {
            text: check.to_string(),
            check: stated::read(check),
            of,
        }],
    }
}

/// A tick or a cross beside an item is its state in one sign ("Walk the dog ✓"): the
/// words for it, which normalizing would otherwise drop with every other symbol.
fn marks_as_words(t: &str) -> String {
    if !t.contains(['✓', '✔', '☑', '✅', '✗', '✘', '☐', '❌']) {
        return t.to_owned();
    }
    let word = |c: char| {
        if "✓✔☑✅".contains(c) {
            Some(" done ")
        } else if "✗✘☐❌".contains(c) {
            Some(" undone ")
        } else {
            None
        }
    };
    // A leading mark ("✓ Walk the dog") is said after its item.
    let t = t.trim();
    let (lead, rest) = match t.chars().next().and_then(word) {
        Some(w) => (w, &t[t.chars().next().map_or(0, char::len_utf8)..]),
        None => ("", t),
    };
    let mut out: String = rest
        .chars()
        .map(|c| word(c).map_or_else(|| c.to_string(), str::to_owned))
        .collect();
    out.push_str(lead);
    out
}

/// A clause read whole, or as two joined by "and" when each side reads on its own ("The
/// Language dropdown shows Deutsch and the change has been saved"): both must hold. A
/// side that does not read ("… contains Salt and Pepper Chips") keeps the clause whole.
fn joined(text: &str) -> Vec<Criterion> {
    if let Some(each) = distributed(text) {
        return each.iter().map(|t| parse(t)).collect();
    }
    const MAX_SPLITS: usize = 4;
    let mut out = Vec::new();
    let mut rest = text.to_owned();
    for _ in 0..MAX_SPLITS {
        let split = and_positions(&rest).into_iter().find_map(|at| {
            let (left, right) = (rest[..at].trim(), rest[at + 4..].trim());
            if verb_first(right) {
                return None;
            }
            let (l, r) = (parse(left), parse(right));
            (states(&l.check) && states(&r.check)).then(|| (l, right.to_owned()))
        });
        match split {
            Some((left, right)) => {
                out.push(left);
                rest = right;
            }
            None => break,
        }
    }
    out.push(parse(&rest));
    out
}

/// Two subjects sharing a plural verb ("SMS alerts and the weekly digest are enabled"):
/// the statement once for each, in the singular — each must hold on its own, never the
/// pair's words on one element.
fn distributed(text: &str) -> Option<Vec<String>> {
    const PLURAL: [(&str, &str); 5] = [
        (" have been ", "has been"),
        (" have ", "has"),
        (" are ", "is"),
        (" were ", "was"),
        (" remain ", "remains"),
    ];
    // "Kim and Raj remain": a verb that ends the sentence says all it says.
    let padded = format!("{} ", text.trim_end().trim_end_matches('.'));
    let text = padded.as_str();
    let at = *and_positions(text).first()?;
    let (v, len, singular) = PLURAL
        .iter()
        .filter_map(|(p, s)| text[at..].find(p).map(|k| (at + k, p.len(), *s)))
        .min_by_key(|(v, ..)| *v)?;
    let (a, b, rest) = (
        text[..at].trim(),
        text[at + 5..v].trim(),
        text[v + len..].trim(),
    );
    if a.is_empty() || b.is_empty() || (rest.is_empty() && singular != "remains") {
        return None;
    }
    if states(&parse(a).check) || states(&parse(b).check) {
        return None;
    }
    let each = [
        format!("{a} {singular} {rest}").trim_end().to_owned(),
        format!("{b} {singular} {rest}").trim_end().to_owned(),
    ];
    each.iter()
        .all(|t| states(&parse(t).check))
        .then(|| each.to_vec())
}

/// A side that opens with its verb ("… and then ends in \"gen\"") shares the subject
/// before the "and": no clause of its own.
fn verb_first(text: &str) -> bool {
    let toks = tokenize(text);
    let Some(first) = toks.iter().find_map(word) else {
        return false;
    };
    let leads = |lists: &[&[&str]]| lists.iter().any(|p| p.first() == Some(&first));
    leads(TEXT_RELATIONS)
        || leads(PRESENCE)
        || leads(ABSENCE)
        || matches!(
            first,
            "is" | "are"
                | "was"
                | "were"
                | "has"
                | "have"
                | "had"
                | "starts"
                | "begins"
                | "remains"
                | "stays"
                | "gets"
                | "got"
                | "becomes"
        )
}

/// A check read from a statement: a relation or a verb, not a bare phrase taken for a
/// message's words ("Pepper Chips").
fn states(c: &Check) -> bool {
    !matches!(c, Check::Unreadable | Check::Confirmed(..))
}

/// Byte offsets of each " and " outside quotes.
fn and_positions(text: &str) -> Vec<usize> {
    let mut quoted = false;
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        if matches!(c, '"' | '“' | '”') {
            quoted = !quoted;
        }
        if !quoted && text[i..].starts_with(" and ") {
            out.push(i);
        }
    }
    out
}

pub fn parse(text: &str) -> Criterion {
    let toks: Vec<Tok> = tokenize(text)
        .into_iter()
        .filter(|t| *t != Tok::Break)
        .collect();
    let check = match read(&toks) {
        None if !toks.iter().any(|t| matches!(t, Tok::Quote(_))) => outcome::outcome(&toks),
        Some(Check::UrlContains(_)) => url_text(text).map_or(Check::Unreadable, Check::UrlContains),
        // "The 3rd search result was clicked": a position in a list of results, counted
        // across its pages, not an element named so.
        Some(Check::Clicked(s)) if super::paged::parse(&s.query.norm).is_some() => {
            super::paged::parse(&s.query.norm)
                .map_or(Check::Unreadable, |(n, _)| Check::ClickedNth(n))
        }
        Some(
            check @ (Check::ElementState(_, State::Checked, true)
            | Check::Clicked(_)
            | Check::Present(_)),
        ) => menu_path(&toks).map_or(check, Check::MenuPath),
        Some(check) => check,
        None => Check::Unreadable,
    };
    // "Language = Deutsch", "Created: Jo's Pipeline": a terse key and value, also read
    // for what it says was done.
    let check = match assignment::assignment(text) {
        Some(h)
            if matches!(
                check,
                Check::Unreadable | Check::Confirmed(..) | Check::Either(..)
            ) =>
        {
            Check::Either(Box::new(check), Box::new(Check::Happened(Box::new(h))))
        }
        _ => check,
    };
    // "A new issue titled T has been created": T appeared, or was stored as the title.
    let check = match assignment::titled(text) {
        Some((appeared, stored)) if matches!(check, Check::Unreadable | Check::Confirmed(..)) => {
            Check::Either(
                Box::new(Check::Happened(Box::new(appeared))),
                Box::new(Check::Happened(Box::new(stored))),
            )
        }
        _ => check,
    };
    // "His email address is X", "The Phone field shows X": a key and a value said in
    // a sentence also hold as the run's stored edit, which outlives the form a save left.
    let check = match assignment::copula(text) {
        Some(h) if said_of_a_field(&check) => {
            Check::Either(Box::new(check), Box::new(Check::Happened(Box::new(h))))
        }
        _ => check,
    };
    Criterion {
        text: text.to_owned(),
        check,
        of: 0,
    }
}

/// A reading a key-and-value sentence may also mean: none, an outcome, "X is in <scope>"
/// (as "in-progress" reads), or an element showing text, unless the element is a
/// container (a list holds items, not a value).
fn said_of_a_field(c: &Check) -> bool {
    match c {
        Check::Unreadable | Check::Confirmed(..) | Check::Either(..) | Check::ShowsIn(..) => true,
        Check::ElementShows(s, _) => !holds::names_container(s),
        _ => false,
    }
}

/// The menu path a criterion's subject names: its quote, else its words up to the
/// relation ("Jinny>Lynett is selected").
fn menu_path(toks: &[Tok]) -> Option<Vec<String>> {
    if let Some(q) = toks.iter().find_map(|t| match t {
        Tok::Quote(q) => Some(q),
        _ => None,
    }) {
        return super::menu::path(q);
    }
    let words: Vec<&str> = toks
        .iter()
        .filter_map(word)
        .take_while(|w| !matches!(*w, "is" | "was" | "are" | "has" | "have" | "were"))
        .collect();
    super::menu::path(&words.join(" "))
}

/// A URL is compared as written (lower-cased), not word by word: the text after the
/// relation, without quotes or a closing period.
fn url_text(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = [" contains ", " includes ", " ends with ", " is "]
        .iter()
        .filter_map(|rel| lower.find(rel).map(|i| i + rel.len()))
        .min()?;
    let rest = lower[at..]
        .trim()
        .trim_end_matches('.')
        .trim_matches(|c| matches!(c, '"' | '\'' | '“' | '”' | '`'));
    Some(rest.to_owned()).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clauses_joined_by_and_are_read_apart_when_each_reads() {
        let read = |t: &str| {
            criteria(0, &arc_core::Criterion::Text(t.into()))
                .into_iter()
                .map(|c| c.text)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            read("The Language dropdown shows Deutsch and the change has been saved"),
            [
                "The Language dropdown shows Deutsch",
                "the change has been saved"
            ]
        );
        // The second side alone is no statement: one clause, its object whole.
        assert_eq!(
            read("The list contains Salt and Pepper Chips"),
            ["The list contains Salt and Pepper Chips"]
        );
        // Two subjects, one plural verb: the statement for each.
        assert_eq!(
            read("SMS alerts and the weekly digest are enabled"),
            ["SMS alerts is enabled", "the weekly digest is enabled"]
        );
        assert_eq!(read("Kim and Raj remain"), ["Kim remains", "Raj remains"]);
        // A side that opens with its verb shares the subject.
        assert_eq!(
            read("The destination starts with \"Ber\" and ends in \"gen\""),
            ["The destination starts with \"Ber\" and ends in \"gen\""]
        );
        // Inside a quote, "and" joins nothing.
        assert_eq!(
            read("The page shows \"Fish and chips are served\""),
            ["The page shows \"Fish and chips are served\""]
        );
    }

    #[test]
    fn being_listed_is_presence_and_no_longer_listed_is_absence() {
        let c = |t: &str| parse(t).check;
        assert!(matches!(
            c("Ada Lovelace is still listed"),
            Check::Present(_)
        ));
        assert!(matches!(
            c("'Buy milk' is listed in the shopping list"),
            Check::ShowsIn(..)
        ));
        assert!(matches!(
            c("lu@acme.example is no longer listed among the team members"),
            Check::LacksIn(..)
        ));
        // Not listed any more, no longer listed or shown: it was there, and went.
        assert!(matches!(
            c("The Weekly draft is not listed any more"),
            Check::Happened(_)
        ));
        assert!(matches!(
            c("Pay the bill, the only completed todo, no longer appears"),
            Check::Happened(_)
        ));
        assert!(matches!(c("Spam is not listed"), Check::PageLacks(_)));
        // A subject holding a verb is two statements, not one.
        assert_eq!(
            c("The Shopping list note has been deleted and is not listed any more"),
            Check::Unreadable
        );
        assert!(matches!(c("Kim remains"), Check::Present(_)));
        assert!(matches!(
            c("The Remember me box remains checked"),
            Check::ElementState(_, State::Checked, true)
        ));
        // Listed with more than a place is more than presence.
        assert_eq!(
            c("Order #1050 is listed with the status Shipped"),
            Check::Unreadable
        );
    }

    #[test]
    fn a_terse_key_and_value_is_a_committed_field_or_what_happened() {
        let happened = |t: &str| match parse(t).check {
            Check::Either(_, b) => match *b {
                Check::Happened(h) => Some(*h),
                _ => None,
            },
            _ => None,
        };
        let h = happened("Language = Deutsch").unwrap();
        assert_eq!(
            (h.event, h.subject.as_str(), h.value.as_deref()),
            (happened::Event::Committed, "language", Some("deutsch"))
        );
        let h = happened("Time zone: Asia/Tokyo").unwrap();
        assert_eq!((h.subject.as_str(), h.value.is_some()), ("time zone", true));
        let h = happened("Created: Jo's Pipeline").unwrap();
        assert_eq!((h.event, h.value), (happened::Event::Appeared, None));
        // Two separators, a sentence, a quote's colon, a relation: not a key and value.
        assert!(happened("Reserved: 4 people, 19:30").is_none());
        assert!(
            happened("The booking for Alan Turing is now confirmed by the hotel: Single room")
                .is_none()
        );
        assert!(happened("The page shows \"Total: 3\"").is_none());
    }

    #[test]
    fn criteria_are_read_into_checks() {
        let c = |t: &str| parse(t).check;
        assert_eq!(
            c("The page shows \"Thank you, Ada\""),
            Check::PageShows("thank you ada".into())
        );
        assert_eq!(
            c("The page shows Selected country: Germany"),
            Check::PageShows("selected country germany".into())
        );
        assert!(matches!(
            c("The Email field contains ada@example.com"),
            Check::ElementShows(..)
        ));
        assert!(matches!(
            c("\"I accept the terms\" is checked"),
            Check::ElementState(_, State::Checked, true)
        ));
        assert!(matches!(
            c("The Details tab is not selected"),
            Check::ElementState(_, State::Checked, false)
        ));
        assert!(matches!(
            c("'Water the plants' is no longer checked"),
            Check::ElementState(_, State::Checked, false)
        ));
        assert!(matches!(
            c("\"Order confirmed\" appears"),
            Check::Present(_)
        ));
        assert!(matches!(
            c("The URL contains /form.html"),
            Check::UrlContains(_)
        ));
        assert!(matches!(
            c("The destination textbox starts with \"Sa\" but ends with \"ino\""),
            Check::Affix(_, p, Some(x)) if p == "Sa" && x == "ino"
        ));
        assert!(matches!(
            c("The city box starts with \"Ber\""),
            Check::Affix(_, p, None) if p == "Ber"
        ));
        assert_eq!(
            c("Everything about the whole order went fine in the end"),
            Check::Unreadable
        );
        // A relation word opening an outcome is a name's word: the field was updated.
        assert!(
            matches!(c("Display name updated"), Check::Either(_, ref h)
                if matches!(**h, Check::Happened(ref h) if h.subject == "display name")),
            "{:?}",
            c("Display name updated")
        );
        assert!(matches!(c("Display \"Saved\""), Check::PageShows(_)));
        // Few words and no relation: an outcome, held only on a message that appears.
        assert!(matches!(c("Everything went well"), Check::Confirmed(..)));
        // Words of showing point at the message; they are not what it says.
        for (t, said) in [
            ("Thanks message displayed", "thanks"),
            ("Thank-you text shown", "thank"),
        ] {
            assert!(
                matches!(c(t), Check::Confirmed(ref w, _) if w == &[said]),
                "{t}: {:?}",
                c(t)
            );
        }
    }

    #[test]
    fn a_submit_that_says_what_was_sent_is_no_plain_submit() {
        let c = |t: &str| parse(t).check;
        assert_eq!(c("The feedback form was submitted"), Check::Submitted);
        for t in [
            "Feedback with satisfaction 3, Website as the only channel used and the comment 'Checkout was slow' was submitted",
            "The rating 4 was submitted",
            "The comment 'Slow' was submitted",
        ] {
            assert_ne!(c(t), Check::Submitted, "{t}");
        }
    }

    #[test]
    fn a_tick_or_a_cross_is_an_items_state() {
        let read = |t: &str| {
            criteria(0, &arc_core::Criterion::Text(t.into()))
                .into_iter()
                .map(|c| c.check)
                .collect::<Vec<_>>()
        };
        // Read as "Walk the dog done" is: the item's state, after the run's action.
        for (t, want) in [
            ("Walk the dog ✓", "State(Done, true)"),
            ("✗ Buy milk", "State(Done, false)"),
        ] {
            let got = format!("{:?}", read(t));
            assert!(got.contains(want), "{t}: {got}");
        }
        assert_eq!(read("Walk the dog ✓"), read("Walk the dog done"));
    }

    #[test]
    fn a_sentence_is_read_whole_negations_included() {
        let c = |t: &str| parse(t).check;
        // What follows a relation is read or the sentence is not.
        for t in [
            "The password reset form was submitted for grace@example.com",
            "The bio reads exactly 'Cartographer' after saving",
            "The cart lists 'Apples' and 'Pears'",
            "'Apples' and 'Pears' are checked",
            "No error message appears",
            "The invite was not clicked",
            // A quote's subject with a clause of its own: the quote alone is not all it says.
            "Afterwards, Budget.xlsx has moved to the Archive section and a 'Budget.xlsx archived' banner is shown",
        ] {
            assert_eq!(c(t), Check::Unreadable, "{t}");
        }
        assert_eq!(
            c("\"Saved\" does not appear"),
            Check::PageLacks("saved".into())
        );
        assert_eq!(
            c("The page no longer shows Draft"),
            Check::PageLacks("draft".into())
        );
        assert!(matches!(
            c("'Meeting notes' no longer appears in the sidebar"),
            Check::LacksIn(t, _) if t == "meeting notes"
        ));
        assert!(matches!(
            c("The returns policy is on screen"),
            Check::Present(_)
        ));
        assert!(matches!(
            c("The email address shows ada@example.org"),
            Check::Either(shows, _) if matches!(&*shows, Check::ElementShows(s, _) if s.query.norm == "email address")
        ));
        assert!(matches!(
            c("The web address contains /orders"),
            Check::UrlContains(u) if u == "/orders"
        ));
        // The field shows it, or the run stored it in the field and the save left.
        assert!(matches!(
            c("The bio reads exactly 'Cartographer in Lisbon.'"),
            Check::Either(shows, stored)
                if matches!(&*shows, Check::ElementShows(_, t) if t == "cartographer in lisbon")
                && matches!(&*stored, Check::Happened(h) if h.value.as_deref() == Some("cartographer in lisbon"))
        ));
    }

    #[test]
    fn every_clause_of_a_sentence_is_a_criterion() {
        let read = criteria(
            3,
            &arc_core::Criterion::Text(
                "The box is ticked, and the 'Password updated' message appears".into(),
            ),
        );
        assert_eq!(read.len(), 2);
        assert!(read.iter().all(|r| r.of == 3));
        assert!(matches!(read[1].check, Check::Present(_)));
    }
}
