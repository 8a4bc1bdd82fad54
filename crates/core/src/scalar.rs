//! A literal value: what a planner may put in `inputs` and what an element may hold as
//! its `value` (string, finite number or bool, as in the reference contract).
//!
//! A number whose text `i64`/`f64` would change (`12345678901234567890`, `1.0`, `1e3`)
//! is kept as the planner's exact text ([`NumberText`]): the literal typed is what was
//! sent. The subtask boundary reads numbers as raw text to get there; elsewhere (plain
//! serde) only integers beyond `i64` up to `u64::MAX` can keep theirs.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A number kept as its exact JSON text (see the module docs).
    Number(NumberText),
    Text(String),
}

/// The exact text of a finite JSON number; serialized as that number, unquoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberText(String);

impl NumberText {
    /// The number as a scalar: `Int` or `Float` when they print back as `text`, else the
    /// text itself. `None` when `text` is not a JSON number or not finite.
    pub fn scalar(text: &str) -> Option<Scalar> {
        if !is_json_number(text) {
            return None;
        }
        if let Ok(i) = text.parse::<i64>() {
            if i.to_string() == text {
                return Some(Scalar::Int(i));
            }
        }
        let x = text.parse::<f64>().ok().filter(|x| x.is_finite())?;
        // Typed via Display, echoed via serde_json: both must give the text back.
        if x.to_string() == text && serde_json::to_string(&x).is_ok_and(|j| j == text) {
            return Some(Scalar::Float(x));
        }
        Some(Scalar::Number(NumberText(text.to_owned())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number(text: &str) -> bool {
    fn digits(b: &[u8], i: &mut usize) -> usize {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    }
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(b, &mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(b, &mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(b, &mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

impl Serialize for NumberText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // serde_json writes a RawValue verbatim: the number goes out as it came in.
        let raw = serde_json::value::RawValue::from_string(self.0.clone())
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

struct ScalarVisitor;

impl Visitor<'_> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, a finite number or a bool")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
        Ok(
            i64::try_from(v)
                .map_or_else(|_| Scalar::Number(NumberText(v.to_string())), Scalar::Int),
        )
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Text(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Scalar, E> {
        Ok(Scalar::Text(v))
    }
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
            Scalar::Number(n) => f.write_str(n.as_str()),
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
