//! A saved session: the browser's cookies and each origin's `localStorage`, in
//! Playwright's `storageState` format, so a file moves between the two tools.
//!
//! Loaded into a browser before its first page ([`StorageState::load`]) and read back
//! after a run ([`StorageState::save`]). `localStorage` belongs to an origin, and Chromium
//! reaches it only from a document of that origin (`DOMStorage.*` answers "Frame not
//! found" otherwise): a scratch tab visits each origin with its document request answered
//! here by an empty page, so no request reaches the site and no page script runs.
//!
//! The file holds credentials: it is read only when no one but its owner can read it
//! (mode `0600` or stricter), written `0600` through a rename, and its values are never
//! logged nor put in an error.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::backend::origin;
use crate::cdp::events::RequestPaused;
use crate::cdp::methods::{fetch, runtime, storage};
use crate::{Browser, BrowserError, PageSession};

/// The largest storage-state file read.
pub const MAX_STORAGE_STATE_BYTES: u64 = 16 * 1024 * 1024;

/// Cookies and per-origin `localStorage` (Playwright's `storageState`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageState {
    #[serde(default)]
    pub cookies: Vec<Cookie>,
    #[serde(default)]
    pub origins: Vec<OriginStorage>,
}

/// One cookie, as Playwright writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Cookie {
    pub name: String,
    pub value: String,
    pub domain: String,
    pub path: String,
    /// Seconds since the epoch; −1 for a session cookie.
    pub expires: f64,
    pub http_only: bool,
    pub secure: bool,
    pub same_site: SameSite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SameSite {
    Strict,
    Lax,
    None,
}

impl SameSite {
    fn as_str(self) -> &'static str {
        match self {
            SameSite::Strict => "Strict",
            SameSite::Lax => "Lax",
            SameSite::None => "None",
        }
    }
}

/// One origin's `localStorage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OriginStorage {
    pub origin: String,
    pub local_storage: Vec<NameValue>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

fn refused(path: &Path, reason: impl Into<String>) -> BrowserError {
    BrowserError::SessionFile {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

impl StorageState {
    /// Reads `path`: a regular file of at most [`MAX_STORAGE_STATE_BYTES`] that only its
    /// owner can read or write, in Playwright's format (an unknown key is named).
    pub fn read(path: &Path) -> Result<StorageState, BrowserError> {
        let file = std::fs::File::open(path)
            .map_err(|e| refused(path, format!("cannot open the storage state: {e}")))?;
        let meta = file
            .metadata()
            .map_err(|e| refused(path, format!("cannot read the storage state: {e}")))?;
        if !meta.is_file() {
            return Err(refused(path, "the storage state is not a regular file"));
        }
        let mode = meta.mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(refused(
                path,
                format!(
                    "the storage state holds credentials but its mode is {mode:o}, open to \
                     others; make it the owner's alone (chmod 600)"
                ),
            ));
        }
        if meta.len() > MAX_STORAGE_STATE_BYTES {
            return Err(refused(
                path,
                format!(
                    "the storage state is {} bytes, over the {MAX_STORAGE_STATE_BYTES}-byte limit",
                    meta.len()
                ),
            ));
        }
        let mut text = String::new();
        file.take(MAX_STORAGE_STATE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| refused(path, format!("cannot read the storage state: {e}")))?;
        // serde's message names the key or the position, never a value.
        serde_json::from_str(&text)
            .map_err(|e| refused(path, format!("not a Playwright storage state: {e}")))
    }

    /// Writes the state to `path`, mode 0600, replacing it whole (a reader never sees
    /// half a file).
    pub fn write(&self, path: &Path) -> Result<(), BrowserError> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .ok_or_else(|| refused(path, "not a file name"))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = dir.join(tmp_name);
        let json = serde_json::to_vec_pretty(self).expect("a storage state serializes");
        let written = (|| {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&tmp)?;
            file.write_all(&json)?;
            file.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        written.map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            refused(path, format!("cannot write the storage state: {e}"))
        })
    }

    /// Puts the cookies and every origin's `localStorage` into `browser` (its default
    /// context), before any page of theirs loads.
    pub async fn load(&self, browser: &Browser) -> Result<(), BrowserError> {
        if !self.cookies.is_empty() {
            let cookies = self.cookies.iter().map(Cookie::to_param).collect();
            browser.call(storage::SetCookies { cookies }).await?;
        }
        let origins: Vec<&OriginStorage> = self
            .origins
            .iter()
            .filter(|o| !o.local_storage.is_empty())
            .collect();
        if origins.is_empty() {
            return Ok(());
        }
        let scratch = Scratch::open(browser).await?;
        let mut result = Ok(());
        for o in origins {
            let pairs: Vec<(&str, &str)> = o
                .local_storage
                .iter()
                .map(|nv| (nv.name.as_str(), nv.value.as_str()))
                .collect();
            let script = format!(
                "(() => {{ for (const [k, v] of {}) localStorage.setItem(k, v); }})()",
                serde_json::to_string(&pairs).expect("strings serialize")
            );
            result = scratch.run_at(&o.origin, &script).await.map(|_| ());
            if result.is_err() {
                break;
            }
        }
        scratch.close().await;
        result
    }

    /// Reads `browser`'s cookies and the `localStorage` of `origins`, of every origin a
    /// page of it showed since we connected and of every page's now (http and https),
    /// origins sorted, empty ones left out.
    pub async fn save(
        browser: &Browser,
        origins: impl IntoIterator<Item = String>,
    ) -> Result<StorageState, BrowserError> {
        let cookies = browser
            .call(storage::GetCookies {})
            .await?
            .cookies
            .into_iter()
            .map(Cookie::from_cdp)
            .collect();
        let mut wanted: BTreeSet<String> = origins.into_iter().collect();
        // Pages since closed (a host session's tab) kept their origin's storage.
        wanted.extend(browser.connection().visited_origins());
        for page in browser.pages().await? {
            if let Some(o) = origin(&page.url) {
                wanted.insert(o);
            }
        }
        let mut state = StorageState {
            cookies,
            origins: Vec::new(),
        };
        if wanted.is_empty() {
            return Ok(state);
        }
        let scratch = Scratch::open(browser).await?;
        let script = "JSON.stringify(Object.entries(localStorage))";
        for o in wanted {
            let read = scratch.run_at(&o, script).await;
            let pairs: Vec<(String, String)> = match read {
                Ok(serde_json::Value::String(json)) => {
                    serde_json::from_str(&json).unwrap_or_default()
                }
                Ok(_) => Vec::new(),
                Err(e) => {
                    scratch.close().await;
                    return Err(e);
                }
            };
            if !pairs.is_empty() {
                state.origins.push(OriginStorage {
                    origin: o,
                    local_storage: pairs
                        .into_iter()
                        .map(|(name, value)| NameValue { name, value })
                        .collect(),
                });
            }
        }
        scratch.close().await;
        Ok(state)
    }

    /// The origins this state holds storage for.
    pub fn origins(&self) -> impl Iterator<Item = String> + '_ {
        self.origins.iter().map(|o| o.origin.clone())
    }
}

