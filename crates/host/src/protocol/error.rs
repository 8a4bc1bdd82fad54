//! Stable error codes and the error every response carries when a request fails.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The stable vocabulary of failures: clients match on these, never on messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame or line is not JSON.
    InvalidJson,
    /// The envelope (`request_id`, `method`, `params`) is malformed.
    InvalidRequest,
    /// The method's params do not parse; the message names the field.
    InvalidParams,
    UnknownMethod,
    /// A request other than `hello` before `hello`.
    HelloRequired,
    /// No `hello` within the deadline: the connection is closed.
    HelloTimeout,
    /// A second `hello` on one connection.
    AlreadyGreeted,
    UnsupportedProtocol,
    UnknownSession,
    /// The capability does not belong to the session.
    InvalidCapability,
    SessionStopped,
    /// `interrupt_all` stopped the session.
    Interrupted,
    /// The cited observation is not the session's latest, or was already used.
    StaleObservation,
    /// The element id is not in the cited observation.
    UnknownElement,
    /// The action is not legal on its target (disabled, hidden, does not offer it, …).
    InvalidAction,
    /// The request would reach beyond the session's one target.
    TargetOutOfScope,
    /// No page target with that id.
    TargetNotFound,
    InputNotGranted,
    NavigateNotGranted,
    LaunchNotGranted,
    /// The subtask allows a risk the session's grants do not.
    RiskNotGranted,
    /// A file to upload is not under a directory of the session's `allow_files`.
    FileNotGranted,
    /// A URL scheme that is never navigated to (`javascript:`, `file:`, `data:`, …).
    ForbiddenScheme,
    /// The page's document is off the session's allowed origins: nothing is done on it.
    OriginNotAllowed,
    /// A bound was exceeded; `limit` names which.
    LimitExceeded,
    /// The action was dispatched and then the page or browser went away: it may or may
    /// not have happened. Never retried by the host.
    CompletionUnknown,
    /// The browser or the page's renderer is gone. For a session, for good; a host
    /// that launched its browser launches a new one for the next `open_session`.
    BrowserLost,
    /// The backend failed for another reason (the message says which).
    BackendFailure,
    /// The tool or action is served for another kind of target only (a screenshot or
    /// NAVIGATE on a desktop window, …).
    UnsupportedOnTarget,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 29] = [
        ErrorCode::InvalidJson,
        ErrorCode::InvalidRequest,
        ErrorCode::InvalidParams,
        ErrorCode::UnknownMethod,
        ErrorCode::HelloRequired,
        ErrorCode::HelloTimeout,
        ErrorCode::AlreadyGreeted,
        ErrorCode::UnsupportedProtocol,
        ErrorCode::UnknownSession,
        ErrorCode::InvalidCapability,
        ErrorCode::SessionStopped,
        ErrorCode::Interrupted,
        ErrorCode::StaleObservation,
        ErrorCode::UnknownElement,
        ErrorCode::InvalidAction,
        ErrorCode::TargetOutOfScope,
        ErrorCode::TargetNotFound,
        ErrorCode::InputNotGranted,
        ErrorCode::NavigateNotGranted,
        ErrorCode::LaunchNotGranted,
        ErrorCode::RiskNotGranted,
        ErrorCode::FileNotGranted,
        ErrorCode::ForbiddenScheme,
        ErrorCode::OriginNotAllowed,
        ErrorCode::LimitExceeded,
        ErrorCode::CompletionUnknown,
        ErrorCode::BrowserLost,
        ErrorCode::BackendFailure,
        ErrorCode::UnsupportedOnTarget,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidParams => "invalid_params",
            ErrorCode::UnknownMethod => "unknown_method",
            ErrorCode::HelloRequired => "hello_required",
            ErrorCode::HelloTimeout => "hello_timeout",
            ErrorCode::AlreadyGreeted => "already_greeted",
            ErrorCode::UnsupportedProtocol => "unsupported_protocol",
            ErrorCode::UnknownSession => "unknown_session",
            ErrorCode::InvalidCapability => "invalid_capability",
            ErrorCode::SessionStopped => "session_stopped",
            ErrorCode::Interrupted => "interrupted",
            ErrorCode::StaleObservation => "stale_observation",
            ErrorCode::UnknownElement => "unknown_element",
            ErrorCode::InvalidAction => "invalid_action",
            ErrorCode::TargetOutOfScope => "target_out_of_scope",
            ErrorCode::TargetNotFound => "target_not_found",
            ErrorCode::InputNotGranted => "input_not_granted",
            ErrorCode::NavigateNotGranted => "navigate_not_granted",
            ErrorCode::LaunchNotGranted => "launch_not_granted",
            ErrorCode::RiskNotGranted => "risk_not_granted",
            ErrorCode::FileNotGranted => "file_not_granted",
            ErrorCode::ForbiddenScheme => "forbidden_scheme",
            ErrorCode::OriginNotAllowed => "origin_not_allowed",
            ErrorCode::LimitExceeded => "limit_exceeded",
            ErrorCode::CompletionUnknown => "completion_unknown",
            ErrorCode::BrowserLost => "browser_lost",
            ErrorCode::BackendFailure => "backend_failure",
            ErrorCode::UnsupportedOnTarget => "unsupported_on_target",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which bound a `limit_exceeded` error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitName {
    TextChars,
    WaitMs,
    DragPx,
    FrameBytes,
    SessionsPerConnection,
    Connections,
    RequestsInFlight,
    SubtaskMs,
    BudgetTokens,
    /// A point outside the page's viewport (as the cited observation measured it).
    Viewport,
    /// Points of one drag path.
    DragPoints,
    /// Pixels of one desktop window screenshot.
    ScreenshotPixels,
}

/// A failed request: a stable code, a message that says what to do, and for
/// `limit_exceeded` the bound's name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(deny_unknown_fields)]
#[error("{code}: {message}")]
pub struct HostError {
    pub code: ErrorCode,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<LimitName>,
}

/// Messages quote at most this much of anything a client sent.
const MAX_MESSAGE_BYTES: usize = 600;

impl HostError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        HostError {
            code,
            message: arc_core::clip(&message.into(), MAX_MESSAGE_BYTES).into_owned(),
            limit: None,
        }
    }

    pub fn limit(limit: LimitName, message: impl Into<String>) -> Self {
        HostError {
            limit: Some(limit),
            ..HostError::new(ErrorCode::LimitExceeded, message)
        }
    }
}
