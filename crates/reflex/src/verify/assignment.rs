//! A key and a value said of a record, read into a [`Happened`] commit: the terse "K: V"
//! ("Language = Deutsch"), the same said in a sentence ("His email address is X", "the
//! issue's status is now Y", "The Phone field shows X"), and a record named by its title
//! ("A new issue titled T has been created"). `happened` judges them.

use super::super::tokens::Tok;
use super::happened::{event_word, Event, Happened};

/// The normalized words of `t`.
fn words(t: &str) -> Vec<String> {
    super::super::text::normalize(t)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Most words a side of "K: V" may have: a label and a value, not a sentence.
pub(super) const ASSIGNMENT_WORDS: usize = 5;

/// A terse "K: V" or "K = V" ("Language = Deutsch", "Created: Jo's Pipeline"): a key that
/// is one event word says what happened to the value; any other key names a field that
/// must hold the value and be committed. The text's one `:` or `=` outside quotes splits it.
pub(super) fn assignment(text: &str) -> Option<Happened> {
    let mut quoted = false;
    let mut cuts = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '"' | '“' | '”' => quoted = !quoted,
            ':' | '=' if !quoted => cuts.push(i),
            _ => {}
        }
    }
    let [cut] = cuts[..] else {
        return None;
    };
    let side = |t: &str| -> Option<Vec<String>> {
        let words = words(t.trim().trim_end_matches('.'));
        (!words.is_empty() && words.len() <= ASSIGNMENT_WORDS).then_some(words)
    };
    let key = side(&text[..cut])?;
    let value = side(&text[cut + 1..])?;
    let value = value.join(" ");
    let mut h = Happened::new(Event::Committed, String::new());
    match key.as_slice() {
        [one] if event_word(one).is_some_and(|e| matches!(e, Event::Appeared | Event::Gone)) => {
            h.event = event_word(one)?;
            h.subject = value;
        }
        // "Saved: Bio" says what was committed; "Done: X" a state, read elsewhere.
        [one] if event_word(one).is_some() => return None,
        _ => {
            h.subject = key.join(" ");
            h.value = Some(value);
        }
    }
    Some(h)
}

/// The verbs that say a key holds a value, as a sentence says it ("His email address is
/// X", "The status has been changed to In progress", "The Phone field shows X").
const COPULAS: &[&str] = &[
    " has been changed to ",
    " has been updated to ",
    " has been set to ",
    " was changed to ",
    " was updated to ",
    " was set to ",
    " is changed to ",
    " is set to ",
    " is now ",
    " now is ",
    " now shows ",
    " now reads ",
    " shows ",
    " reads ",
    " equals ",
    " is ",
];

