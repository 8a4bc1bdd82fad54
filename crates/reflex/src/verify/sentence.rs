//! One sentence read into a check: its relation ("shows", "is checked", "was submitted",
//! "starts with"), what stands before it (the subject) and after it (the object, a state,
//! a scope). `mod.rs` splits criteria into sentences; this reads each.

use super::super::ordinal::Nth;
use super::super::text::{is_stopword, normalize, Query};
use super::super::tokens::Tok;
use super::super::vocab::{is_auxiliary, is_close_glyph, is_page_word, strip_role_words};
use super::around::{absent, is_filler, negation, tail, Tail};
use super::{Check, State, Subject};

pub(super) const TEXT_RELATIONS: &[&[&str]] = &[
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

pub(super) const PRESENCE: &[&[&str]] = &[
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

pub(super) const ABSENCE: &[&[&str]] = &[
    &["is", "not", "visible"],
    &["is", "not", "shown"],
    &["is", "not", "displayed"],
    &["is", "hidden"],
    &["is", "gone"],
    &["disappears"],
];

pub(super) fn state_word(w: &str) -> Option<(State, bool)> {
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

pub(super) fn word(t: &Tok) -> Option<&str> {
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

pub(super) fn read(toks: &[Tok]) -> Option<Check> {
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
        if let Some((n, negated, was_there)) = listed(toks, at) {
            let subj = &toks[..at];
            // "X is listed" says nothing of the verbs before it: "X has been deleted and
            // is not listed" is two statements, not one about "X has been deleted".
            if subj.iter().filter_map(word).any(is_auxiliary) {
                return Some(Check::Unreadable);
            }
            return match (negated, tail(&toks[at + n..])) {
                (false, Tail::Plain) => Some(Check::Present(subject(subj)?)),
                (false, Tail::Within(scope)) => Some(Check::ShowsIn(plain(subj)?, scope)),
                // "No longer listed", "not listed any more": gone, not merely absent.
                (true, Tail::Plain) if was_there => {
                    Some(absent(subj).map_or(Check::Unreadable, went))
                }
                (true, Tail::Plain) => {
                    Some(absent(subj).map_or(Check::Unreadable, Check::PageLacks))
                }
                (true, Tail::Within(scope)) => {
                    Some(absent(subj).map_or(Check::Unreadable, |p| Check::LacksIn(p, scope)))
                }
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
                // "X no longer appears" says X was there: gone, not merely absent.
                (Some(_), Tail::Plain) if no_longer(toks, at) => {
                    Some(absent(subj).map_or(Check::Unreadable, went))
                }
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
            // "Display name updated": a sentence that opens on the relation word and ends
            // on what happened names a thing by it; it is an outcome, not an order to show.
            if at == 0 && super::happened::read(toks).is_some() {
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

/// Being listed, at `at`: "is listed", "are still listed", "remains listed", "is no longer
/// listed", "is not listed any more", and a bare "remain(s)" that ends the clause or
/// opens its scope ("Kim and Raj remain"): the words it spans, whether it is negated, and
/// whether the negation says it was listed before ("no longer", "any more").
fn listed(toks: &[Tok], at: usize) -> Option<(usize, bool, bool)> {
    let w = |k: usize| toks.get(k).and_then(word);
    let lasting = matches!(w(at)?, "remains" | "remain");
    if !lasting && !matches!(w(at)?, "is" | "are" | "was" | "were") {
        return None;
    }
    let mut k = at + 1;
    let mut was_there = false;
    let negated = match (w(k), w(k + 1)) {
        (Some("no"), Some("longer")) => {
            k += 2;
            was_there = true;
            true
        }
        (Some("not"), _) => {
            k += 1;
            true
        }
        _ => false,
    };
    while matches!(w(k), Some("still" | "now" | "also" | "again")) {
        k += 1;
    }
    if w(k) == Some("listed") {
        k += 1;
    } else if !(lasting && !negated && k == at + 1) {
        return None;
    } else if w(k).is_some_and(|n| !matches!(n, "in" | "inside" | "within" | "under" | "among")) {
        // "remains checked": a state, read elsewhere.
        return None;
    }
    // "is not listed any more".
    if negated && (w(k), w(k + 1)) == (Some("any"), Some("more")) {
        k += 2;
        was_there = true;
    } else if negated && w(k) == Some("anymore") {
        k += 1;
        was_there = true;
    }
    Some((k - at, negated, was_there))
}

/// "no longer" just before `at`.
fn no_longer(toks: &[Tok], at: usize) -> bool {
    at >= 2 && word(&toks[at - 2]) == Some("no") && word(&toks[at - 1]) == Some("longer")
}

/// What was shown and went: the words' going, as `happened` judges it.
fn went(words: String) -> Check {
    Check::Happened(Box::new(super::happened::gone(&words)))
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
    use super::super::group::{parse, Kind};
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

/// An object that names a screen by a word for one after its name ("the logged out page",
/// "the Billing dashboard"), with no quote: the screen as a subject.
fn screen_shown(obj: &[Tok]) -> Option<Subject> {
    if obj.iter().any(|t| !matches!(t, Tok::Word(_))) {
        return None;
    }
    let words: Vec<&str> = obj
        .iter()
        .filter_map(word)
        .filter(|w| !matches!(*w, "the" | "a" | "an"))
        .collect();
    let (last, name) = words.split_last()?;
    let screen = matches!(*last, "page" | "screen" | "dashboard" | "homepage");
    (screen && !name.is_empty()).then(|| subject(obj)).flatten()
}

/// The subject or object as plain text: a quote if there is one, else the words.
pub(super) fn plain(toks: &[Tok]) -> Option<String> {
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
        // "After confirming, X has moved … and a 'X archived' banner is shown": a subject
        // with a clause of its own says more than its quote; reading the quote alone would
        // drop the rest.
        if toks.iter().any(|t| matches!(t, Tok::Break)) || words.iter().any(|w| is_auxiliary(w)) {
            return None;
        }
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
    // "The admin shows the logged out page": a screen shown, whichever app shows it.
    if let Some(screen) = screen_shown(obj) {
        return Some(Check::Present(screen));
    }
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
    // "The URL", "the web address": every word speaks of the address bar. "The email
    // address" names a field.
    let url = |w: &str| matches!(w, "url" | "address" | "location");
    if !quoted
        && content.iter().any(|w| url(w))
        && content
            .iter()
            .all(|w| url(w) || matches!(*w, "web" | "bar"))
    {
        return Some(Check::UrlContains(String::new()));
    }
    if !quoted && content == ["title"] {
        return Some(Check::TitleContains(text));
    }
    Some(Check::ElementShows(subject(subj)?, text))
}
