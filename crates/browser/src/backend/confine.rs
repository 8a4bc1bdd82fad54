//! Keeps a page's top-level document on its allowed origins: every document request of
//! the main frame — a NAVIGATE, a link, a form, `location =`, a meta refresh, and each
//! hop of a redirect — pauses (`Fetch.requestPaused`) and is let go only when its origin
//! is allowed; any other is failed as `Aborted`, so the navigation is cancelled and the
//! page stays on the document it had (another reason commits an error page in its place).
//! Frames' documents are sub-resources of the page and pass: a cross-origin iframe keeps
//! working. Requests that never reach the network (a back/forward cache restore,
//! `about:blank`) are not seen here; the host refuses to act on such a page by its URL.
//!
//! An allowed origin is exact (`http://127.0.0.1:8080`) or one of two patterns: a first
//! label `*.` for every subdomain of a name (`https://*.example.com`: `a.example.com`,
//! `a.b.example.com`, never `example.com` itself), a port `:*` for every port of a host
//! (`http://127.0.0.1:*`, the scheme's default port included). Anything else with a `*`
//! allows nothing; [`AllowedOrigins::any`] allows every http(s) origin.

use super::pump::Shared;
use crate::cdp::events::RequestPaused;
use crate::cdp::methods::fetch;
use crate::cdp::FrameId;
use crate::{BrowserError, PageSession};
use std::future::Future;
use std::sync::Arc;

/// Origins a page's top-level document may load from, each `scheme://host[:port]` or a
/// pattern of one (see the module's docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowedOrigins {
    patterns: Arc<[Pattern]>,
    /// Every http(s) origin.
    any: bool,
}

/// One allowed origin or pattern, as written (normalized) and taken apart.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Pattern {
    text: String,
    scheme: String,
    host: HostPattern,
    port: PortPattern,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum HostPattern {
    Exact(String),
    /// `*.suffix`: a host of one or more labels before `.suffix`.
    Subdomains(String),
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PortPattern {
    /// `None`: the scheme's default port (written without one).
    Exact(Option<String>),
    Any,
}

impl Pattern {
    /// An origin or a pattern of one, normalized as [`origin`] writes a URL's; `None`
    /// for anything else (a `*` anywhere but a whole first label or a whole port).
    fn parse(raw: &str) -> Option<Pattern> {
        let text = origin(raw)?;
        let (scheme, authority) = text.split_once("://")?;
        let (host, port) = split_host_port(authority);
        let host = match host.strip_prefix("*.") {
            Some(suffix) if !suffix.is_empty() && !suffix.starts_with('[') => {
                HostPattern::Subdomains(suffix.to_owned())
            }
            Some(_) => return None,
            None => HostPattern::Exact(host.to_owned()),
        };
        let port = match port {
            Some("*") => PortPattern::Any,
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) && !p.is_empty() => {
                PortPattern::Exact(Some(p.to_owned()))
            }
            Some(_) => return None,
            None => PortPattern::Exact(None),
        };
        let wild_host = match &host {
            HostPattern::Exact(h) | HostPattern::Subdomains(h) => h.contains('*'),
        };
        if wild_host || host_of(&host).is_empty() {
            return None;
        }
        Some(Pattern {
            scheme: scheme.to_owned(),
            text,
            host,
            port,
        })
    }

    /// Whether the origin `scheme://host[:port]` ([`origin`]'s form) is one this allows.
    fn matches(&self, scheme: &str, host: &str, port: Option<&str>) -> bool {
        let host_ok = match &self.host {
            HostPattern::Exact(h) => h == host,
            // Only plain labels before the name: nothing the browser could decode into
            // another host (`%2e`), never the name itself.
            HostPattern::Subdomains(suffix) => host
                .strip_suffix(suffix.as_str())
                .and_then(|labels| labels.strip_suffix('.'))
                .is_some_and(|labels| {
                    !labels.is_empty()
                        && labels.split('.').all(|l| {
                            !l.is_empty()
                                && l.bytes()
                                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                        })
                }),
        };
        let port_ok = match &self.port {
            PortPattern::Any => true,
            PortPattern::Exact(p) => p.as_deref() == port,
        };
        self.scheme == scheme && host_ok && port_ok
    }
}

fn host_of(host: &HostPattern) -> &str {
    match host {
        HostPattern::Exact(h) | HostPattern::Subdomains(h) => h,
    }
}

