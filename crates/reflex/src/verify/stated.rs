//! A check the planner stated ([`arc_core::Check`]) as the reflex judges it: the same
//! checks an English criterion is read into, so a stated check and a sentence that says
//! the same are held on the same evidence. Names are grounded as a quote is (nearly
//! exactly); a role, when given, is the only role admitted.

use super::super::spread::{Count, Spread};
use super::super::text::{normalize, Query};
use super::super::tokens::tokenize;
use super::{Bounds, Check, FieldMatch, State, Subject};
use arc_core::check::{Check as Stated, Scope, StateName};
use arc_core::Role;

pub fn read(c: &Stated) -> Check {
    match c {
        Stated::TextPresent { text, within: None } => Check::PageShows(normalize(text)),
        Stated::TextPresent {
            text,
            within: Some(s),
        } => Check::ShowsIn(normalize(text), scope(s)),
        Stated::TextAbsent { text, within: None } => Check::PageLacks(normalize(text)),
        Stated::TextAbsent {
            text,
            within: Some(s),
        } => Check::LacksIn(normalize(text), scope(s)),
        // The field as a sentence names it ("the textbox"): role words are its kind.
        Stated::FieldValue {
            field,
            shown_for: Some(key),
            ..
        } => super::subject(&tokenize(field)).map_or(Check::Unreadable, |s| {
            Check::ValueOf(s, key.trim().to_owned())
        }),
        Stated::FieldValue {
            field,
            equals,
            contains,
            ..
        } => {
            let m = match (equals, contains) {
                (Some(e), _) => FieldMatch::Equals(normalize_value(e)),
                (None, Some(c)) => FieldMatch::Contains(normalize_value(c)),
                (None, None) => return Check::Unreadable,
            };
            Check::FieldValue(
                Subject {
                    query: Query::new(field),
                    quoted: false,
                    roles: Vec::new(),
                    nth: None,
                },
                m,
            )
        }
        Stated::ElementState {
            element,
            role,
            state,
            value,
        } => {
            let state = match state {
                // Read from the control itself (or the caption beside it), never inferred
                // from a click: a stated check is about the page.
                StateName::Checked | StateName::Selected => State::Done,
                StateName::Expanded => State::Expanded,
                StateName::Enabled => State::Enabled,
                StateName::Focused => State::Focused,
            };
            Check::ElementState(named(element, role.as_ref()), state, *value)
        }
        Stated::Url {
            equals: Some(e), ..
        } => Check::UrlIs(e.trim().to_lowercase()),
        Stated::Url {
            contains: Some(c), ..
        } => Check::UrlContains(c.trim().to_lowercase()),
        Stated::Title {
            equals: Some(e), ..
        } => Check::TitleIs(normalize(e)),
        Stated::Title {
            contains: Some(c), ..
        } => Check::TitleContains(normalize(c)),
        Stated::Url { .. } | Stated::Title { .. } => Check::Unreadable,
        Stated::Count {
            name,
            role,
            equals,
            at_least,
            at_most,
        } => Check::Count(
            named(name.as_deref().unwrap_or_default(), role.as_ref()),
            Bounds {
                at_least: equals.or(*at_least).unwrap_or(0),
                at_most: equals.or(*at_most),
            },
        ),
        Stated::NoneRemain { name, role } => Check::Count(
            named(name, role.as_ref()),
            Bounds {
                at_least: 0,
                at_most: Some(0),
            },
        ),
        Stated::Clicked {
            element,
            role,
            within,
            nth,
        } => {
            let s = named(element.as_deref().unwrap_or_default(), role.as_ref());
            match (nth, within) {
                (Some(n), _) => Check::ClickedNth(*n as usize),
                (None, Some(i)) if i.every || i.count.is_some() => Check::ClickedEach(
                    s,
                    Spread {
                        count: i.count.map_or(Count::All, |n| Count::Exactly(n as usize)),
                        word: i.text.clone(),
                    },
                ),
                (None, Some(i)) => Check::ClickedIn(s, i.text.clone()),
                (None, None) => Check::Clicked(s),
            }
        }
        Stated::ValuesByLabel {} => Check::ValuesByLabel,
        Stated::Downloaded { name } => Check::Downloaded(
            name.as_deref()
                .map(super::super::text::normalize)
                .unwrap_or_default(),
        ),
    }
}

/// A field's value as compared: case and runs of whitespace folded, nothing else.
pub fn normalize_value(v: &str) -> String {
    v.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn named(name: &str, role: Option<&Role>) -> Subject {
    Subject {
        query: Query::new(name),
        quoted: !name.trim().is_empty(),
        roles: role.into_iter().cloned().collect(),
        nth: None,
    }
}

fn scope(s: &Scope) -> Subject {
    named(s.name.as_deref().unwrap_or_default(), s.role.as_ref())
}
