//! What the page says about a phrase: affirmed by an element that says it, only
//! qualified ("Not saved" for "saved"), or absent — names and values of anything but
//! editable fields, a collapsed disclosure's name never counting as what it hides — and,
//! for absences, any form of its words (stems).

use super::super::affirm::{mention, Mention};
use super::super::facts::Facts;
use super::super::inputs::describe;
use super::super::text::contains_phrase;
use super::holds::is_editable_role;
use arc_core::Role;

/// What visible text says about `phrase`: names, and values of anything but editable
/// fields (what a person typed is not what the page says). Affirmed by one element that
/// says it; Qualified (with the first such element) when every element that contains it
/// negates or qualifies it ("Not saved" for "saved").
pub fn page_mention(f: &Facts, phrase: &str) -> (Mention, Option<usize>) {
    let mut best = Strongest::default();
    let mut buf = String::new();
    for i in 0..f.len() {
        let e = &f.els[i];
        // A collapsed disclosure names what it hides ("What is your returns policy?"):
        // its name is not that content shown.
        if !e.visible
            || matches!(e.role, Role::Document | Role::Window)
            || e.expanded == Some(false)
        {
            continue;
        }
        // The normalized name is the cheap filter; only a match is read for negation.
        if contains_phrase(f.name(i), phrase)
            && !names_collapsed(f, i, phrase)
            && best.affirms(i, mention(&e.name, phrase))
        {
            return (Mention::Affirmed, Some(i));
        }
        if let Some(v) = &e.value {
            if !matches!(
                e.role,
                Role::TextField | Role::PasswordField | Role::SpinButton
            ) {
                let v = v.as_text();
                buf.clear();
                super::super::text::normalize_into(&v, &mut buf);
                if contains_phrase(&buf, phrase) && best.affirms(i, mention(&v, phrase)) {
                    return (Mention::Affirmed, Some(i));
                }
            }
        }
    }
    best.end()
}

/// Mentions seen in order: the first affirmed one wins, else the first qualified.
#[derive(Default)]
pub(super) struct Strongest(Option<usize>);

impl Strongest {
    /// Whether element `i`'s mention affirms (then it is the answer).
    pub(super) fn affirms(&mut self, i: usize, m: Mention) -> bool {
        if m == Mention::Qualified {
            self.0 = self.0.or(Some(i));
        }
        m == Mention::Affirmed
    }

    pub(super) fn end(self) -> (Mention, Option<usize>) {
        match self.0 {
            Some(i) => (Mention::Qualified, Some(i)),
            None => (Mention::Absent, None),
        }
    }
}

/// Whether element `i` says `phrase` only as the name of a collapsed disclosure: its own
/// text inside one, or a heading that holds one ("What is your returns policy?" names
/// the answer it hides, it does not show it).
pub(super) fn names_collapsed(f: &Facts, i: usize, phrase: &str) -> bool {
    let collapsed = |d: usize| f.els[d].expanded == Some(false);
    f.ancestors(i).any(collapsed)
        || f.descendants(i)
            .any(|d| collapsed(d) && contains_phrase(f.name(d), phrase))
}

/// Whether the page says `phrase` (not merely mentions it); if not, why.
pub(super) fn page_says(f: &Facts, phrase: &str) -> Result<usize, String> {
    match page_mention(f, phrase) {
        (Mention::Affirmed, Some(i)) => Ok(i),
        (Mention::Qualified, Some(i)) => Err(only_qualified(f, i, phrase)),
        _ => Err(format!("no visible text contains {phrase:?}")),
    }
}

pub(super) fn only_qualified(f: &Facts, i: usize, phrase: &str) -> String {
    format!(
        "{phrase:?} shows only negated or qualified, as in {}",
        describe(f, i)
    )
}

/// Whether something is still there: the first visible element among `among` (not an
/// editable field) whose words, by their stems, hold every word that names the thing
/// (`stem::content_stems`: "the shopping list note" is still there while "Shopping list"
/// shows). `Err` when the phrase names only a kind ("the note"): then absence says nothing.
pub(super) fn stem_mention(
    f: &Facts,
    among: impl Iterator<Item = usize>,
    phrase: &str,
) -> Result<Option<usize>, String> {
    let want = super::super::stem::content_stems(phrase);
    if want.is_empty() {
        return Err(format!("{phrase:?} names a kind of thing, not which one"));
    }
    let mut buf = String::new();
    for i in among {
        let e = &f.els[i];
        if !e.visible
            || matches!(e.role, Role::Document | Role::Window)
            || is_editable_role(&e.role)
        {
            continue;
        }
        if super::super::stem::has_all(f.name(i), &want) {
            return Ok(Some(i));
        }
        if let Some(v) = &e.value {
            buf.clear();
            super::super::text::normalize_into(&v.as_text(), &mut buf);
            if super::super::stem::has_all(&buf, &want) {
                return Ok(Some(i));
            }
        }
    }
    Ok(None)
}
