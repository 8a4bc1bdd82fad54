//! The `Network` domain: only what settling needs (in-flight request tracking).

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, Empty};

/// `Network.enable`: emits `Network.*` events for this session.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Enable {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_total_buffer_size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_resource_buffer_size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_post_data_size: Option<i64>,
}
cdp_method!(Enable, "Network.enable", Empty);

/// A request's description (`Network.Request`), the fields settling and logs use.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Request {
    pub url: String,
    pub url_fragment: Option<String>,
    pub method: String,
    /// Header name → value, untyped.
    pub headers: serde_json::Value,
    pub has_post_data: Option<bool>,
    pub mixed_content_type: Option<String>,
    pub initial_priority: Option<String>,
    pub referrer_policy: Option<String>,
    pub is_link_preload: Option<bool>,
}

/// `Network.ResourceType` (`Document`, `Stylesheet`, `Script`, `XHR`, `Fetch`, ...), kept
/// as a string so new kinds parse.
pub type ResourceType = String;
