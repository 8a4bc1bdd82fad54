//! The `Storage` domain: the browser's cookies, read and written at browser level.

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, Empty};

/// `Network.Cookie`, as `Storage.getCookies` returns it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Cookie {
    pub name: String,
    pub value: String,
    pub domain: String,
    pub path: String,
    /// Seconds since the epoch; −1 (or `session`) for a session cookie.
    pub expires: f64,
    pub http_only: bool,
    pub secure: bool,
    pub session: bool,
    /// `Strict`, `Lax` or `None`; absent when the page set none.
    pub same_site: Option<String>,
}

/// `Network.CookieParam`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CookieParam {
    pub name: String,
    pub value: String,
    pub domain: String,
    pub path: String,
    pub secure: bool,
    pub http_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_site: Option<String>,
    /// Omitted for a session cookie.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires: Option<f64>,
}

/// `Storage.getCookies`: every cookie of the default browser context.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GetCookies {}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct GetCookiesReturns {
    pub cookies: Vec<Cookie>,
}
cdp_method!(GetCookies, "Storage.getCookies", GetCookiesReturns);

/// `Storage.setCookies`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SetCookies {
    pub cookies: Vec<CookieParam>,
}
cdp_method!(SetCookies, "Storage.setCookies", Empty);
