//! The page's one search field: where a literal goes that names no field but something
//! to look up ("query": "refund", "order": "A-1042" on a goal to find or look up an
//! order), as a person types a reference into the box that finds things rather than
//! hunting for a field called "Order". Only a goal or key that asks to look something up
//! sends it there — a comment whose box is not open yet must not become a site search.

use super::facts::Facts;
use super::ground::is_field;
use super::history;
use super::inputs::describe;
use super::label::adjacent_label;
use super::stem;
use super::step::Act;
use super::text::normalize;
use arc_core::{ActionRecord, Role};

/// Stems of words that ask to look something up or name what is looked up.
const LOOKUP: &[&str] = &[
    "search", "find", "look", "lookup", "queri", "locat", "keyword",
];

fn stems() -> Vec<String> {
    LOOKUP.iter().map(|s| (*s).to_owned()).collect()
}

/// Whether a goal's or an input key's words ask to look something up.
pub fn asks(text: &str) -> bool {
    stem::has_any(&normalize(&text.replace('_', " ")), &stems())
}

/// The one visible, enabled text field the page names for searching (by its name or the
/// label beside it), if there is exactly one.
pub fn lone(f: &Facts) -> Option<usize> {
    let names_search = |i: usize| {
        let label = adjacent_label(f, i).map(|l| f.name(l)).unwrap_or_default();
        let words = format!("{} {label}", f.name(i));
        stem::has_any(&normalize(&words), &["search".to_owned()])
    };
    let found: Vec<usize> = (0..f.len())
        .filter(|&i| {
            let e = &f.els[i];
            e.role == Role::TextField && e.enabled && is_field(f, i) && names_search(i)
        })
        .take(2)
        .collect();
    match found.as_slice() {
        [i] => Some(*i),
        _ => None,
    }
}

/// A search the run typed into the lone search field and has not sent yet: Enter in the
/// field (it holds the focus after typing; a search form submits on Enter, and a search
/// box without a form listens for it). Results appear only once a search is sent, so the
/// goal's next click ("… and open it") waits for this. `None` when the goal sends it
/// itself ("… and press Search") or nothing is waiting.
pub fn send(f: &Facts, h: &[ActionRecord], goal_commits: bool) -> Option<Act> {
    if goal_commits {
        return None;
    }
    let i = lone(f)?;
    let k = history::last_edit(h)?;
    let typed_here = h[k].action.action.target() == Some(&f.els[i].id) && h[k].on_target();
    let holds_text = f.els[i]
        .value
        .as_ref()
        .is_some_and(|v| !v.as_text().trim().is_empty());
    if !typed_here || !holds_text || history::committed_after(h, k) {
        return None;
    }
    Some(super::intents::enter_in(
        i,
        0.9,
        format!("send the search typed into {}", describe(f, i)),
    ))
}
