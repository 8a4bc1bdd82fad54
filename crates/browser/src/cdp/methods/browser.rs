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
