//! How a string (a URL, a title) is matched: exactly, by substring, or by a regex that is
//! compiled when the task is read, so a bad pattern is a task-file error.

use regex::Regex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// On the wire exactly one of `{"equals": …}`, `{"contains": …}`, `{"matches": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TextMatchWire", into = "TextMatchWire")]
pub enum TextMatch {
    Equals(String),
    Contains(String),
    Matches(Pattern),
}

impl TextMatch {
    pub fn is_match(&self, text: &str) -> bool {
        match self {
            TextMatch::Equals(want) => text == want,
            TextMatch::Contains(part) => text.contains(part.as_str()),
            TextMatch::Matches(p) => p.0.is_match(text),
        }
    }
}

impl fmt::Display for TextMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextMatch::Equals(s) => write!(f, "equals {s:?}"),
            TextMatch::Contains(s) => write!(f, "contains {s:?}"),
            TextMatch::Matches(p) => write!(f, "matches /{}/", p.0.as_str()),
        }
    }
}

/// A compiled regex, compared and serialized as its source.
#[derive(Clone, Debug)]
pub struct Pattern(pub Regex);

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TextMatchWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    equals: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    contains: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    matches: Option<String>,
}

impl TryFrom<TextMatchWire> for TextMatch {
    type Error = String;
    fn try_from(w: TextMatchWire) -> Result<Self, String> {
        match (w.equals, w.contains, w.matches) {
            (Some(s), None, None) => Ok(TextMatch::Equals(s)),
            (None, Some(s), None) if !s.is_empty() => Ok(TextMatch::Contains(s)),
            (None, Some(_), None) => Err("`contains` must not be empty".into()),
            (None, None, Some(p)) => Regex::new(&p)
                .map(|r| TextMatch::Matches(Pattern(r)))
                .map_err(|e| format!("`matches` is not a valid regex: {e}")),
            _ => Err("needs exactly one of `equals`, `contains`, `matches`".into()),
        }
    }
}

impl From<TextMatch> for TextMatchWire {
    fn from(m: TextMatch) -> Self {
        let mut w = TextMatchWire {
            equals: None,
            contains: None,
            matches: None,
        };
        match m {
            TextMatch::Equals(s) => w.equals = Some(s),
            TextMatch::Contains(s) => w.contains = Some(s),
            TextMatch::Matches(p) => w.matches = Some(p.0.as_str().to_owned()),
        }
        w
    }
}