/// `host[:port]` apart; an IPv6 literal keeps its brackets.
fn split_host_port(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        return match authority.find(']') {
            Some(end) => {
                let (host, rest) = authority.split_at(end + 1);
                (host, rest.strip_prefix(':'))
            }
            None => (authority, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (authority, None),
    }
}

impl AllowedOrigins {
    /// The origins and patterns given, compared as Chromium writes a URL (see
    /// [`origin`]); anything that is neither an http(s) origin nor one of the two
    /// patterns allows nothing.
    pub fn new<S: AsRef<str>>(origins: impl IntoIterator<Item = S>) -> Self {
        let mut all: Vec<Pattern> = origins
            .into_iter()
            .filter_map(|o| Pattern::parse(o.as_ref()))
            .collect();
        all.sort();
        all.dedup();
        AllowedOrigins {
            patterns: all.into(),
            any: false,
        }
    }

    /// Every http(s) origin (an explicit grant of all of them).
    pub fn any() -> Self {
        AllowedOrigins {
            patterns: Arc::new([]),
            any: true,
        }
    }

    /// Whether this allows every http(s) origin.
    pub fn is_any(&self) -> bool {
        self.any
    }

    /// Whether `url`'s origin is one of these (or matches one of the patterns).
    pub fn allows(&self, url: &str) -> bool {
        let Some(o) = origin(url) else { return false };
        if self.any {
            return true;
        }
        let Some((scheme, authority)) = o.split_once("://") else {
            return false;
        };
        let (host, port) = split_host_port(authority);
        self.patterns.iter().any(|p| p.matches(scheme, host, port))
    }

    /// The origins and patterns, as written (normalized); none for [`AllowedOrigins::any`].
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.patterns.iter().map(|p| p.text.as_str())
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

    #[test]
    fn a_port_pattern_allows_every_port_of_its_host_and_scheme_only() {
        let allowed = AllowedOrigins::new(["http://127.0.0.1:*"]);
        for url in [
            "http://127.0.0.1:8080/a",
            "http://127.0.0.1:1/",
            "http://127.0.0.1/",
            "http://127.0.0.1:80/",
        ] {
            assert!(allowed.allows(url), "{url}");
        }
        for url in [
            "https://127.0.0.1:8080/",
            "http://localhost:8080/",
            "http://127.0.0.10:8080/",
            "http://a.127.0.0.1:8080/",
            "http://127.0.0.1:8080@evil.example/",
            "http://evil.example/?http://127.0.0.1:8080",
        ] {
            assert!(!allowed.allows(url), "{url}");
        }
        assert_eq!(allowed.iter().collect::<Vec<_>>(), ["http://127.0.0.1:*"]);
    }

    #[test]
    fn a_subdomain_pattern_allows_the_names_below_it_never_the_name_itself() {
        let allowed = AllowedOrigins::new(["https://*.example.com"]);
        for url in [
            "https://a.example.com/x",
            "https://a.b.example.com/",
            "https://a-1.example.com:443/",
            "HTTPS://A.EXAMPLE.COM/",
        ] {
            assert!(allowed.allows(url), "{url}");
        }
        for url in [
            "https://example.com/",
            "http://a.example.com/",
            "https://a.example.com:8443/",
            "https://aexample.com/",
            "https://a.example.com.evil.example/",
            "https://evil.example/.example.com",
            "https://a%2eexample.com/",
            "https://evil.com%2f.example.com/",
            "https://.example.com/",
            "https://a..example.com/",
        ] {
            assert!(!allowed.allows(url), "{url}");
        }
        let both = AllowedOrigins::new(["http://*.localhost:*"]);
        assert!(both.allows("http://a.localhost:9000/"));
        assert!(!both.allows("http://localhost:9000/"));
    }

    #[test]
    fn a_star_anywhere_else_allows_nothing_and_any_allows_every_http_origin() {
        for raw in [
            "http://*",
            "http://*:*",
            "http://*.",
            "http://a.*.com",
            "http://*.*.com",
            "http://*a.com",
            "http://127.0.0.1:8*",
            "http://*.[::1]",
        ] {
            let allowed = AllowedOrigins::new([raw]);
            assert_eq!(allowed.iter().count(), 0, "{raw}");
            assert!(!allowed.allows("http://a.com/"), "{raw}");
        }
        let any = AllowedOrigins::any();
        assert!(any.allows("https://anything.example/") && any.allows("http://127.0.0.1:1/"));
        for url in [
            "about:blank",
            "file:///etc/passwd",
            "chrome-error://chromewebdata/",
        ] {
            assert!(!any.allows(url), "{url}");
        }
    }
}
