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

impl ContractError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ContractError {
            code: ErrorCode::InvalidPayload,
            field: field.into(),
            message: message.into(),
        }
    }
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
