//! What a session may do, fixed when it opens. Everything defaults to false: a session
//! opened with no grants can observe, find and wait, nothing else.

use crate::protocol::{ErrorCode, HostError};
use arc_browser::backend::AllowedOrigins;
use arc_core::{ActionKind, Risk};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grants {
    /// Pointer and keyboard input, values, scrolling (every action but WAIT and NAVIGATE).
    #[serde(default)]
    pub allow_input: bool,
    /// NAVIGATE, only to http(s) URLs whose origin is in `navigate_origins`.
    #[serde(default)]
    pub allow_navigate: bool,
    /// Origins NAVIGATE may go to (`http://127.0.0.1:8080`), or patterns of them: every
    /// subdomain of a name (`https://*.example.com`), every port of a host
    /// (`http://127.0.0.1:*`); [`parse_origin`] says what is refused. With
    /// `allow_navigate`, the page may also be on them by any other way (a link, a form,
    /// script); it may always be on its own origin, and nowhere else (`confine.rs`).
    #[serde(default)]
    pub navigate_origins: Vec<String>,
    /// With `allow_navigate`: every http(s) origin, as if each were in
    /// `navigate_origins` (`arc-cua mcp --allow-any-origin`). Never implied by a pattern.
    #[serde(default)]
    pub navigate_any_origin: bool,
    /// Opening a new tab for the session (`open_session` with `target.url`).
    #[serde(default)]
    pub allow_launch: bool,
    /// Risks (`delete`, `send`, `purchase`, `close`) the session may press.
    #[serde(default)]
    pub allowed_risks: BTreeSet<Risk>,
    /// Directories whose files a file input may be given (absolute; a file is judged by
    /// where it really is, its links followed). None by default: no upload.
    #[serde(default)]
    pub allow_files: Vec<std::path::PathBuf>,
}

impl Grants {
    /// Whether input may run at all under these grants: a core action's kind or input
    /// that is none (a click at a point, typing at the focus); `what` names it in the
    /// error.
    pub fn check_input(&self, what: &str) -> Result<(), HostError> {
        if !self.allow_input {
            return Err(HostError::new(
                ErrorCode::InputNotGranted,
                format!("{what} needs the allow_input grant; open a session with it"),
            ));
        }
        Ok(())
    }

    /// Whether `kind` may run at all under these grants (the literal is checked by
    /// [`Grants::check_url`]).
    pub fn check_kind(&self, kind: ActionKind) -> Result<(), HostError> {
        match kind {
            ActionKind::Wait => Ok(()),
            ActionKind::Navigate if !self.allow_navigate => Err(HostError::new(
                ErrorCode::NavigateNotGranted,
                "NAVIGATE needs the allow_navigate grant (with navigate_origins); open a session with it",
            )),
            ActionKind::Navigate => Ok(()),
            _ => self.check_input(kind.as_str()),
        }
    }

    /// A NAVIGATE target: http(s) only, its origin one of `navigate_origins` or matched
    /// by one of their patterns (or any, with `navigate_any_origin`).
    pub fn check_url(&self, url: &str) -> Result<(), HostError> {
        let origin = origin_of(url)?;
        if !self.navigable().allows(&origin) {
            return Err(HostError::new(
                ErrorCode::NavigateNotGranted,
                format!("origin {origin} is not in the session's navigate_origins"),
            ));
        }
        Ok(())
    }

    /// Where these grants let a page go: nothing without `allow_navigate`; every http(s)
    /// origin with `navigate_any_origin`; else `navigate_origins` and their patterns.
    pub fn navigable(&self) -> AllowedOrigins {
        match (self.allow_navigate, self.navigate_any_origin) {
            (false, _) => AllowedOrigins::default(),
            (true, true) => AllowedOrigins::any(),
            (true, false) => AllowedOrigins::new(&self.navigate_origins),
        }
    }

    /// The URL of a new tab (`allow_launch`): http(s), or `about:blank` (a blank tab,
    /// which loads nothing).
    pub fn check_launch(&self, url: &str) -> Result<(), HostError> {
        if !self.allow_launch {
            return Err(HostError::new(
                ErrorCode::LaunchNotGranted,
                "opening a new tab needs the allow_launch grant; or name an existing target_id",
            ));
        }
        if url == BLANK {
            return Ok(());
        }
        origin_of(url).map(|_| ())
    }

    /// A subtask's risks must be within the session's.
    pub fn check_risks(&self, wanted: &BTreeSet<Risk>) -> Result<(), HostError> {
        let missing: Vec<&str> = wanted
            .difference(&self.allowed_risks)
            .map(|r| r.as_str())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(HostError::new(
            ErrorCode::RiskNotGranted,
            format!(
                "the subtask allows {} but the session's allowed_risks do not; drop them or open a session that grants them",
                missing.join(", ")
            ),
        ))
    }
}