/// A key and its value said in a sentence, read as "K: V" ([`assignment`]). A possessive
/// before the key names the record it belongs to ("Ada's email address is X"): the
/// key is what follows it, and the record's words must be on the page. A negated value,
/// or a side longer than a label or a value, is no assignment.
pub(super) fn copula(text: &str) -> Option<Happened> {
    let lower = text.trim().trim_end_matches('.').to_lowercase();
    let quotes = quote_spans(&lower);
    let outside = |i: usize| !quotes.iter().any(|&(a, b)| a < i && i < b);
    let (at, verb) = COPULAS
        .iter()
        .filter_map(|v| {
            lower
                .match_indices(v)
                .find(|(i, _)| outside(*i))
                .map(|(i, _)| (i, *v))
        })
        .min_by_key(|&(i, v)| (i, std::cmp::Reverse(v.len())))?;
    let (key, value) = (&lower[..at], &lower[at + verb.len()..]);
    // A key is a label: a clause break before the verb makes it a sentence ("Hello again
    // Ada, the dashboard is ready").
    if key.contains([',', ';', ':']) {
        return None;
    }
    let (owner, key) = match key.rfind(['\'', '’']) {
        Some(k) if key[k..].starts_with("'s ") || key[k..].starts_with("’s ") => {
            (Some(&key[..k]), &key[k + 3..])
        }
        _ => (None, key),
    };
    // "The Phone field": the field's name, without the word for its kind.
    let key = words(key);
    let key: Vec<&str> = key.iter().map(String::as_str).collect();
    let (stripped, _) = super::super::vocab::strip_role_words(&key);
    // A key that is all a kind's word ("The status is …") is its own name.
    let key: Vec<String> = if stripped.is_empty() {
        key.iter().map(|w| (*w).to_owned()).collect()
    } else {
        stripped
    };
    let key: Vec<String> = key
        .into_iter()
        .filter(|w| !super::super::text::is_stopword(w))
        .collect();
    // A quoted value is the quote, with nothing said beyond it ("reads 'X' after saving"
    // says more than a value).
    let toks = super::super::tokens::tokenize(value);
    let quoted: Vec<&str> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Quote(q) => Some(q.as_str()),
            _ => None,
        })
        .collect();
    let value = match quoted[..] {
        [] => value.to_owned(),
        [q] if toks.iter().all(|t| match t {
            Tok::Word(w) => matches!(w.as_str(), "as" | "exactly"),
            _ => true,
        }) =>
        {
            q.to_owned()
        }
        _ => return None,
    };
    let mut value = words(&value);
    // "shows as X".
    if value.first().is_some_and(|w| w == "as") {
        value.remove(0);
    }
    // "… in the user list": where the value shows, not the value.
    if let Some(k) = value.iter().position(|w| matches!(w.as_str(), "in" | "on")) {
        if k > 0 && value.last().is_some_and(|w| names_a_place(w)) {
            value.truncate(k);
        }
    }
    // "is not X"; "is listed", "is saved": a presence or an event, read elsewhere.
    let negated = value
        .first()
        .is_some_and(|w| matches!(w.as_str(), "not" | "no" | "never" | "none"));
    let event = value.first().is_some_and(|w| {
        event_word(w).is_some()
            || matches!(w.as_str(), "logged" | "signed")
            || matches!(
                w.as_str(),
                "listed" | "shown" | "displayed" | "visible" | "present" | "hidden" | "there"
            )
    });
    if event {
        return None;
    }
    if key.is_empty() || key.len() > ASSIGNMENT_WORDS || value.is_empty() || negated {
        return None;
    }
    if value.len() > ASSIGNMENT_WORDS {
        return None;
    }
    let mut h = Happened::new(Event::Committed, key.join(" "));
    h.value = Some(value.join(" "));
    h.owner = owner
        .map(|o| {
            words(o)
                .into_iter()
                .filter(|w| !super::super::text::is_stopword(w))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|o| !o.is_empty());
    Some(h)
}

/// "A new issue titled T has been created", "a note called T was added": a record named by
/// the words after "titled" (or "named", "called") up to the event that made it — a name,
/// whatever it says ("… never arrives" negates nothing). It holds as T appearing, or as
/// the run's stored edit of the field for that name (a record page that is a form again
/// shows its title only in a field).
pub(super) fn titled(text: &str) -> Option<(Happened, Happened)> {
    let words = words(text);
    let at = words
        .iter()
        .position(|w| matches!(w.as_str(), "titled" | "named" | "called"))?;
    let key = if words[at] == "titled" {
        "title"
    } else {
        "name"
    };
    let last = words.last()?;
    if event_word(last) != Some(Event::Appeared) {
        return None;
    }
    let mut end = words.len() - 1;
    while end > at + 1
        && matches!(
            words[end - 1].as_str(),
            "has"
                | "have"
                | "been"
                | "was"
                | "were"
                | "is"
                | "are"
                | "got"
                | "now"
                | "just"
                | "successfully"
        )
    {
        end -= 1;
    }
    let name = words[at + 1..end].join(" ");
    if name.is_empty() || end - at - 1 > 2 * ASSIGNMENT_WORDS {
        return None;
    }
    let mut stored = Happened::new(Event::Committed, key.to_owned());
    stored.value = Some(name.clone());
    Some((Happened::new(Event::Appeared, name), stored))
}

/// Byte spans of double-quoted text, where a verb is part of the quote.
fn quote_spans(t: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open = None;
    for (i, c) in t.char_indices() {
        if matches!(c, '"' | '“' | '”') {
            match open.take() {
                Some(a) => out.push((a, i)),
                None => open = Some(i),
            }
        }
    }
    out
}

/// A noun for where text shows: a list, a table, a page.
fn names_a_place(w: &str) -> bool {
    super::super::vocab::is_page_word(w)
        || matches!(
            w,
            "list" | "table" | "grid" | "column" | "row" | "results" | "overview" | "section"
        )
}
