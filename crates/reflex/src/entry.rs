//! Master and detail: the goal names one entry of a list ("Set issue #15 to In progress",
//! "Add a comment to the CSV export issue", "find the email by Ann and reply …") and what
//! it needs — a field, a control — is not on the page, because the detail shows once the
//! entry is opened. The entry is named, in this order, by:
//! - the word after "find/locate/open the … by/from";
//! - a reference the goal puts after a kind noun ("issue 15", "order #1044");
//! - its whole name, said among the goal's content words ("Rename the Billing group");
//! - two or more of the goal's content words (any form) that one list entry's item (its
//!   row, card or list item) alone shares most ("the CSV export issue" → "#14 Export to CSV
//!   drops the last row"; "Petra Novak's account" → the row of "pnovak", "Petra", "Novak").
//!
//! The entry is pressed once: a second miss after it hands back as before. And a control
//! that acts on whichever entry is open ("Delete note" in the detail pane) waits for the
//! entry the goal names to be the open one (`unopened`).

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{checkable, clickable, is_field};
use super::history;
use super::inputs::describe;
use super::stem::{is_kind_noun, lacking, same_stem, stem};
use super::step::{Act, StepKind};
use super::text::{is_stopword, normalize};
use super::vocab::Verb;
use arc_core::{Action, ActionRecord, Role};

/// Fewest goal words an entry must share when no word or reference names it: one shared
/// word is a topic ("the billing issue" beside three billing rows), two pick a row.
const MIN_SHARED: usize = 2;

/// The entry to open, when the goal names one the page shows and the run has not pressed.
pub fn open_named(f: &Facts, h: &[ActionRecord], goal: &[Intent]) -> Option<Act> {
    let said = goal.first().map(|i| &*i.said)?;
    let (i, want) = by_word(f, said)
        .or_else(|| by_reference(f, said))
        .or_else(|| {
            let words = content_words(goal, said);
            by_whole_name(f, &words).or_else(|| by_content(f, &words))
        })?;
    if history::clicked_id(h, f.els[i].id.as_str(), None) {
        return None;
    }
    Some(Act {
        action: Action::click(f.els[i].id.clone()),
        kind: StepKind::OpenItem,
        confidence: 0.7,
        margin: 0.7,
        // `item::opened_before` reads this wording back.
        why: format!("open the item showing {want:?} ({})", describe(f, i)),
        order: i,
    })
}

/// "find the email by X", "locate the message from X": X.
fn item_word(said: &str) -> Option<&str> {
    let w: Vec<&str> = said.split(' ').collect();
    w.windows(5).find_map(|x| match x {
        ["find" | "locate" | "open", "the", _, "by" | "from", name] => Some(*name),
        _ => None,
    })
}

fn by_word(f: &Facts, said: &str) -> Option<(usize, String)> {
    let word = item_word(said)?;
    Some((lone_holder(f, word, |_| true)?, word.to_owned()))
}

fn by_reference(f: &Facts, said: &str) -> Option<(usize, String)> {
    let (_, token) = *super::reference::after_kind_noun(said).first()?;
    Some((lone_holder(f, token, |i| is_entry(f, i))?, token.to_owned()))
}

/// The one innermost clickable element (among `admit`) that shows `word` as a whole word
/// of its name or of its content: a row inside a clickable list is the row.
fn lone_holder(f: &Facts, word: &str, admit: impl Fn(usize) -> bool) -> Option<usize> {
    let shows = |k: usize| f.name(k).split(' ').any(|w| w == word);
    let holders: Vec<usize> = (0..f.len())
        .filter(|&i| pressable(f, i) && admit(i))
        .filter(|&i| shows(i) || f.descendants(i).any(shows))
        .collect();
    let inner: Vec<usize> = holders
        .iter()
        .copied()
        .filter(|&i| !holders.iter().any(|&j| j != i && f.is_descendant(j, i)))
        .collect();
    match inner.as_slice() {
        [i] => Some(*i),
        _ => None,
    }
}

fn pressable(f: &Facts, i: usize) -> bool {
    clickable(f, i) && f.els[i].enabled && f.els[i].visible && !is_field(f, i)
}

/// A list's entry: a link, or a control inside a list item, row or tree item — not a
/// box or switch (ticking one changes it; it opens nothing).
fn is_entry(f: &Facts, i: usize) -> bool {
    // A column header's link sorts the list; it opens no entry.
    let in_header = || {
        std::iter::once(i)
            .chain(f.ancestors(i))
            .any(|a| f.els[a].role == Role::ColumnHeader)
    };
    !checkable(&f.els[i].role)
        && !in_header()
        && (f.els[i].role == Role::Link
            || f.els[i].role == Role::Row
            || f.els[i].role == Role::ListItem
            || f.ancestors(i)
                .any(|a| matches!(f.els[a].role, Role::ListItem | Role::Row | Role::TreeItem)))
}