impl Grants {
    /// Whether `path` may be uploaded: it resolves (links followed) to a readable regular
    /// file within the upload bound, under one of `allow_files`.
    pub fn check_file(&self, path: &str) -> Result<(), HostError> {
        let not_granted = |why: String| HostError::new(ErrorCode::FileNotGranted, why);
        let real = std::fs::canonicalize(path)
            .map_err(|e| not_granted(format!("{path:?} cannot be uploaded: {e}")))?;
        let under = self.allow_files.iter().any(|dir| {
            std::fs::canonicalize(dir).is_ok_and(|d| d.is_dir() && real.starts_with(&d))
        });
        if !under {
            return Err(not_granted(format!(
                "{path:?} is not under a directory the session's allow_files grants; open a session that grants its directory"
            )));
        }
        arc_browser::upload::check_file(path)
            .map(|_| ())
            .map_err(|why| HostError::new(ErrorCode::InvalidParams, why))
    }
}

/// The one URL a session may be opened on that is not http(s): a blank tab.
pub const BLANK: &str = "about:blank";

/// `scheme://host[:port]` of an http(s) URL, lower-cased; any other scheme (also
/// hidden behind whitespace or case) is `forbidden_scheme`.
pub fn origin_of(url: &str) -> Result<String, HostError> {
    let trimmed = url.trim_start_matches(|c: char| c.is_whitespace() || c.is_control());
    let Some((scheme, rest)) = trimmed.split_once("://") else {
        let scheme = trimmed.split(':').next().unwrap_or_default();
        return Err(HostError::new(
            ErrorCode::ForbiddenScheme,
            format!(
                "only http and https URLs are navigated to (got scheme {:?})",
                arc_core::clip(scheme, 32)
            ),
        ));
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(HostError::new(
            ErrorCode::ForbiddenScheme,
            format!(
                "only http and https URLs are navigated to (got {:?})",
                arc_core::clip(&scheme, 32)
            ),
        ));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') || authority.contains('\\') {
        return Err(HostError::new(
            ErrorCode::NavigateNotGranted,
            "the URL has no plain host (user info and backslashes are refused)",
        ));
    }
    Ok(format!("{scheme}://{}", authority.to_ascii_lowercase()))
}

