//! Verification criteria, read once and checked against each snapshot: "the page shows X",
//! "X appears", "the Email field contains X", "X is checked/selected/visible", "the URL
//! contains X". A criterion this cannot read never holds: completion is claimed only on
//! evidence.

use super::ordinal::Nth;
use super::text::{is_stopword, normalize, Query};
use super::tokens::{tokenize, Tok};
use super::vocab::{is_close_glyph, is_page_word, strip_role_words};

mod acknowledged;
mod around;
mod check;
mod describe;
mod happened;
mod holds;
mod mention;
mod outcome;
mod stated;
pub use acknowledged::acknowledged;
use around::{absent, is_filler, negation, tail, Tail};
pub use check::{Bounds, Check, Criterion, FieldMatch, State, Subject};
pub use holds::{field_subject, holds, judge, subject_element};
pub use outcome::{note_commit, note_start, says_outcome};

const TEXT_RELATIONS: &[&[&str]] = &[
    &["has", "the", "value"],
    &["has", "value"],
    &["has", "the", "text"],
    &["has", "text"],
    &["is", "set", "to"],
    &["is", "filled", "with"],
    &["contains"],
    &["contain"],
    &["includes"],
    &["include"],
    &["equals"],
    &["reads"],
    &["ends", "with"],
    &["shows"],
    &["show"],
    &["displays"],
    &["display"],
    &["says"],
    &["lists"],
];

const PRESENCE: &[&[&str]] = &[
    &["becomes", "visible"],
    &["is", "visible"],
    &["are", "visible"],
    &["is", "shown"],
    &["are", "shown"],
    &["is", "displayed"],
    &["are", "displayed"],
    &["is", "present"],
    &["appears"],
    &["appear"],
    &["exists"],
];

/// Event verbs, read in the passive ([`passive`]): the participles that say so.
const CLICKED: &[&str] = &["clicked", "pressed", "tapped"];
const HIGHLIGHTED: &[&str] = &["highlighted"];
const SUBMITTED: &[&str] = &["submitted"];

const ABSENCE: &[&[&str]] = &[
    &["is", "not", "visible"],
    &["is", "not", "shown"],
    &["is", "not", "displayed"],
    &["is", "hidden"],
    &["is", "gone"],
    &["disappears"],
];

