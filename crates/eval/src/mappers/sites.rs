//! WebArena's site placeholders (`__SHOPPING__`, `__GITLAB__`, …) and the base URLs they
//! stand for, given by the caller: the benchmark's servers live wherever they were set up.

use super::MapError;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// `__NAME__` with NAME in capitals, digits and single underscores (`__SHOPPING_ADMIN__`),
/// so lower-case markers such as `__last_url__` are left alone.
static PLACEHOLDER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"__([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)__").expect("valid regex"));
static NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$").expect("valid regex"));

/// The environment variable prefix for a site's base URL: `WEBARENA_SHOPPING`.
pub const ENV_PREFIX: &str = "WEBARENA_";

/// Site name (upper case, `SHOPPING`) → base URL (http(s), no trailing slash).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SiteMap(BTreeMap<String, String>);

impl SiteMap {
    pub fn new() -> SiteMap {
        SiteMap::default()
    }

    /// Adds or replaces a site; the name is upper-cased, the URL's trailing `/` dropped.
    pub fn insert(&mut self, name: &str, url: &str) -> Result<(), MapError> {
        let bad = |reason: &str| MapError::Site {
            entry: format!("{name}={url}"),
            reason: reason.to_owned(),
        };
        let name = name.trim().to_ascii_uppercase();
        if !NAME.is_match(&name) {
            return Err(bad(
                "the name must be letters, digits and `_` (SHOPPING_ADMIN)",
            ));
        }
        let url = url.trim().trim_end_matches('/');
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"));
        if rest.is_none_or(|r| r.is_empty()) {
            return Err(bad("the base URL must be http(s)://host[:port][/path]"));
        }
        self.0.insert(name, url.to_owned());
        Ok(())
    }

    /// `NAME=URL`, as given on a command line.
    pub fn insert_entry(&mut self, entry: &str) -> Result<(), MapError> {
        let (name, url) = entry.split_once('=').ok_or_else(|| MapError::Site {
            entry: entry.to_owned(),
            reason: "expected NAME=URL (SHOPPING=http://host:7770)".into(),
        })?;
        self.insert(name, url)
    }

    /// The `WEBARENA_<NAME>` variables among `vars` (pass `std::env::vars()`).
    pub fn from_vars(
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> Result<SiteMap, MapError> {
        let mut map = SiteMap::new();
        for (key, value) in vars {
            if let Some(name) = key.strip_prefix(ENV_PREFIX) {
                map.insert(name, &value)?;
            }
        }
        Ok(map)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every placeholder replaced; the first one without a base URL is the error.
    pub fn resolve(&self, text: &str) -> Result<String, String> {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for caps in PLACEHOLDER.captures_iter(text) {
            let whole = caps.get(0).expect("group 0");
            let name = &caps[1];
            let base = self.get(name).ok_or_else(|| name.to_owned())?;
            out.push_str(&text[last..whole.start()]);
            out.push_str(base);
            last = whole.end();
        }
        out.push_str(&text[last..]);
        Ok(out)
    }
}
