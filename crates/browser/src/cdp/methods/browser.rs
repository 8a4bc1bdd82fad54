//! The `Browser` domain.

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, Empty};

/// `Browser.close`: closes the browser gracefully (the socket closes right after).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Close {}
cdp_method!(Close, "Browser.close", Empty);

/// `Browser.getVersion`.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct GetVersion {}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetVersionReturns {
    pub protocol_version: String,
    /// E.g. `HeadlessChrome/156.0.7500.0`.
    pub product: String,
    pub revision: String,
    pub user_agent: String,
    pub js_version: String,
}
cdp_method!(GetVersion, "Browser.getVersion", GetVersionReturns);

/// `Browser.setDownloadBehavior`: with `allowAndName`, each download is saved in
/// `download_path` under its guid, and `eventsEnabled` reports it on the browser session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDownloadBehavior {
    pub behavior: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download_path: Option<String>,
    pub events_enabled: bool,
}
cdp_method!(SetDownloadBehavior, "Browser.setDownloadBehavior", Empty);

/// `Browser.cancelDownload`.
#[derive(Debug, Clone, Serialize)]
pub struct CancelDownload {
    pub guid: String,
}
cdp_method!(CancelDownload, "Browser.cancelDownload", Empty);
