//! Errors with stable codes. A code never changes meaning once shipped; the message is
//! for people and names the field, limit or id involved.

use crate::action::ActionKind;
use crate::element::ElementId;
use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A payload is not valid JSON or breaks the contract.
    InvalidPayload,
    /// A payload has a field the contract does not define.
    UnknownField,
    /// A decision is illegal for the snapshot it was made on.
    InvalidDecision,
    /// The target changed between observation and execution.
    StaleState,
    /// The backend cannot perform this kind of action.
    UnsupportedAction,
    /// The backend failed (I/O, protocol, crashed target).
    BackendFailure,
    /// The policy failed to produce a decision.
    PolicyFailure,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidPayload => "invalid_payload",
            ErrorCode::UnknownField => "unknown_field",
            ErrorCode::InvalidDecision => "invalid_decision",
            ErrorCode::StaleState => "stale_state",
            ErrorCode::UnsupportedAction => "unsupported_action",
            ErrorCode::BackendFailure => "backend_failure",
            ErrorCode::PolicyFailure => "policy_failure",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A payload that breaks the contract. `field` is a path such as `verification[1]`.
#[derive(Clone, Debug, PartialEq, Error, Serialize, Deserialize)]
#[error("{field}: {message}")]
#[serde(deny_unknown_fields)]
pub struct ContractError {
    pub code: ErrorCode,
    pub field: String,
    pub message: String,
}

/// Longest field path an error carries, in bytes: a path echoes the payload's keys.
pub const MAX_ERROR_FIELD: usize = 160;
/// Longest message, in bytes: a message may quote the payload's values, and an error
/// must not echo megabytes of input back (found by `arc-fuzz`).
pub const MAX_ERROR_MESSAGE: usize = 600;

impl ContractError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ContractError::new(ErrorCode::InvalidPayload, field, message)
    }

    /// An error whose field and message are clipped to [`MAX_ERROR_FIELD`] and
    /// [`MAX_ERROR_MESSAGE`] bytes.
    pub fn new(code: ErrorCode, field: impl Into<String>, message: impl Into<String>) -> Self {
        let field = field.into();
        // A key may be empty (`{"": 1}`); the error still names where it is.
        let field = if field.trim().is_empty() {
            "payload".to_owned()
        } else {
            field
        };
        ContractError {
            code,
            field: clip_bytes(field, MAX_ERROR_FIELD),
            message: clip_bytes(message.into(), MAX_ERROR_MESSAGE),
        }
    }
}

/// `s` cut to at most `max` bytes on a character boundary, saying how long it was (a field
/// or message as a whole; [`clip`] bounds a quoted fragment by characters).
fn clip_bytes(mut s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let full = s.len();
    let mut end = max.saturating_sub(24);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s.push_str(&clipped_suffix(full));
    s
}

/// A decision the current snapshot does not allow. `field` names the decision field at
/// fault (`target_id`, `input_key`, `hotkey`, …).
#[derive(Clone, Debug, PartialEq, Error)]
#[error("invalid decision: {field}: {message}")]
pub struct InvalidDecision {
    pub field: &'static str,
    pub message: String,
}

impl InvalidDecision {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        InvalidDecision {
            field,
            message: message.into(),
        }
    }
}

/// What a backend can fail with. Only `Stale` is retried by the loop.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum BackendError {
    #[error("stale state{}: {detail}", target.as_ref().map(|t| format!(" on {t}")).unwrap_or_default())]
    Stale {
        target: Option<ElementId>,
        detail: String,
    },
    #[error(transparent)]
    Invalid(#[from] InvalidDecision),
    #[error("{backend} backend does not support {kind}")]
    Unsupported {
        kind: ActionKind,
        backend: &'static str,
    },
    #[error("backend failure: {0}")]
    Failed(String),
}

impl BackendError {
    pub fn stale(target: Option<&ElementId>, detail: impl Into<String>) -> Self {
        BackendError::Stale {
            target: target.cloned(),
            detail: detail.into(),
        }
    }

    pub fn failed(detail: impl fmt::Display) -> Self {
        BackendError::Failed(detail.to_string())
    }