impl Cookie {
    fn to_param(&self) -> storage::CookieParam {
        storage::CookieParam {
            name: self.name.clone(),
            value: self.value.clone(),
            domain: self.domain.clone(),
            path: self.path.clone(),
            secure: self.secure,
            http_only: self.http_only,
            same_site: Some(self.same_site.as_str().into()),
            expires: (self.expires >= 0.0).then_some(self.expires),
        }
    }

    fn from_cdp(c: storage::Cookie) -> Cookie {
        let same_site = match c.same_site.as_deref() {
            Some("Strict") => SameSite::Strict,
            Some("None") => SameSite::None,
            // Chromium's default for a cookie that names none; Playwright writes the same.
            _ => SameSite::Lax,
        };
        Cookie {
            expires: if c.session { -1.0 } else { c.expires },
            name: c.name,
            value: c.value,
            domain: c.domain,
            path: c.path,
            http_only: c.http_only,
            secure: c.secure,
            same_site,
        }
    }
}

/// A tab whose every request is answered here: documents by an empty page, the rest
/// refused. It visits an origin without touching the site.
struct Scratch {
    page: PageSession,
    answering: tokio::task::JoinHandle<()>,
}

impl Scratch {
    async fn open(browser: &Browser) -> Result<Scratch, BrowserError> {
        let page = browser.new_page("about:blank").await?;
        let mut events = page.subscribe();
        if let Err(e) = page
            .call(fetch::Enable {
                patterns: vec![fetch::RequestPattern {
                    url_pattern: Some("*".into()),
                    resource_type: None,
                    request_stage: Some("Request".into()),
                }],
            })
            .await
        {
            let _ = page.close().await;
            return Err(e.into());
        }
        let answerer = page.clone();
        let answering = tokio::spawn(async move {
            while let Some(event) = events.recv().await {
                let Some(Ok(paused)) = event.parse::<RequestPaused>() else {
                    continue;
                };
                let request_id = paused.request_id;
                let _ = answerer
                    .call(fetch::FulfillRequest {
                        request_id,
                        response_code: 200,
                        response_headers: vec![fetch::HeaderEntry {
                            name: "Content-Type".into(),
                            value: "text/html".into(),
                        }],
                    })
                    .await;
            }
        });
        Ok(Scratch { page, answering })
    }

    /// Loads `origin`'s empty document and evaluates `script` there. An error says what
    /// failed, never the script (it carries the values).
    async fn run_at(&self, origin: &str, script: &str) -> Result<serde_json::Value, BrowserError> {
        if !(origin.starts_with("http://") || origin.starts_with("https://")) {
            return Err(BrowserError::SessionFile {
                path: PathBuf::from(origin),
                reason: "not an http(s) origin".into(),
            });
        }
        self.page.navigate(&format!("{origin}/")).await?;
        let reply = self.page.call(runtime::Evaluate::by_value(script)).await?;
        if let Some(details) = reply.exception_details {
            return Err(BrowserError::SessionFile {
                path: PathBuf::from(origin),
                reason: format!("its localStorage cannot be reached: {}", details.message()),
            });
        }
        Ok(reply.result.value.unwrap_or(serde_json::Value::Null))
    }

    async fn close(self) {
        self.answering.abort();
        let _ = self.page.close().await;
    }
}