/// The goal's words that could name an entry: not its verbs, stopwords or kind nouns, nor
/// the words of a control it presses or of a literal it quotes ("For Ada, click \"Copy
/// link\"": another row's open "Copy link" is no entry of Ada's).
fn content_words(goal: &[Intent], said: &str) -> Vec<String> {
    let mut not: Vec<String> = Vec::new();
    for it in goal {
        not.extend(it.verb_words.split(' ').map(str::to_owned));
        if let Some(q) = &it.quoted {
            not.extend(normalize(q).split(' ').map(str::to_owned));
        }
        if matches!(it.verb, Verb::Click | Verb::Open) {
            not.extend(it.core.split(' ').map(str::to_owned));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for w in said.split(' ') {
        if w.len() > 1
            && !is_stopword(w)
            && !is_kind_noun(w)
            && !not.iter().any(|n| n == w)
            && !out.iter().any(|o| same_stem(o, w))
        {
            out.push(w.to_owned());
        }
    }
    out
}

/// The page's list entries one could press open.
fn entries(f: &Facts) -> Vec<usize> {
    (0..f.len())
        .filter(|&i| pressable(f, i) && is_entry(f, i))
        .collect()
}

/// The entry whose item (its row, card or list item) shares most of the goal's content
/// words, at least [`MIN_SHARED`] of them: a row's cells name it together ("Petra Novak"
/// beside the row's link "pnovak"). Entries of one item are one candidate: its first.
fn by_content(f: &Facts, words: &[String]) -> Option<(usize, String)> {
    let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
    let all = entries(f);
    let mut scored: Vec<(usize, usize, Vec<&str>)> = Vec::new();
    for &e in &all {
        let item = own_item(f, e, &all);
        if scored.iter().any(|(_, it, _)| *it == item) {
            continue;
        }
        // The item's text stemmed once, not once per goal word.
        let text: Vec<&str> = std::iter::once(item)
            .chain(f.descendants(item))
            .map(|k| f.name(k))
            .collect();
        let missing = lacking(&text.join(" "), &stems);
        let shared = words
            .iter()
            .zip(&stems)
            .filter(|(_, s)| !missing.contains(&s.as_str()))
            .map(|(w, _)| w.as_str())
            .collect();
        scored.push((e, item, shared));
    }
    let (best, item, words) = scored.iter().max_by_key(|(_, _, s)| s.len())?;
    // The same words on an item and inside it are one item, not a tie.
    let tied = scored.iter().any(|(_, it, s)| {
        it != item
            && s.len() == words.len()
            && !f.is_descendant(*it, *item)
            && !f.is_descendant(*item, *it)
    });
    (!tied && words.len() >= MIN_SHARED).then(|| (*best, words.join(" ")))
}

/// The one entry whose whole name the goal says among its content words ("Rename the
/// Billing group to Finance" beside an entry "Billing"): a name said whole names the entry
/// even in one word.
fn by_whole_name(f: &Facts, words: &[String]) -> Option<(usize, String)> {
    let named: Vec<usize> = entries(f)
        .into_iter()
        .filter(|&e| {
            let name = bare(f.name(e));
            !name.is_empty() && name.split(' ').all(|w| words.iter().any(|c| c == w))
        })
        .collect();
    match named.as_slice() {
        [e] => Some((*e, f.name(*e).to_owned())),
        _ => None,
    }
}

/// Before a press on a control outside every entry — a detail pane's "Delete note", which
/// acts on whatever entry is open — for an intent whose object is exactly an entry's name
/// ("Delete the Meeting notes note", "the Pancakes recipe", beside entries "Shopping list",
/// "Meeting notes"): that entry opened first, unless it is the open one (selected, or its name is
/// what the detail's field or heading shows) or the run opened it. Pressing it on the open
/// entry acts on another record than the goal named.
pub fn unopened(f: &Facts, h: &[ActionRecord], it: &Intent, target: usize) -> Option<Act> {
    let object = bare(&it.core);
    if object.is_empty() {
        return None;
    }
    let all = entries(f);
    let named: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| names(&object, &bare(f.name(i))))
        .collect();
    let [e] = named.as_slice() else {
        return None;
    };
    let e = *e;
    let own = own_item(f, e, &all);
    if target == e || f.is_descendant(target, own) || f.els[e].selected == Some(true) {
        return None;
    }
    if history::clicked_id(h, f.els[e].id.as_str(), None) || shown_open(f, e, own) {
        return None;
    }
    Some(Act {
        action: Action::click(f.els[e].id.clone()),
        kind: StepKind::OpenItem,
        confidence: 0.7,
        margin: 0.7,
        why: format!(
            "open the item showing {:?} ({}) before {} acts on it",
            f.name(e),
            describe(f, e),
            describe(f, target)
        ),
        order: e,
    })
}

/// Whether an object names an entry: its words, or its words and then one more that says
/// what kind of record it is ("the Pancakes recipe").
fn names(object: &str, entry: &str) -> bool {
    !entry.is_empty()
        && (object == entry
            || object
                .strip_prefix(entry)
                .and_then(|rest| rest.strip_prefix(' '))
                .is_some_and(|kind| !kind.contains(' ')))
}

/// A phrase without stopwords and kind nouns: "the meeting notes note" → "meeting".
fn bare(norm: &str) -> String {
    norm.split(' ')
        .filter(|w| !w.is_empty() && !is_stopword(w) && !is_kind_noun(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The entry's own item: its highest ancestor that holds no other entry (its row, card
/// or list item).
fn own_item(f: &Facts, e: usize, entries: &[usize]) -> usize {
    let mut own = e;
    for a in f.ancestors(e) {
        if entries
            .iter()
            .any(|&d| d != e && !f.is_descendant(e, d) && f.is_descendant(d, a))
        {
            break;
        }
        own = a;
    }
    own
}

/// Whether the page shows entry `e` as the open one: outside its item, a field holds its
/// name or a heading says it.
fn shown_open(f: &Facts, e: usize, own: usize) -> bool {
    let name = f.name(e);
    (0..f.len()).any(|i| {
        let el = &f.els[i];
        el.visible
            && i != own
            && !f.is_descendant(i, own)
            && ((is_field(f, i)
                && el
                    .value
                    .as_ref()
                    .is_some_and(|v| normalize(&v.as_text()) == name))
                || (el.role == Role::Heading && super::text::contains_phrase(f.name(i), name)))
    })
}
