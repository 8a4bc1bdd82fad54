//! Where a page session may be: the origin of the page it was opened on, plus — with
//! `allow_navigate` — its `navigate_origins`. The browser backend keeps the page's
//! top-level document there (`arc_browser::backend::AllowedOrigins`: a document request
//! anywhere else is cancelled, whatever started it: NAVIGATE, a redirect, a link, a form,
//! script, a meta refresh). As a second line, nothing is pressed or typed on a page whose
//! committed document is anywhere else (`origin_not_allowed`): a history restore never
//! reaches the network, and a browser attached over `--cdp` may not pause requests.
//!
//! A page opened on something other than http(s) (`about:blank`, a `file:` page the
//! user's browser shows) has no origin to grant: the session may act on that very
//! document, and navigate only to granted origins.

use crate::grants::Grants;
use crate::protocol::{ErrorCode, HostError};
use arc_browser::backend::{origin, AllowedOrigins};

#[derive(Clone, Debug)]
pub struct Confinement {
    allowed: AllowedOrigins,
    /// The URL the session was opened on, without its fragment.
    home: String,
}

impl Confinement {
    /// The confinement of a page session opened on `url` under `grants`.
    pub fn new(grants: &Grants, url: &str) -> Confinement {
        let granted = grants
            .navigate_origins
            .iter()
            .filter(|_| grants.allow_navigate)
            .map(String::as_str);
        Confinement {
            allowed: AllowedOrigins::new(origin(url).as_deref().into_iter().chain(granted)),
            home: without_fragment(url).to_owned(),
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
        if self.allowed.allows(url) || without_fragment(url) == self.home {
            return Ok(());
        }
        let here = origin(url).unwrap_or_else(|| {
            // Not http(s): its scheme says enough (no path or query leaves).
            format!("a {}: page", url.split(':').next().unwrap_or_default())
        });
        let allowed: Vec<&str> = self.allowed.iter().collect();
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
    fn a_page_that_is_not_http_keeps_only_its_own_document() {
        let c = Confinement::new(&grants(false, &[]), "file:///home/u/page.html");
        assert!(c.check(Some("file:///home/u/page.html#top")).is_ok());
        let e = c.check(Some("file:///etc/passwd")).unwrap_err();
        assert!(e.message.contains("a file: page"), "{}", e.message);
        assert!(e.message.contains("(none)"), "{}", e.message);
    }
}
