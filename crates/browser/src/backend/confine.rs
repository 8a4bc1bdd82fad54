//! Keeps a page's top-level document on its allowed origins: every document request of
//! the main frame — a NAVIGATE, a link, a form, `location =`, a meta refresh, and each
//! hop of a redirect — pauses (`Fetch.requestPaused`) and is let go only when its origin
//! is allowed; any other is failed as `Aborted`, so the navigation is cancelled and the
//! page stays on the document it had (another reason commits an error page in its place).
//! Frames' documents are sub-resources of the page and pass: a cross-origin iframe keeps
//! working. Requests that never reach the network (a back/forward cache restore,
//! `about:blank`) are not seen here; the host refuses to act on such a page by its URL.

use super::pump::Shared;
use crate::cdp::events::RequestPaused;
use crate::cdp::methods::fetch;
use crate::cdp::FrameId;
use crate::{BrowserError, PageSession};
use std::future::Future;
use std::sync::Arc;

/// Origins a page's top-level document may load from, each `scheme://host[:port]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowedOrigins(Arc<[String]>);

impl AllowedOrigins {
    /// The origins given, compared as Chromium writes a URL (see [`origin`]); anything
    /// that is not an http(s) origin allows nothing.
    pub fn new<S: AsRef<str>>(origins: impl IntoIterator<Item = S>) -> Self {
        let mut all: Vec<String> = origins
            .into_iter()
            .filter_map(|o| origin(o.as_ref()))
            .collect();
        all.sort();
        all.dedup();
        AllowedOrigins(all.into())
    }

    /// Whether `url`'s origin is one of these.
    pub fn allows(&self, url: &str) -> bool {
        origin(url).is_some_and(|o| self.0.contains(&o))
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

/// `scheme://host[:port]` of an http(s) URL, lower-cased, user info and the scheme's
/// default port left out (as Chromium writes a URL); `None` for any other scheme.
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    // The host follows the last `@` (a canonical URL escapes any other).
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host_port = host_port.strip_suffix(default_port).unwrap_or(host_port);
    if host_port.is_empty() {
        return None;
    }
    Some(format!("{scheme}://{}", host_port.to_ascii_lowercase()))
}

/// Starts pausing the page's document requests; the returned future answers them by
/// `allowed` until the page's session ends (the backend runs it beside its pump), and
/// notes each URL it stopped in `shared` (`blocked`).
pub(super) async fn start(
    page: &PageSession,
    allowed: AllowedOrigins,
    shared: Shared,
) -> Result<impl Future<Output = ()> + Send + 'static, BrowserError> {
    let mut events = page.subscribe();
    page.call(fetch::Enable {
        patterns: vec![fetch::RequestPattern {
            url_pattern: Some("*".into()),
            resource_type: Some("Document".into()),
            request_stage: Some("Request".into()),
        }],
    })
    .await?;
    let page = page.clone();
    // A page target's main frame has the target's id.
    let main = FrameId(page.target_id().0.clone());
    Ok(async move {
        while let Some(event) = events.recv().await {
            let Some(Ok(paused)) = event.parse::<RequestPaused>() else {
                continue;
            };
            let request_id = paused.request_id;
            // Answered one at a time, in order; a failed answer (the request was
            // cancelled meanwhile, the page went) leaves nothing paused.
            let _ = if paused.frame_id != main || allowed.allows(&paused.request.url) {
                page.call(fetch::ContinueRequest { request_id }).await
            } else {
                shared.lock().blocked = Some(paused.request.url);
                page.call(fetch::FailRequest {
                    request_id,
                    error_reason: "Aborted".into(),
                })
                .await
            };
        }
    })
}

/// Stops pausing the page's document requests (those paused go on): for a page the
/// backend leaves while it stays open. A page already gone needs nothing.
pub(super) async fn release(page: &PageSession) {
    let _ = page.call(fetch::Disable {}).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_compared_as_chromium_writes_it() {
        let allowed = AllowedOrigins::new(["http://127.0.0.1:8080", "https://example.com:443"]);
        assert!(allowed.allows("http://127.0.0.1:8080/a?b#c"));
        assert!(allowed.allows("https://example.com/"));
        assert!(allowed.allows("HTTPS://EXAMPLE.COM"));
        for url in [
            "http://127.0.0.1:8081/",
            "https://127.0.0.1:8080/",
            "http://127.0.0.1:8080@evil.example/",
            "http://evil.example/?http://127.0.0.1:8080",
            "http://example.com/",
            "about:blank",
            "chrome-error://chromewebdata/",
            "data:text/html,x",
            "file:///etc/passwd",
        ] {
            assert!(!allowed.allows(url), "{url}");
        }
        assert_eq!(origin("http://a:80/x").as_deref(), Some("http://a"));
        assert_eq!(AllowedOrigins::new(["*", "ws://a"]).iter().count(), 0);
    }
}
