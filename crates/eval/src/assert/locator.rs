//! Which element an assertion is about: a CSS selector, or a role and an accessible name
//! (any spelling of the role that `arc_core::Role::parse` knows: `textbox`, `text_field`).

use arc_core::Role;
use serde::{Deserialize, Serialize};
use std::fmt;

/// On the wire `{"selector": "#first"}` or `{"role": "tab", "name": "Reviews"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "LocatorWire", into = "LocatorWire")]
pub enum Locator {
    Css(String),
    /// The name is compared after collapsing whitespace, case-sensitively.
    Role {
        role: Role,
        name: String,
    },
}

impl fmt::Display for Locator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Locator::Css(s) => write!(f, "`{s}`"),
            Locator::Role { role, name } => write!(f, "{role} {name:?}"),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LocatorWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    selector: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    role: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

impl TryFrom<LocatorWire> for Locator {
    type Error = String;
    fn try_from(w: LocatorWire) -> Result<Self, String> {
        match (w.selector, w.role, w.name) {
            (Some(s), None, None) if !s.trim().is_empty() => Ok(Locator::Css(s)),
            (Some(_), None, None) => Err("`selector` must not be empty".into()),
            (None, Some(role), Some(name)) => Ok(Locator::Role { role, name }),
            _ => Err("needs either `selector`, or `role` and `name`".into()),
        }
    }
}

impl From<Locator> for LocatorWire {
    fn from(l: Locator) -> Self {
        match l {
            Locator::Css(s) => LocatorWire {
                selector: Some(s),
                role: None,
                name: None,
            },
            Locator::Role { role, name } => LocatorWire {
                selector: None,
                role: Some(role),
                name: Some(name),
            },
        }
    }
}