fn state_word(w: &str) -> Option<(State, bool)> {
    Some(match w {
        "checked" | "ticked" | "selected" | "chosen" | "active" | "on" => (State::Checked, true),
        "unchecked" | "unticked" | "deselected" | "unselected" | "off" => (State::Checked, false),
        "expanded" | "open" | "opened" => (State::Expanded, true),
        "collapsed" | "closed" => (State::Expanded, false),
        "enabled" => (State::Active, true),
        "disabled" => (State::Active, false),
        "focused" => (State::Focused, true),
        "done" | "complete" | "completed" | "finished" => (State::Done, true),
        "incomplete" | "unfinished" | "undone" | "uncompleted" => (State::Done, false),
        _ => return None,
    })
}

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
    const PLURAL: [(&str, &str); 4] = [
        (" have been ", "has been"),
        (" have ", "has"),
        (" are ", "is"),
        (" were ", "was"),
    ];
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
    if a.is_empty() || b.is_empty() || rest.is_empty() {
        return None;
    }
    if states(&parse(a).check) || states(&parse(b).check) {
        return None;
    }
    let each = [
        format!("{a} {singular} {rest}"),
        format!("{b} {singular} {rest}"),
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
    Criterion {
        text: text.to_owned(),
        check,
        of: 0,
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

fn word(t: &Tok) -> Option<&str> {
    match t {
        Tok::Word(w) => Some(w),
        _ => None,
    }
}

/// A subject that says what was sent, not only which form ("Feedback with satisfaction 3
/// and the comment 'Slow' was submitted"): a submit says nothing of those details,
/// so the sentence is no plain submit.
fn detailed(subj: &[Tok]) -> bool {
    subj.iter().any(|t| match t {
        Tok::Quote(_) => true,
        Tok::Word(w) => {
            w.chars().any(|c| c.is_ascii_digit())
                || matches!(
                    w.as_str(),
                    "with" | "as" | "including" | "containing" | "where"
                )
        }
        Tok::Break => false,
    })
}

/// Whether `phrase` starts at token `at`.
fn phrase_at(toks: &[Tok], at: usize, phrase: &[&str]) -> bool {
    toks.len() >= at + phrase.len()
        && phrase
            .iter()
            .zip(&toks[at..])
            .all(|(p, t)| word(t) == Some(p))
}

fn read(toks: &[Tok]) -> Option<Check> {
    for at in 0..toks.len() {
        if [["starts", "with"], ["begins", "with"]]
            .iter()
            .any(|p| phrase_at(toks, at, p))
        {
            return affix(&toks[..at], &toks[at + 2..]);
        }
        if let Some(n) = passive(toks, at, SUBMITTED) {
            return Some(match (negation(toks, at), tail(&toks[at + n..])) {
                (None, Tail::Plain) if !detailed(&toks[..at]) => Check::Submitted,
                _ => Check::Unreadable,
            });
        }
        if let Some(n) = passive(toks, at, HIGHLIGHTED) {
            if negation(toks, at).is_some() || !matches!(tail(&toks[at + n..]), Tail::Plain) {
                return Some(Check::Unreadable);
            }
            let subj = &toks[..at];
            let words: Vec<&str> = subj.iter().filter_map(word).collect();
            let quoted = subj.iter().find_map(|t| match t {
                Tok::Quote(q) => Some(q.clone()),
                _ => None,
            });
            return Some(Check::Highlighted(words.join(" "), quoted));
        }
        if let Some(n) = passive(toks, at, CLICKED) {
            return match (negation(toks, at), tail(&toks[at + n..])) {
                (None, Tail::Plain) => Some(Check::Clicked(subject(&toks[..at])?)),
                _ => Some(Check::Unreadable),
            };
        }
        if let Some(p) = ABSENCE.iter().find(|p| phrase_at(toks, at, p)) {
            return match (negation(toks, at), tail(&toks[at + p.len()..])) {
                (None, Tail::Plain) => Some(Check::PageLacks(plain(&toks[..at])?)),
                _ => Some(Check::Unreadable),
            };
        }
        if let Some(p) = PRESENCE.iter().find(|p| phrase_at(toks, at, p)) {
            let mut negated = negation(toks, at);
            let mut subj = &toks[..at - negated.unwrap_or(0)];
            // "No error appears", "no draft is shown".
            if negated.is_none() && subj.first().and_then(word) == Some("no") {
                negated = Some(0);
                subj = &subj[1..];
            }
            return match (negated, tail(&toks[at + p.len()..])) {
                (None, Tail::Plain) => Some(Check::Present(subject(subj)?)),
                (None, Tail::State(state, want)) => state_check(subj, None, state, want),
                (None, Tail::Within(scope)) => Some(Check::ShowsIn(plain(subj)?, scope)),
                (Some(_), Tail::Plain) => {
                    Some(absent(subj).map_or(Check::Unreadable, Check::PageLacks))
                }
                (Some(_), Tail::Within(scope)) => {
                    Some(absent(subj).map_or(Check::Unreadable, |p| Check::LacksIn(p, scope)))
                }
                _ => Some(Check::Unreadable),
            };
        }
        if let Some(p) = TEXT_RELATIONS.iter().find(|p| phrase_at(toks, at, p)) {
            // "The Display name field contains X": a relation word with nothing but an
            // article before it is a name's word; a later relation is the verb.
            let bare = toks[..at]
                .iter()
                .all(|t| matches!(word(t), Some("the" | "a" | "an")));
            if at > 0 && bare && later_relation(toks, at + 1) {
                continue;
            }
            let negated = negation(toks, at);
            let subj = &toks[..at - negated.unwrap_or(0)];
            let read = text_check(subj, &toks[at + p.len()..]);
            return match (negated, read) {
                (None, read) => read,
                // "The page no longer shows X".
                (Some(_), Some(Check::PageShows(text))) => Some(Check::PageLacks(text)),
                (Some(_), _) => Some(Check::Unreadable),
            };
        }
        if matches!(
            word(&toks[at]),
            Some(
                "is" | "are" | "becomes" | "gets" | "was" | "remains" | "remain" | "stays" | "stay"
            )
        ) {
            // "is not checked", "is no longer checked".
            let not = match (
                toks.get(at + 1).and_then(word),
                toks.get(at + 2).and_then(word),
            ) {
                (Some("no"), Some("longer")) => 2,
                (Some("not"), _) => 1,
                _ => 0,
            };
            let negated = not > 0;
            let mut k = at + 1 + not;
            // "the boxes are left unticked", "the box is still checked", "the task
            // is marked as done".
            while matches!(
                toks.get(k).and_then(word),
                Some("left" | "kept" | "still" | "now" | "marked" | "set" | "as" | "being")
            ) {
                k += 1;
            }
            let next = toks.get(k).and_then(word);
            // "The returns policy is on screen": where it is, not a switch that is on.
            if next == Some("on")
                && k + 1 < toks.len()
                && matches!(tail(&toks[k + 1..]), Tail::Plain)
            {
                return Some(if negated {
                    absent(&toks[..at]).map_or(Check::Unreadable, Check::PageLacks)
                } else {
                    Check::Present(subject(&toks[..at])?)
                });
            }
            // "'Buy milk' is in the list".
            if matches!(next, Some("in" | "inside" | "within" | "under" | "among")) {
                if let Tail::Within(scope) = tail(&toks[k..]) {
                    return Some(if negated {
                        Check::Unreadable
                    } else {
                        Check::ShowsIn(plain(&toks[..at])?, scope)
                    });
                }
            }
            if let Some((state, want)) = next.and_then(state_word) {
                // What follows the state must not change it ("checked in the list" is
                // the same state; "checked by the admin" is not read).
                return match tail(&toks[k + 1..]) {
                    Tail::Plain | Tail::Within(_) => {
                        state_check(&toks[..at], next, state, want != negated)
                    }
                    _ => Some(Check::Unreadable),
                };
            }
        }
    }
    None
}

/// An event said in the passive at `at` — a finite auxiliary, more auxiliaries or
/// adverbs, then one of `participles` ("was clicked", "have now been pressed", "got
/// submitted"): the number of words it spans.
fn passive(toks: &[Tok], at: usize, participles: &[&str]) -> Option<usize> {
    let finite = matches!(
        word(toks.get(at)?)?,
        "is" | "are" | "was" | "were" | "has" | "have" | "had" | "got" | "gets" | "get"
    );
    if !finite {
        return None;
    }
    let mut k = at + 1;
    while matches!(
        toks.get(k).and_then(word),
        Some("been" | "being" | "be" | "now" | "already" | "just" | "successfully" | "also")
    ) {
        k += 1;
    }
    participles
        .contains(&word(toks.get(k)?)?)
        .then_some(k + 1 - at)
}

fn later_relation(toks: &[Tok], from: usize) -> bool {
    (from..toks.len()).any(|at| TEXT_RELATIONS.iter().any(|p| phrase_at(toks, at, p)))
}

/// A state criterion: a group's members, else one element.
fn state_check(subj: &[Tok], said: Option<&str>, state: State, want: bool) -> Option<Check> {
    if let Some(g) = group_subject(subj, said, state, want) {
        return Some(g);
    }
    Some(Check::ElementState(subject(subj)?, state, want))
}

/// `starts with "P" [and|but ends with "S"]`: the quotes as written (case kept).
fn affix(subj: &[Tok], rest: &[Tok]) -> Option<Check> {
    let Some(Tok::Quote(prefix)) = rest.first() else {
        return None;
    };
    let after = &rest[1..];
    let at = usize::from(matches!(after.first().and_then(word), Some("and" | "but")));
    let suffix = match (
        after.get(at).and_then(word),
        after.get(at + 1).and_then(word),
    ) {
        (Some("ends"), Some("with")) => match after.get(at + 2) {
            Some(Tok::Quote(q)) => Some(q.clone()),
            _ => return None,
        },
        _ => None,
    };
    Some(Check::Affix(subject(subj)?, prefix.clone(), suffix))
}

/// A subject naming a group ("every notification is closed"): the kind of member its
/// state word speaks of — "closed" notices go away, "closed" sections collapse.
fn group_subject(subj: &[Tok], said: Option<&str>, state: State, want: bool) -> Option<Check> {
    use super::group::{parse, Kind};
    let words: Vec<&str> = subj.iter().filter_map(word).collect();
    if subj.iter().any(|t| matches!(t, Tok::Quote(_))) {
        return None;
    }
    let g = parse(&words.join(" "))?;
    let disclosure_noun = matches!(
        g.noun.as_str(),
        "section" | "panel" | "folder" | "group" | "accordion" | "item" | "node" | "category"
    );
    let kind = match state {
        State::Checked | State::Done => Kind::Checkable,
        State::Expanded if !want && said == Some("closed") && !disclosure_noun => Kind::Closer,
        State::Expanded => Kind::Disclosure,
        State::Enabled | State::Active | State::Focused => return None,
    };
    Some(Check::Group(g, kind, want))
}

/// The subject or object as plain text: a quote if there is one, else the words.
fn plain(toks: &[Tok]) -> Option<String> {
    if let Some(q) = toks.iter().find_map(|t| match t {
        Tok::Quote(q) => Some(q),
        _ => None,
    }) {
        return Some(normalize(q)).filter(|s| !s.is_empty());
    }
    // "shows the text X", "shows a message X": the words that only announce the text.
    let words: Vec<&str> = toks.iter().filter_map(word).collect();
    let start = words
        .iter()
        .position(|w| {
            !matches!(
                *w,
                "the" | "a" | "an" | "text" | "message" | "words" | "value" | "label"
            )
        })
        .unwrap_or(words.len());
    Some(words[start..].join(" ")).filter(|s| !s.is_empty())
}

pub(super) fn subject(toks: &[Tok]) -> Option<Subject> {
    // Two quotes name two things; which one the relation is about is not said.
    if toks.iter().filter(|t| matches!(t, Tok::Quote(_))).count() > 1 {
        return None;
    }
    if let Some(q) = toks.iter().find_map(|t| match t {
        Tok::Quote(q) => Some(q),
        _ => None,
    }) {
        let words: Vec<&str> = toks.iter().filter_map(word).collect();
        let (_, roles) = strip_role_words(&words);
        // A close control shows "×" and is named "Close".
        let q = if is_close_glyph(q) {
            "close"
        } else {
            q.as_str()
        };
        return Some(Subject {
            query: Query::new(q),
            quoted: true,
            roles,
            nth: None,
        });
    }
    let words: Vec<&str> = toks.iter().filter_map(word).collect();
    let (rest, roles) = strip_role_words(&words);
    let rest: Vec<&str> = rest
        .iter()
        .map(String::as_str)
        .filter(|w| !is_stopword(w))
        .collect();
    if rest.is_empty() && roles.is_empty() {
        return None;
    }
    let (nth, others) = Nth::split(&rest);
    let nth = nth.filter(|_| others.is_empty() && !roles.is_empty());
    Some(Subject {
        query: Query::from_norm(if nth.is_some() {
            String::new()
        } else {
            rest.join(" ")
        }),
        quoted: false,
        roles,
        nth,
    })
}

fn text_check(subj: &[Tok], obj: &[Tok]) -> Option<Check> {
    if let [Tok::Word(the), Tok::Word(value), Tok::Word(of), key @ ..] = obj {
        if the == "the" && value == "value" && of == "of" && !key.is_empty() {
            let key = match key {
                [Tok::Quote(q), ..] => q.clone(),
                _ => key.iter().filter_map(word).collect::<Vec<_>>().join(" "),
            };
            return Some(Check::ValueOf(subject(subj)?, key));
        }
    }
    // The object is the quote alone ("reads exactly 'X'"): words beyond it ("…after
    // saving", "and 'Y'") say more than this check reads.
    let quotes = obj.iter().filter(|t| matches!(t, Tok::Quote(_))).count();
    let beyond = obj.iter().filter_map(word).any(|w| {
        !is_filler(w)
            && !matches!(
                w,
                "exactly"
                    | "text"
                    | "message"
                    | "words"
                    | "value"
                    | "label"
                    | "still"
                    | "only"
                    | "just"
                    | "precisely"
            )
    });
    if quotes > 1 || (quotes == 1 && beyond) {
        return Some(Check::Unreadable);
    }
    let text = plain(obj)?;
    let words: Vec<&str> = subj.iter().filter_map(word).collect();
    let quoted = subj.iter().any(|t| matches!(t, Tok::Quote(_)));
    let content: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !is_stopword(w) && !is_page_word(w))
        .collect();
    if !quoted && content.is_empty() {
        return Some(Check::PageShows(text));
    }
    if !quoted
        && content
            .iter()
            .any(|w| matches!(*w, "url" | "address" | "location"))
    {
        return Some(Check::UrlContains(String::new()));
    }
    if !quoted && content == ["title"] {
        return Some(Check::TitleContains(text));
    }
    Some(Check::ElementShows(subject(subj)?, text))
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
            c("The bio reads exactly 'Cartographer in Lisbon.'"),
            Check::ElementShows(_, t) if t == "cartographer in lisbon"
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
