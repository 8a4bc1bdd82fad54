//! Turning a user-given DevTools endpoint into a websocket URL. `ws://` URLs pass
//! through; `http://host:port` is resolved with one `GET /json/version` (a minimal
//! HTTP/1.1 exchange, so no HTTP client dependency). TLS endpoints are not supported.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::error::BrowserError;

/// The largest `/json/version` reply accepted.
const MAX_REPLY_BYTES: u64 = 64 * 1024;

/// The websocket URL for `endpoint` (see the module docs).
pub async fn websocket_url(endpoint: &str, timeout: Duration) -> Result<String, BrowserError> {
    let bad = |reason: String| BrowserError::Endpoint {
        endpoint: endpoint.to_owned(),
        reason,
    };
    if endpoint.starts_with("ws://") {
        return Ok(endpoint.to_owned());
    }
    if endpoint.starts_with("wss://") || endpoint.starts_with("https://") {
        return Err(bad(
            "TLS endpoints are not supported; use ws:// or http://".into()
        ));
    }
    let Some(rest) = endpoint.strip_prefix("http://") else {
        return Err(bad(
            "expected ws://…/devtools/browser/… or http://host:port".into(),
        ));
    };
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.is_empty() {
        return Err(bad("no host".into()));
    }
    let addr = if authority
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };

    let exchange = async {
        let mut stream = TcpStream::connect(&addr).await?;
        // HTTP/1.1: Chromium answers HTTP/1.0 requests with nothing, and keeps the
        // connection open even after `Connection: close`, so read by Content-Length.
        let request = format!(
            "GET /json/version HTTP/1.1\r\nHost: {authority}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await?;
        read_reply(&mut stream).await
    };
    let reply = tokio::time::timeout(timeout, exchange)
        .await
        .map_err(|_| bad(format!("no /json/version reply within {timeout:?}")))?
        .map_err(|e| bad(format!("GET /json/version: {e}")))?;
    parse_version_reply(&reply).map_err(bad)
}

/// Reads one HTTP reply: the head, then `Content-Length` bytes (or up to EOF).
async fn read_reply(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut reply = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = find(&reply, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&reply[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(name, _)| name.trim() == "content-length")
                .and_then(|(_, v)| v.trim().parse::<usize>().ok());
            if length.is_some_and(|n| reply.len() >= end + 4 + n) {
                return Ok(reply);
            }
        }
        if reply.len() as u64 > MAX_REPLY_BYTES {
            return Err(std::io::Error::other("reply too large"));
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(reply);
        }
        reply.extend_from_slice(&chunk[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Extracts `webSocketDebuggerUrl` from a raw HTTP reply.
fn parse_version_reply(reply: &[u8]) -> Result<String, String> {
    let text = String::from_utf8_lossy(reply);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or("malformed HTTP reply to /json/version")?;
    let status = head.lines().next().unwrap_or_default();
    if status.split_whitespace().nth(1) != Some("200") {
        return Err(format!("/json/version answered `{status}`"));
    }
    let json: serde_json::Value =
        serde_json::from_str(body).map_err(|e| format!("/json/version is not JSON: {e}"))?;
    json.get("webSocketDebuggerUrl")
        .and_then(|v| v.as_str())
        .map(str::to_owned)
        .ok_or_else(|| "/json/version has no webSocketDebuggerUrl".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_chromium_version_reply() {
        let reply = b"HTTP/1.1 200 OK\r\nContent-Length:80\r\nContent-Type:application/json; charset=UTF-8\r\n\r\n{\"Browser\":\"HeadlessChrome/156\",\"webSocketDebuggerUrl\":\"ws://127.0.0.1:9222/devtools/browser/abc\"}";
        assert_eq!(
            parse_version_reply(reply).unwrap(),
            "ws://127.0.0.1:9222/devtools/browser/abc"
        );
        let err = parse_version_reply(b"HTTP/1.1 500 Oops\r\n\r\n").unwrap_err();
        assert!(err.contains("500"), "{err}");
    }

    #[tokio::test]
    async fn rejects_unknown_schemes() {
        let t = Duration::from_secs(1);
        assert!(websocket_url("ftp://x", t).await.is_err());
        let err = websocket_url("https://x:1", t).await.unwrap_err();
        assert!(err.to_string().contains("https://x:1"), "{err}");
        assert_eq!(websocket_url("ws://a/b", t).await.unwrap(), "ws://a/b");
    }
}
