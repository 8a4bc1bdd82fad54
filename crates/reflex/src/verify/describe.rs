//! A check in words, for the result's evidence.

use super::{Check, FieldMatch, State, Subject};

impl Check {
    /// The check in words, for the result's evidence.
    pub fn describe(&self) -> String {
        let s = |s: &Subject| {
            let roles: Vec<&str> = s.roles.iter().map(|r| r.as_str()).collect();
            match (s.query.is_empty(), roles.is_empty()) {
                (false, true) => format!("{:?}", s.query.norm),
                (false, false) => format!("{:?} ({})", s.query.norm, roles.join("/")),
                (true, _) => format!("the {}", roles.join("/")),
            }
        };
        let state = |st: &State, on: bool| super::holds::state_name(*st, on);
        match self {
            Check::PageShows(p) => format!("text {p:?} shown outside fields"),
            Check::PageLacks(p) => format!("no text {p:?} (any form of its words)"),
            Check::ElementShows(e, p) => format!("{} shows {p:?}", s(e)),
            Check::ElementState(e, st, on) => format!("{} is {}", s(e), state(st, *on)),
            Check::Clicked(e) => format!("the run clicked {}", s(e)),
            Check::ClickedIn(e, w) => format!("the run clicked {} in the item showing {w:?}", s(e)),
            Check::ClickedEach(e, _) => format!("the run clicked {} in each item named", s(e)),
            Check::Group(..) => "every member of the group in the state".into(),
            Check::MenuPath(p) => format!("the run chose the menu path {}", p.join(" > ")),
            Check::Submitted => "the run submitted after its last edit".into(),
            Check::Affix(e, p, x) => format!(
                "{} starts with {p:?}{}",
                s(e),
                x.as_ref()
                    .map(|x| format!(", ending in {x:?}"))
                    .unwrap_or_default()
            ),
            Check::Highlighted(o, _) => format!("the run selected the text of {o:?}"),
            Check::ValueOf(e, k) => format!("{} holds the value shown for {k:?}", s(e)),
            Check::ValuesByLabel => {
                "each labelled field holds the value shown for its label".into()
            }
            Check::Downloaded(w) if w.is_empty() => "the run downloaded a file".into(),
            Check::Downloaded(w) => format!("the run downloaded {w:?}"),
            Check::ClickedNth(n) => format!("the run clicked result {n} of the list"),
            Check::Present(e) => format!("{} on screen", s(e)),
            Check::ShowsIn(p, scope) => format!("text {p:?} inside {}", s(scope)),
            Check::LacksIn(p, scope) => format!("no text {p:?} inside {}", s(scope)),
            Check::FieldValue(e, FieldMatch::Equals(v)) => format!("field {} is {v:?}", s(e)),
            Check::FieldValue(e, FieldMatch::Contains(v)) => {
                format!("field {} contains {v:?}", s(e))
            }
            Check::Count(e, b) => match b.at_most {
                Some(hi) if hi == b.at_least => format!("{hi} visible {}", s(e)),
                Some(hi) => format!("{} to {hi} visible {}", b.at_least, s(e)),
                None => format!("at least {} visible {}", b.at_least, s(e)),
            },
            Check::UrlContains(u) => format!("the URL contains {u:?}"),
            Check::UrlIs(u) => format!("the URL is {u:?}"),
            Check::TitleContains(t) => format!("the title contains {t:?}"),
            Check::TitleIs(t) => format!("the title is {t:?}"),
            Check::Confirmed(stems, _) => {
                format!("a message that appeared says {}", stems.join(" + "))
            }
            Check::Happened(h) => h.describe(),
            Check::Either(a, b) => format!("{}, or {}", a.describe(), b.describe()),
            Check::Unreadable => "unreadable".into(),
        }
    }
}
