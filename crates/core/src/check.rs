//! Checks a planner states exactly, beside criteria in English: `verification` holds
//! strings (the reference's form) or check objects, `{"check": "text_present", "text":
//! "Saved"}`. A check says what must be true of the page; which element decides it, and
//! how, is the policy's to find and the result's to show (its evidence).

use crate::error::{clip, MAX_QUOTED_CHARS};
use crate::role::Role;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One verification criterion: a sentence, or a check.
#[derive(Clone, Debug, PartialEq)]
pub enum Criterion {
    Text(String),
    Check(Check),
}

impl Criterion {
    /// The criterion as a person reads it: the sentence, or the check in words.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Criterion::Text(t) => t.into(),
            Criterion::Check(c) => c.to_string().into(),
        }
    }

    pub fn as_text(&self) -> Option<&str> {
        match self {
            Criterion::Text(t) => Some(t),
            Criterion::Check(_) => None,
        }
    }
}

impl From<&str> for Criterion {
    fn from(s: &str) -> Self {
        Criterion::Text(s.to_owned())
    }
}

impl From<String> for Criterion {
    fn from(s: String) -> Self {
        Criterion::Text(s)
    }
}

impl From<Check> for Criterion {
    fn from(c: Check) -> Self {
        Criterion::Check(c)
    }
}

impl Serialize for Criterion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Criterion::Text(t) => s.serialize_str(t),
            Criterion::Check(c) => c.serialize(s),
        }
    }
}

/// A string, or an object read as a [`Check`] with its own errors (an untagged enum would
/// only say "did not match any variant").
impl<'de> Deserialize<'de> for Criterion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Criterion;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a non-empty string or a check object ({\"check\": \"text_present\", …})",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Criterion, E> {
                Ok(Criterion::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Criterion, E> {
                Ok(Criterion::Text(v))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Criterion, A::Error> {
                Check::deserialize(de::value::MapAccessDeserializer::new(map)).map(Criterion::Check)
            }
        }
        d.deserialize_any(V)
    }
}

/// What must be true of the page. Text is compared case-insensitively with whitespace
/// collapsed, and only where the page says it: never inside an editable field (a draft is
/// not what a list or page holds) and never negated ("Not saved" does not show "Saved").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "check", rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// The text is shown, anywhere or inside the element `within` names.
    TextPresent {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<Scope>,
    },
    /// The text is shown nowhere (or nowhere inside `within`).
    TextAbsent {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<Scope>,
    },
    /// The field (named by its label, placeholder or name) holds exactly `equals`, or
    /// holds `contains`, or holds exactly the value the page shows beside the caption
    /// `shown_for` ("Tracking code: NW-88" shown, the field holds "NW-88"): exactly one.
    FieldValue {
        field: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        equals: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contains: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shown_for: Option<String>,
    },
    /// The element named `element` (of `role`, when given) is in `state` (`value`
    /// false: is not).
    ElementState {
        element: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
        state: StateName,
        #[serde(default = "yes", skip_serializing_if = "is_true")]
        value: bool,
    },
    /// The page's URL contains `contains` or is `equals` (exactly one).
    Url {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        equals: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contains: Option<String>,
    },
    /// The page's title contains `contains` or is `equals` (exactly one).
    Title {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        equals: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        contains: Option<String>,
    },
    /// How many visible elements (of `role`, when given) are named `name` — or whose
    /// text contains it: `equals`, or between `at_least` and `at_most`.
    Count {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        equals: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_least: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_most: Option<u32>,
    },
    /// Nothing visible (of `role`, when given) is named `name` or shows it any more.
    NoneRemain {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
    },
    /// The run clicked the element named `element` (of `role`, when given): an event a
    /// page need not keep, so the run's own hit-tested clicks are the evidence. `within`:
    /// inside the item(s) showing a text; `nth`: the Nth entry of a list (counted across
    /// its pages), `element` then only describing the entries.
    Clicked {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        element: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<Items>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nth: Option<u32>,
    },
    /// Every field holds the value the page shows elsewhere beside the field's own label
    /// (a record shown as "Username: ann" copied into the form's Username field).
    ValuesByLabel {},
    /// The run downloaded a file, and saved it: one whose saved name — or the control
    /// whose press downloaded it — says `name`'s words, when given.
    Downloaded {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
}

/// The items (rows, cards, posts) a click is inside: those showing `text` — one of
/// them (the default), `count` of them, or `every` one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Items {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub every: bool,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// Where a text check looks: the element named `name` and/or of `role` (a list, a table,
/// a dialog, a row), everything inside it included.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Scope {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
}

/// A state an element states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StateName {
    /// A checkbox, switch or radio is on.
    Checked,
    /// A tab, option or row is the chosen one.
    Selected,
    /// A disclosure, menu or tree item is open.
    Expanded,
    /// The control takes input.
    Enabled,
    /// The control has the keyboard focus.
    Focused,
}

