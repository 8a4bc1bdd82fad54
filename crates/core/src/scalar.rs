//! A literal value: what a planner may put in `inputs` and what an element may hold as
//! its `value` (string, finite number or bool, as in the reference contract).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl Scalar {
    /// The text an executor types or sets for this literal.
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Scalar::Text(s) => std::borrow::Cow::Borrowed(s),
            other => std::borrow::Cow::Owned(other.to_string()),
        }
    }

    /// False only for NaN and infinities, which JSON cannot carry.
    pub fn is_finite(&self) -> bool {
        !matches!(self, Scalar::Float(f) if !f.is_finite())
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Int(i) => write!(f, "{i}"),
            Scalar::Float(x) => write!(f, "{x}"),
            Scalar::Text(s) => f.write_str(s),
        }
    }
}

impl From<&str> for Scalar {
    fn from(s: &str) -> Self {
        Scalar::Text(s.to_owned())
    }
}

impl From<String> for Scalar {
    fn from(s: String) -> Self {
        Scalar::Text(s)
    }
}

impl From<bool> for Scalar {
    fn from(b: bool) -> Self {
        Scalar::Bool(b)
    }
}

impl From<i64> for Scalar {
    fn from(i: i64) -> Self {
        Scalar::Int(i)
    }
}

impl From<f64> for Scalar {
    fn from(x: f64) -> Self {
        Scalar::Float(x)
    }
}
