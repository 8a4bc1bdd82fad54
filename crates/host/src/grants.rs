//! What a session may do, fixed when it opens. Everything defaults to false: a session
//! opened with no grants can observe, find and wait, nothing else.

use crate::protocol::{ErrorCode, HostError};
use arc_core::{ActionKind, Risk};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grants {
    /// Pointer and keyboard input, values, scrolling (every action but WAIT and NAVIGATE).
    #[serde(default)]
    pub allow_input: bool,
    /// NAVIGATE, only to http(s) URLs whose origin is in `navigate_origins`.
    #[serde(default)]
    pub allow_navigate: bool,
    /// Origins NAVIGATE may go to, exactly (`http://127.0.0.1:8080`).
    #[serde(default)]
    pub navigate_origins: Vec<String>,
    /// Opening a new tab for the session (`open_session` with `target.url`).
    #[serde(default)]
    pub allow_launch: bool,
    /// Risks (`delete`, `send`, `purchase`, `close`) the session may press.
    #[serde(default)]
    pub allowed_risks: BTreeSet<Risk>,
}

impl Grants {
    /// Whether `kind` may run at all under these grants (the literal is checked by
    /// [`Grants::check_url`]).
    pub fn check_kind(&self, kind: ActionKind) -> Result<(), HostError> {
        match kind {
            ActionKind::Wait => Ok(()),
            ActionKind::Navigate if !self.allow_navigate => Err(HostError::new(
                ErrorCode::NavigateNotGranted,
                "NAVIGATE needs the allow_navigate grant (with navigate_origins); open a session with it",
            )),
            ActionKind::Navigate => Ok(()),
            _ if !self.allow_input => Err(HostError::new(
                ErrorCode::InputNotGranted,
                format!("{kind} needs the allow_input grant; open a session with it"),
            )),
            _ => Ok(()),
        }
    }

    /// A NAVIGATE target: http(s) only, its origin exactly one of `navigate_origins`.
    pub fn check_url(&self, url: &str) -> Result<(), HostError> {
        let origin = origin_of(url)?;
        if !self
            .navigate_origins
            .iter()
            .any(|o| o.trim_end_matches('/') == origin)
        {
            return Err(HostError::new(
                ErrorCode::NavigateNotGranted,
                format!("origin {origin} is not in the session's navigate_origins"),
            ));
        }
        Ok(())
    }

    /// The URL of a new tab (`allow_launch`); http(s) only.
    pub fn check_launch(&self, url: &str) -> Result<(), HostError> {
        if !self.allow_launch {
            return Err(HostError::new(
                ErrorCode::LaunchNotGranted,
                "opening a new tab needs the allow_launch grant; or name an existing target_id",
            ));
        }
        origin_of(url).map(|_| ())
    }

    /// A subtask's risks must be within the session's.
    pub fn check_risks(&self, wanted: &BTreeSet<Risk>) -> Result<(), HostError> {
        let missing: Vec<&str> = wanted
            .difference(&self.allowed_risks)
            .map(|r| r.as_str())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(HostError::new(
            ErrorCode::RiskNotGranted,
            format!(
                "the subtask allows {} but the session's allowed_risks do not; drop them or open a session that grants them",
                missing.join(", ")
            ),
        ))
    }
}

/// `scheme://host[:port]` of an http(s) URL, lower-cased; any other scheme (also
/// hidden behind whitespace or case) is `forbidden_scheme`.
pub fn origin_of(url: &str) -> Result<String, HostError> {
    let trimmed = url.trim_start_matches(|c: char| c.is_whitespace() || c.is_control());
    let Some((scheme, rest)) = trimmed.split_once("://") else {
        let scheme = trimmed.split(':').next().unwrap_or_default();
        return Err(HostError::new(
            ErrorCode::ForbiddenScheme,
            format!(
                "only http and https URLs are navigated to (got scheme {:?})",
                arc_core::clip(scheme, 32)
            ),
        ));
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(HostError::new(
            ErrorCode::ForbiddenScheme,
            format!(
                "only http and https URLs are navigated to (got {:?})",
                arc_core::clip(&scheme, 32)
            ),
        ));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') || authority.contains('\\') {
        return Err(HostError::new(
            ErrorCode::NavigateNotGranted,
            "the URL has no plain host (user info and backslashes are refused)",
        ));
    }
    Ok(format!("{scheme}://{}", authority.to_ascii_lowercase()))
}