/// A granted origin as written: exactly `http(s)://host[:port]`, a trailing `/` allowed,
/// returned without it; or one of two patterns: `*.` as the whole first label of a name
/// (`https://*.example.com`: its subdomains, not the name itself) and `*` as the whole
/// port (`http://127.0.0.1:*`: every port). Anything else is refused (`invalid_params`),
/// naming the origin: a bare `*` (every origin is `navigate_any_origin`), a `*` anywhere
/// else, a wildcard over an address or a top-level domain, a path, query or fragment,
/// user info, a bad port, another scheme, and upper case, with the lower-case form
/// suggested: a grant is compared as written, so it must be written as an origin.
pub fn parse_origin(raw: &str) -> Result<String, HostError> {
    let bad = |why: &str| {
        HostError::new(
            ErrorCode::InvalidParams,
            format!(
                "{:?} is not an origin ({why}); write http(s)://host[:port], e.g. http://127.0.0.1:8080, or a pattern: https://*.example.com, http://127.0.0.1:*",
                arc_core::clip(raw, 64)
            ),
        )
    };
    if raw.trim() == "*" {
        return Err(bad(
            "a bare * is not granted: every origin is granted only explicitly, as --allow-any-origin (navigate_any_origin)",
        ));
    }
    let lower = raw.to_ascii_lowercase();
    let Some((scheme, rest)) = raw.split_once("://") else {
        return Err(bad("no http:// or https://"));
    };
    if scheme != "http" && scheme != "https" {
        return Err(
            if matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
                bad(&format!("upper case; write {lower:?}"))
            } else {
                bad("only http and https origins are granted")
            },
        );
    }
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.is_empty() {
        return Err(bad("no host"));
    }
    if authority.contains(['/', '?', '#']) {
        return Err(bad("an origin has no path, query or fragment"));
    }
    if authority.contains(['@', '\\'])
        || authority
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(bad("user info, backslashes and spaces are refused"));
    }
    let (host, port) = match authority.strip_prefix('[') {
        // An IPv6 literal: `[::1]` or `[::1]:8080`.
        Some(v6) => match v6.split_once(']') {
            Some((inside, "")) => (&authority[..inside.len() + 2], None),
            Some((inside, after)) => match after.strip_prefix(':') {
                Some(p) => (&authority[..inside.len() + 2], Some(p)),
                None => return Err(bad("the host must be a name or an address")),
            },
            None => return Err(bad("the host must be a name or an address")),
        },
        None => match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        },
    };
    const WHERE_STARS_GO: &str =
        "a * stands only for a whole first label (https://*.example.com) or a whole port (http://127.0.0.1:*)";
    if let Some(p) = port.filter(|p| *p != "*") {
        if p.contains('*') {
            return Err(bad(WHERE_STARS_GO));
        }
        if !p.bytes().all(|b| b.is_ascii_digit()) || p.parse::<u16>().map_or(true, |n| n == 0) {
            return Err(bad("the port must be 1–65535 or *"));
        }
    }
    let name = match host.strip_prefix("*.") {
        Some(name) => {
            if name.is_empty() {
                return Err(bad("the host must be a name or an address"));
            }
            if name.contains('*') {
                return Err(bad(WHERE_STARS_GO));
            }
            if name.starts_with('[') || name.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                return Err(bad("an address has no subdomains"));
            }
            if !name.contains('.') && !name.eq_ignore_ascii_case("localhost") {
                return Err(bad(
                    "a wildcard covers one name's subdomains (*.example.com), not a top-level domain",
                ));
            }
            name
        }
        None if host.contains('*') => return Err(bad(WHERE_STARS_GO)),
        None => host,
    };
    let host_ok = !name.is_empty()
        && (name.starts_with('[')
            || (name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
                && !name.starts_with('.')
                && !name.contains("..")));
    if !host_ok {
        return Err(bad("the host must be a name or an address"));
    }
    if authority.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(bad(&format!(
            "upper case; write {:?}",
            format!("{scheme}://{}", authority.to_ascii_lowercase())
        )));
    }
    Ok(format!("{scheme}://{authority}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn navigating(origins: &[&str]) -> Grants {
        Grants {
            allow_navigate: true,
            navigate_origins: origins.iter().map(|s| s.to_string()).collect(),
            ..Grants::default()
        }
    }

    #[test]
    fn only_listed_http_origins_are_navigated_to() {
        let g = navigating(&["http://127.0.0.1:8080/"]);
        assert!(g.check_url("http://127.0.0.1:8080/form.html?x#y").is_ok());
        assert!(
            g.check_url("HTTP://127.0.0.1:8080").is_ok(),
            "scheme and host fold case"
        );
        let code = |url: &str| g.check_url(url).unwrap_err().code;
        assert_eq!(
            code("http://127.0.0.1:8081/"),
            ErrorCode::NavigateNotGranted
        );
        assert_eq!(
            code("https://127.0.0.1:8080/"),
            ErrorCode::NavigateNotGranted
        );
        assert_eq!(
            code("http://127.0.0.1:8080@evil.example/"),
            ErrorCode::NavigateNotGranted
        );
        assert_eq!(
            code("http://evil.example\\@127.0.0.1:8080/"),
            ErrorCode::NavigateNotGranted
        );
        for url in [
            "javascript:alert(1)",
            " \tJaVaScRiPt:alert(1)",
            "file:///etc/passwd",
            "data:text/html,x",
            "http:\\\\127.0.0.1:8080",
            "chrome://settings",
        ] {
            assert_eq!(code(url), ErrorCode::ForbiddenScheme, "{url}");
        }
    }

    #[test]
    fn a_granted_origin_must_be_written_as_one() {
        assert_eq!(
            parse_origin("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            parse_origin("https://example.com").unwrap(),
            "https://example.com"
        );
        assert_eq!(
            parse_origin("http://[::1]:9000").unwrap(),
            "http://[::1]:9000"
        );
        for raw in [
            "*",
            "not an origin",
            "javascript:alert(1)",
            "HTTP://example.com",
            "http://Example.com",
            "http://example.com/path",
            "http://example.com?q",
            "http://example.com#f",
            "http://user@example.com",
            "http://example.com:0",
            "http://example.com:99999",
            "http://example.com:8o",
            "http://",
            "file:///etc",
            "ws://example.com",
            "http://exa mple.com",
        ] {
            let e = parse_origin(raw).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParams, "{raw}");
            assert!(e.message.contains("not an origin"), "{raw}: {}", e.message);
        }
        assert!(parse_origin("HTTP://example.com")
            .unwrap_err()
            .message
            .contains("\"http://example.com\""));
    }

    #[test]
    fn a_subdomain_or_a_port_wildcard_is_granted_as_written() {
        for raw in [
            "https://*.example.com",
            "http://127.0.0.1:*",
            "http://*.localhost:*",
            "https://*.a.example.com:8443",
            "http://[::1]:*",
            "http://localhost:*/",
        ] {
            assert_eq!(
                parse_origin(raw).unwrap(),
                raw.trim_end_matches('/'),
                "{raw}"
            );
        }
    }

    #[test]
    fn every_other_wildcard_is_refused_naming_the_origin_and_why() {
        for (raw, why) in [
            ("*", "--allow-any-origin"),
            (" * ", "--allow-any-origin"),
            ("http://*", "whole first label"),
            ("http://*:*", "whole first label"),
            ("https://*example.com", "whole first label"),
            ("https://a.*.example.com", "whole first label"),
            ("https://*.*.example.com", "whole first label"),
            ("https://ex*ample.com", "whole first label"),
            ("http://127.0.0.1:8*", "whole first label"),
            ("http://127.0.0.1:**", "whole first label"),
            ("https://*.com", "top-level domain"),
            ("https://*.", "host must be"),
            ("https://*..example.com", "host must be"),
            ("http://*.127.0.0.1", "address has no subdomains"),
            ("http://*.[::1]", "port must be"),
            ("https://*.Example.com", "upper case"),
            ("HTTPS://*.example.com", "upper case"),
            ("https://*.example.com/path", "no path"),
            ("https://*.example.com?q", "no path"),
            ("https://user@*.example.com", "user info"),
            ("https://*.example.com:0", "1–65535"),
            ("*://example.com", "only http and https"),
            ("ws://127.0.0.1:*", "only http and https"),
        ] {
            let e = parse_origin(raw).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidParams, "{raw}");
            assert!(
                e.message.contains(&format!("{raw:?} is not an origin")),
                "{raw}: {}",
                e.message
            );
            assert!(e.message.contains(why), "{raw}: {}", e.message);
        }
    }

    #[test]
    fn navigate_goes_where_a_pattern_or_the_any_grant_says_and_nowhere_else() {
        let g = navigating(&["http://127.0.0.1:*", "https://*.example.com"]);
        for url in [
            "http://127.0.0.1:8080/a",
            "http://127.0.0.1/",
            "https://a.example.com/",
            "https://a.b.example.com/x?y",
        ] {
            assert!(g.check_url(url).is_ok(), "{url}");
        }
        for url in [
            "http://localhost:8080/",
            "https://127.0.0.1:8080/",
            "https://example.com/",
            "http://a.example.com/",
            "https://a.example.com.evil.example/",
            "http://127.0.0.1:8080@evil.example/",
        ] {
            assert_eq!(
                g.check_url(url).unwrap_err().code,
                ErrorCode::NavigateNotGranted,
                "{url}"
            );
        }
        let any = Grants {
            navigate_any_origin: true,
            ..navigating(&[])
        };
        assert!(any.check_url("https://anywhere.example/").is_ok());
        assert_eq!(
            any.check_url("file:///etc/passwd").unwrap_err().code,
            ErrorCode::ForbiddenScheme
        );
        let not_navigating = Grants {
            allow_navigate: false,
            ..any
        };
        assert!(not_navigating.navigable().iter().next().is_none());
        assert!(!not_navigating
            .navigable()
            .allows("https://anywhere.example/"));
    }

    #[test]
    fn a_blank_tab_is_the_one_launch_that_is_not_http() {
        let g = Grants {
            allow_launch: true,
            ..Grants::default()
        };
        assert!(g.check_launch("about:blank").is_ok());
        for url in [
            "about:blank#x",
            "about:srcdoc",
            "data:text/html,x",
            "file:///etc",
        ] {
            assert_eq!(
                g.check_launch(url).unwrap_err().code,
                ErrorCode::ForbiddenScheme,
                "{url}"
            );
        }
    }

    #[test]
    fn grants_default_to_nothing() {
        let g = Grants::default();
        assert_eq!(
            g.check_kind(ActionKind::Click).unwrap_err().code,
            ErrorCode::InputNotGranted
        );
        assert_eq!(
            g.check_kind(ActionKind::Navigate).unwrap_err().code,
            ErrorCode::NavigateNotGranted
        );
        assert!(g.check_kind(ActionKind::Wait).is_ok());
        assert!(!g.navigate_any_origin && !g.navigable().allows("http://a/"));
        assert_eq!(
            g.check_launch("about:blank").unwrap_err().code,
            ErrorCode::LaunchNotGranted
        );
        assert_eq!(
            g.check_launch("http://a/").unwrap_err().code,
            ErrorCode::LaunchNotGranted
        );
        let wanted = [Risk::Delete].into_iter().collect();
        assert_eq!(
            g.check_risks(&wanted).unwrap_err().code,
            ErrorCode::RiskNotGranted
        );
        let parsed: Result<Grants, _> = serde_json::from_str(r#"{"allow_everything": true}"#);
        assert!(parsed.is_err(), "unknown grants are refused, not ignored");
    }
}