    pub fn code(&self) -> ErrorCode {
        match self {
            BackendError::Stale { .. } => ErrorCode::StaleState,
            BackendError::Invalid(_) => ErrorCode::InvalidDecision,
            BackendError::Unsupported { .. } => ErrorCode::UnsupportedAction,
            BackendError::Failed(_) => ErrorCode::BackendFailure,
        }
    }
}

/// A policy that could not decide (network, exhausted script, unparsable model answer).
#[derive(Clone, Debug, PartialEq, Error)]
#[error("policy failure: {0}")]
pub struct PolicyError(pub String);

impl PolicyError {
    pub fn new(detail: impl fmt::Display) -> Self {
        PolicyError(detail.to_string())
    }
}

/// Longest fragment of input an error message quotes.
pub const MAX_QUOTED_CHARS: usize = 64;

/// `text` cut to `max` chars with what was left out said (`…(4194304 bytes)`), so an
/// error never echoes unbounded input.
pub fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => format!("{}{}", &text[..end], clipped_suffix(text.len())).into(),
    }
}

/// Longest page text a message quotes.
pub const MAX_PAGE_QUOTE_CHARS: usize = 200;

/// Page text (a name, a label, a value) as one JSON string literal, for every message
/// that quotes what a page shows: its quotes and line breaks escaped, so no page can close
/// the quote or start a line of its own and pass its words off as ours (an agent reads
/// `reason:` lines); clipped to [`MAX_PAGE_QUOTE_CHARS`]. `world.js`'s `describe` writes
/// an element's text the same way (`JSON.stringify`).
pub fn quote(page_text: &str) -> String {
    let clipped = clip(page_text, MAX_PAGE_QUOTE_CHARS);
    serde_json::to_string(clipped.as_ref()).unwrap_or_else(|_| "\"\"".to_owned())
}

/// What both clips append: how long the whole input was, so nothing is silently lost.
fn clipped_suffix(full_bytes: usize) -> String {
    format!("…({full_bytes} bytes)")
}

/// A message from a parser, with every quoted fragment (`` `…` `` or `"…"`) clipped to
/// [`MAX_QUOTED_CHARS`] and the whole to a few times that.
pub fn clip_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest.as_bytes()[open] as char;
        out.push_str(&rest[..=open]);
        let body = &rest[open + 1..];
        let close = closing(body, quote).unwrap_or(body.len());
        out.push_str(&clip(&body[..close], MAX_QUOTED_CHARS));
        rest = &body[close..];
        if let Some(stripped) = rest.strip_prefix(quote) {
            out.push(quote);
            rest = stripped;
        }
    }
    out.push_str(rest);
    clip(&out, 8 * MAX_QUOTED_CHARS).into_owned()
}

/// The byte index of the quote closing `body` (a `\`-escaped one does not close).
fn closing(body: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            c if c == quote && !escaped => return Some(i),
            _ => escaped = false,
        }
    }
    None
}

#[cfg(test)]
mod clip_tests {
    use super::*;

    #[test]
    fn clips_long_fragments_and_keeps_short_ones() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("ééééé", 2), "éé…(10 bytes)");
        let key = "k".repeat(4 << 20);
        let msg = clip_quoted(&format!("unknown field `{key}`, expected `goal`"));
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.contains("…(4194304 bytes)`, expected `goal`"), "{msg}");
        let msg = clip_quoted(&format!(r#"invalid type: string "{key}\"x", expected u32"#));
        assert!(msg.ends_with(r#"bytes)", expected u32"#), "{msg}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_never_echoes_a_huge_input() {
        let huge = "é".repeat(100_000);
        let e = ContractError::invalid(format!("inputs.{huge}"), format!("bad value {huge:?}"));
        assert!(e.field.len() <= MAX_ERROR_FIELD, "{}", e.field.len());
        assert!(e.message.len() <= MAX_ERROR_MESSAGE, "{}", e.message.len());
        assert!(e.field.starts_with("inputs.éé"), "{}", e.field);
        // "bad value " + the quoted 200,000 bytes.
        assert!(e.message.ends_with("(200012 bytes)"), "{}", e.message);
        assert_eq!(
            ContractError::invalid(" ", "unknown field ``").field,
            "payload"
        );
        let short = ContractError::invalid("goal", "must not be empty");
        assert_eq!(
            (short.field.as_str(), short.message.as_str()),
            ("goal", "must not be empty")
        );
    }
}
