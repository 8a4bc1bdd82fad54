//! Where a page session may be: the origin of the page it was opened on, plus — with
//! `allow_navigate` — its `navigate_origins` and the origins their patterns match
//! (`https://*.example.com`, `http://127.0.0.1:*`), or every http(s) origin with
//! `navigate_any_origin` (`Grants::navigable`). The browser backend keeps the page's
//! top-level document there (`arc_browser::backend::AllowedOrigins`: a document request
//! anywhere else is cancelled, whatever started it: NAVIGATE, a redirect, a link, a form,
//! script, a meta refresh). As a second line, nothing is pressed or typed on a page whose
//! committed document is anywhere else (`origin_not_allowed`): a history restore never
//! reaches the network, and a browser attached over `--cdp` may not pause requests.
//!
//! A page opened on something other than http(s) (a `file:` page the user's browser
//! shows) has no origin to grant: the session may act on that very document, and
//! navigate only to granted origins. A blank tab (`about:blank`) is no such document: a
//! session opened on one may act on it until the page commits a document, and never on
//! an `about:blank` it comes back to (its content would be a page's that is gone).

use crate::grants::{Grants, BLANK};
use crate::protocol::{ErrorCode, HostError};
use arc_browser::backend::{origin, AllowedOrigins};

#[derive(Clone, Debug)]
pub struct Confinement {
    allowed: AllowedOrigins,
    /// The URL the session was opened on, without its fragment (`None`: a blank tab).
    home: Option<String>,
}

impl Confinement {
    /// The confinement of a page session opened on `url` under `grants`.
    pub fn new(grants: &Grants, url: &str) -> Confinement {
        let granted = grants.navigable();
        let allowed = if granted.is_any() {
            granted
        } else {
            AllowedOrigins::new(
                origin(url)
                    .into_iter()
                    .chain(granted.iter().map(str::to_owned)),
            )
        };
        Confinement {
            allowed,
            home: (url != BLANK).then(|| without_fragment(url).to_owned()),
        }
    }

    /// What the browser backend enforces.
    pub fn allowed(&self) -> &AllowedOrigins {
        &self.allowed
    }

    /// Refuses acting on a page whose document is at `url` (`None`: none committed since
    /// the session opened, so still the one it was opened on) when that is off the
    /// session's origins.
    pub fn check(&self, url: Option<&str>) -> Result<(), HostError> {
        let Some(url) = url else { return Ok(()) };
        if self.allowed.allows(url) || self.home.as_deref() == Some(without_fragment(url)) {
            return Ok(());
        }
        let here = origin(url).unwrap_or_else(|| {
            // Not http(s): its scheme says enough (no path or query leaves).
            format!("a {}: page", url.split(':').next().unwrap_or_default())
        });
        let allowed: Vec<&str> = if self.allowed.is_any() {
            vec!["any http(s) origin"]
        } else {
            self.allowed.iter().collect()
        };
        Err(HostError::new(
            ErrorCode::OriginNotAllowed,
            format!(
                "the page is on {}, which is not one of this session's origins ({}): nothing was done; NAVIGATE back to one of them, or open a session on this page",
                arc_core::clip(&here, 80),
                if allowed.is_empty() { "none".to_owned() } else { allowed.join(", ") }
            ),
        ))
    }
}

fn without_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants(navigate: bool, origins: &[&str]) -> Grants {
        Grants {
            allow_navigate: navigate,
            navigate_origins: origins.iter().map(|s| s.to_string()).collect(),
            ..Grants::default()
        }
    }

    #[test]
    fn a_session_stays_on_its_own_origin_and_the_granted_ones() {
        let c = Confinement::new(
            &grants(true, &["http://127.0.0.1:9000"]),
            "http://127.0.0.1:8080/start.html",
        );
        assert!(c.check(None).is_ok());
        assert!(c.check(Some("http://127.0.0.1:8080/other?x")).is_ok());
        assert!(c.check(Some("http://127.0.0.1:9000/")).is_ok());
        let e = c
            .check(Some("http://127.0.0.1:8081/secret?token=x"))
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::OriginNotAllowed);
        assert!(
            e.message.contains("http://127.0.0.1:8081,"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("token"), "{}", e.message);
        assert!(c.check(Some("chrome-error://chromewebdata/")).is_err());
        assert!(c.check(Some("about:blank")).is_err());
    }

    #[test]
    fn origins_listed_without_allow_navigate_grant_nothing() {
        let c = Confinement::new(
            &grants(false, &["http://127.0.0.1:9000"]),
            "http://127.0.0.1:8080/",
        );
        assert!(c.check(Some("http://127.0.0.1:9000/")).is_err());
    }

    #[test]
    fn patterns_and_the_any_grant_confine_as_they_grant() {
        let c = Confinement::new(
            &grants(true, &["http://127.0.0.1:*", "https://*.example.com"]),
            "http://localhost:8080/start.html",
        );
        for url in [
            "http://localhost:8080/x",
            "http://127.0.0.1:9000/",
            "https://a.example.com/",
        ] {
            assert!(c.check(Some(url)).is_ok(), "{url}");
        }
        for url in [
            "http://localhost:9000/",
            "https://example.com/",
            "https://a.example.com.evil.example/",
        ] {
            assert_eq!(
                c.check(Some(url)).unwrap_err().code,
                ErrorCode::OriginNotAllowed,
                "{url}"
            );
        }
        let e = c.check(Some("http://localhost:9000/")).unwrap_err();
        assert!(e.message.contains("https://*.example.com"), "{}", e.message);
        let any = Confinement::new(
            &Grants {
                navigate_any_origin: true,
                ..grants(true, &[])
            },
            "http://localhost:8080/",
        );
        assert!(any.check(Some("https://anywhere.example/")).is_ok());
        let e = any.check(Some("about:blank")).unwrap_err();
        assert!(e.message.contains("any http(s) origin"), "{}", e.message);
        let not_granted = Confinement::new(
            &Grants {
                navigate_any_origin: true,
                ..grants(false, &["http://127.0.0.1:*"])
            },
            "http://localhost:8080/",
        );
        assert!(not_granted.check(Some("http://127.0.0.1:9000/")).is_err());
        assert!(not_granted
            .check(Some("https://anywhere.example/"))
            .is_err());
    }

    #[test]
    fn a_blank_tab_is_acted_on_only_until_a_document_commits() {
        let c = Confinement::new(&grants(true, &["http://127.0.0.1:*"]), "about:blank");
        assert!(c.check(None).is_ok());
        assert!(c.check(Some("http://127.0.0.1:9000/")).is_ok());
        for url in ["about:blank", "about:blank#x", "http://localhost:9000/"] {
            assert!(c.check(Some(url)).is_err(), "{url}");
        }
    }

    #[test]
    fn a_page_that_is_not_http_keeps_only_its_own_document() {
        let c = Confinement::new(&grants(false, &[]), "file:///home/u/page.html");
        assert!(c.check(Some("file:///home/u/page.html#top")).is_ok());
        let e = c.check(Some("file:///etc/passwd")).unwrap_err();
        assert!(e.message.contains("a file: page"), "{}", e.message);
        assert!(e.message.contains("(none)"), "{}", e.message);
    }
}