impl StateName {
    pub fn as_str(self) -> &'static str {
        match self {
            StateName::Checked => "checked",
            StateName::Selected => "selected",
            StateName::Expanded => "expanded",
            StateName::Enabled => "enabled",
            StateName::Focused => "focused",
        }
    }
}

impl Check {
    /// The texts and URLs a page reaching the goal shows (what the milestone monitor
    /// watches for): shown text, a URL, a title.
    pub fn literals(&self) -> Vec<String> {
        match self {
            Check::TextPresent { text, .. } => vec![text.clone()],
            Check::Url { equals, contains } => equals.iter().chain(contains).cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// The rules types alone do not say, as (field, message) for the caller's path.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let nonempty = |field: &'static str, s: &str| {
            if s.trim().is_empty() {
                Err((field, "must not be empty".to_owned()))
            } else {
                Ok(())
            }
        };
        let one_of = |equals: &Option<String>, contains: &Option<String>| match (equals, contains) {
            (Some(e), None) => nonempty("equals", e),
            (None, Some(c)) => nonempty("contains", c),
            _ => Err((
                "equals",
                "give exactly one of `equals` and `contains`".to_owned(),
            )),
        };
        let known = |role: &Option<Role>| {
            match role {
            Some(Role::Other(r)) => Err((
                "role",
                format!(
                    "{:?} is not a role this runtime knows (button, link, textbox, checkbox, list, row, dialog, …)",
                    clip(r, MAX_QUOTED_CHARS)
                ),
            )),
            _ => Ok(()),
        }
        };
        let scope = |within: &Option<Scope>| match within {
            Some(s)
                if s.name.as_deref().is_none_or(|n| n.trim().is_empty()) && s.role.is_none() =>
            {
                Err((
                    "within",
                    "names an element by `name`, `role` or both".to_owned(),
                ))
            }
            Some(s) => known(&s.role),
            None => Ok(()),
        };
        match self {
            Check::TextPresent { text, within } | Check::TextAbsent { text, within } => {
                nonempty("text", text)?;
                scope(within)
            }
            Check::FieldValue {
                field,
                equals,
                contains,
                shown_for,
            } => {
                nonempty("field", field)?;
                match shown_for {
                    Some(k) if equals.is_none() && contains.is_none() => nonempty("shown_for", k),
                    Some(_) => Err((
                        "shown_for",
                        "give exactly one of `equals`, `contains` and `shown_for`".to_owned(),
                    )),
                    None => one_of(equals, contains),
                }
            }
            Check::ElementState { element, role, .. } => {
                nonempty("element", element)?;
                known(role)
            }
            Check::Url { equals, contains } | Check::Title { equals, contains } => {
                one_of(equals, contains)
            }
            Check::Count {
                name,
                role,
                equals,
                at_least,
                at_most,
            } => {
                if name.as_deref().is_none_or(|n| n.trim().is_empty()) && role.is_none() {
                    return Err(("name", "count needs a `name`, a `role` or both".to_owned()));
                }
                known(role)?;
                match (equals, at_least, at_most) {
                    (Some(_), None, None) | (None, Some(_), _) | (None, None, Some(_)) => {}
                    _ => {
                        return Err((
                            "equals",
                            "give `equals`, or `at_least` and/or `at_most`".to_owned(),
                        ))
                    }
                }
                match (at_least, at_most) {
                    (Some(lo), Some(hi)) if lo > hi => {
                        Err(("at_least", format!("{lo} is above at_most {hi}")))
                    }
                    _ => Ok(()),
                }
            }
            Check::NoneRemain { name, role } => {
                nonempty("name", name)?;
                known(role)
            }
            Check::Clicked {
                element,
                role,
                within,
                nth,
            } => {
                if element.as_deref().is_none_or(|n| n.trim().is_empty())
                    && role.is_none()
                    && nth.is_none()
                {
                    return Err((
                        "element",
                        "a click names an `element`, a `role` or an `nth`".to_owned(),
                    ));
                }
                known(role)?;
                if *nth == Some(0) {
                    return Err(("nth", "counts from 1".to_owned()));
                }
                match within {
                    Some(i) if i.text.trim().is_empty() => {
                        Err(("within", "`text` must not be empty".to_owned()))
                    }
                    Some(Items {
                        count: Some(_),
                        every: true,
                        ..
                    }) => Err(("within", "give `count` or `every`, not both".to_owned())),
                    Some(Items { count: Some(0), .. }) => {
                        Err(("within", "`count` counts from 1".to_owned()))
                    }
                    Some(_) if nth.is_some() => {
                        Err(("nth", "give `nth` or `within`, not both".to_owned()))
                    }
                    _ => Ok(()),
                }
            }
            Check::ValuesByLabel {} => Ok(()),
            Check::Downloaded { name } => match name {
                Some(n) => nonempty("name", n),
                None => Ok(()),
            },
        }
    }
}

