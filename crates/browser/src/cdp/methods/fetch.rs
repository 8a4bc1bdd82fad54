//! The `Fetch` domain: only what keeps a page on its allowed origins (pausing document
//! requests, each redirect hop included, and letting them go or failing them), and what
//! gives a scratch tab an origin's empty document (`storage_state.rs`).

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, Empty};

/// `Fetch.enable`: requests matching one of `patterns` pause until answered.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {
    pub patterns: Vec<RequestPattern>,
}
cdp_method!(Enable, "Fetch.enable", Empty);

/// `Fetch.RequestPattern`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestPattern {
    /// Wildcards `*` and `?`; omitted means `*`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url_pattern: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<String>,
    /// `Request` (before it is sent) or `Response`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_stage: Option<String>,
}

/// `Fetch.disable`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Disable {}
cdp_method!(Disable, "Fetch.disable", Empty);

/// `Fetch.continueRequest`, unmodified.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContinueRequest {
    pub request_id: String,
}
cdp_method!(ContinueRequest, "Fetch.continueRequest", Empty);

/// `Fetch.failRequest`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FailRequest {
    pub request_id: String,
    /// `Network.ErrorReason`: `Aborted`, `BlockedByClient`, …
    pub error_reason: String,
}
cdp_method!(FailRequest, "Fetch.failRequest", Empty);

/// What `Fetch.requestPaused` says about the paused request.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PausedRequest {
    pub url: String,
    pub method: String,
}

/// `Fetch.fulfillRequest`: answers a paused request without the network (an empty body).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FulfillRequest {
    pub request_id: String,
    pub response_code: u16,
    pub response_headers: Vec<HeaderEntry>,
}
cdp_method!(FulfillRequest, "Fetch.fulfillRequest", Empty);

/// `Fetch.HeaderEntry`.
#[derive(Debug, Clone, Serialize)]
pub struct HeaderEntry {
    pub name: String,
    pub value: String,
}