/// The check in words, for reasons, trajectories and a model judge.
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let within = |w: &Option<Scope>| match w {
            Some(Scope { name, role }) => match (name, role) {
                (Some(n), Some(r)) => format!(" inside the {r} {n:?}"),
                (Some(n), None) => format!(" inside {n:?}"),
                (None, Some(r)) => format!(" inside the {r}"),
                (None, None) => String::new(),
            },
            None => String::new(),
        };
        let matched = |equals: &Option<String>, contains: &Option<String>| match (equals, contains)
        {
            (Some(e), _) => format!("is {e:?}"),
            (_, Some(c)) => format!("contains {c:?}"),
            _ => String::new(),
        };
        match self {
            Check::TextPresent { text, within: w } => {
                write!(f, "the page shows {text:?}{}", within(w))
            }
            Check::TextAbsent { text, within: w } => {
                write!(f, "the page does not show {text:?}{}", within(w))
            }
            Check::FieldValue {
                field,
                shown_for: Some(k),
                ..
            } => write!(f, "the {field:?} field holds what the page shows for {k:?}"),
            Check::FieldValue {
                field,
                equals,
                contains,
                ..
            } => write!(f, "the {field:?} field {}", matched(equals, contains)),
            Check::ElementState {
                element,
                role,
                state,
                value,
            } => write!(
                f,
                "{element:?}{} is {}{}",
                role.as_ref().map(|r| format!(" ({r})")).unwrap_or_default(),
                if *value { "" } else { "not " },
                state.as_str()
            ),
            Check::Url { equals, contains } => write!(f, "the URL {}", matched(equals, contains)),
            Check::Title { equals, contains } => {
                write!(f, "the title {}", matched(equals, contains))
            }
            Check::Count {
                name,
                role,
                equals,
                at_least,
                at_most,
            } => {
                let what = match (name, role) {
                    (Some(n), Some(r)) => format!("{r}s named {n:?}"),
                    (Some(n), None) => format!("elements named {n:?}"),
                    (None, Some(r)) => format!("{r}s"),
                    (None, None) => "elements".to_owned(),
                };
                match (equals, at_least, at_most) {
                    (Some(n), ..) => write!(f, "exactly {n} {what}"),
                    (None, Some(lo), Some(hi)) => write!(f, "{lo} to {hi} {what}"),
                    (None, Some(lo), None) => write!(f, "at least {lo} {what}"),
                    (None, None, Some(hi)) => write!(f, "at most {hi} {what}"),
                    (None, None, None) => write!(f, "some {what}"),
                }
            }
            Check::NoneRemain { name, role } => write!(
                f,
                "no {} named {name:?} remains",
                role.as_ref()
                    .map(|r| r.to_string())
                    .unwrap_or_else(|| "element".to_owned())
            ),
            Check::Clicked {
                element,
                role,
                within,
                nth,
            } => {
                let what = match (element, role) {
                    (Some(e), Some(r)) => format!("the {r} {e:?}"),
                    (Some(e), None) => format!("{e:?}"),
                    (None, Some(r)) => format!("a {r}"),
                    (None, None) => "an entry".to_owned(),
                };
                write!(f, "the run clicked ")?;
                match (nth, within) {
                    (Some(n), _) => write!(f, "entry {n} of the list ({what})"),
                    (None, Some(i)) => {
                        let items = match (i.every, i.count) {
                            (true, _) => "each item".to_owned(),
                            (false, Some(n)) => format!("{n} items"),
                            (false, None) => "an item".to_owned(),
                        };
                        write!(f, "{what} in {items} showing {:?}", i.text)
                    }
                    (None, None) => write!(f, "{what}"),
                }
            }
            Check::ValuesByLabel {} => {
                write!(f, "each field holds the value the page shows for its label")
            }
            Check::Downloaded { name: Some(n) } => write!(f, "the run downloaded {n:?}"),
            Check::Downloaded { name: None } => write!(f, "the run downloaded a file"),
        }
    }
}
