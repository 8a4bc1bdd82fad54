//! A small static file server on 127.0.0.1 for fixture sites and measurements.
//!
//! GET and HEAD only, HTTP/1.1 keep-alive, `Cache-Control: no-store`. Paths are
//! percent-decoded and then refused (403) if any segment is `..` or the resolved file
//! (after following symlinks) lies outside the root. HTML is served as
//! `text/html; charset=utf-8` because some pages (MiniWoB++) declare no charset.

use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};

/// Longest accepted request head (request line + headers).
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// An idle keep-alive connection is closed after this long.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// A running server. Stops (and drops its open connections) when dropped.
#[derive(Debug)]
pub struct StaticServer {
    addr: SocketAddr,
    root: PathBuf,
    task: JoinHandle<()>,
}

impl StaticServer {
    /// Serves the directory `root` on an ephemeral port of 127.0.0.1.
    pub async fn start(root: impl Into<PathBuf>) -> io::Result<StaticServer> {
        let root = root.into();
        let root = tokio::fs::canonicalize(&root).await.map_err(|e| {
            io::Error::new(e.kind(), format!("cannot serve {}: {e}", root.display()))
        })?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("cannot serve {}: not a directory", root.display()),
            ));
        }
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let shared_root = Arc::new(root.clone());
        let task = tokio::spawn(async move {
            // Owned here so aborting this task also aborts every connection task.
            let mut connections = JoinSet::new();
            loop {
                match listener.accept().await {
                    Ok((stream, _)) => {
                        connections.spawn(serve_connection(stream, Arc::clone(&shared_root)));
                    }
                    Err(e) => {
                        // E.g. EMFILE: back off instead of spinning.
                        tracing::warn!(error = %e, "static server accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
                while connections.try_join_next().is_some() {}
            }
        });
        tracing::debug!(%addr, root = %root.display(), "static server started");
        Ok(StaticServer { addr, root, task })
    }

    /// The bound address (127.0.0.1 and an ephemeral port).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The canonical directory being served.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `http://127.0.0.1:PORT/` followed by `path` (with or without a leading `/`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.addr, path.trim_start_matches('/'))
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// An HTTP status with its reason phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Ok,
    MovedPermanently,
    BadRequest,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    HeaderTooLarge,
    InternalError,
}

impl Status {
    fn line(self) -> &'static str {
        match self {
            Status::Ok => "200 OK",
            Status::MovedPermanently => "301 Moved Permanently",
            Status::BadRequest => "400 Bad Request",
            Status::Forbidden => "403 Forbidden",
            Status::NotFound => "404 Not Found",
            Status::MethodNotAllowed => "405 Method Not Allowed",
            Status::HeaderTooLarge => "431 Request Header Fields Too Large",
            Status::InternalError => "500 Internal Server Error",
        }
    }
}

struct Response {
    status: Status,
    content_type: &'static str,
    body: Vec<u8>,
    location: Option<String>,
}

impl Response {
    fn error(status: Status) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{}\n", status.line()).into_bytes(),
            location: None,
        }
    }
}

async fn serve_connection(stream: TcpStream, root: Arc<PathBuf>) {
    let _ = stream.set_nodelay(true);
    let mut stream = BufReader::new(stream);
    loop {
        let head = match tokio::time::timeout(IDLE_TIMEOUT, read_head(&mut stream)).await {
            Ok(Ok(Some(head))) => head,
            Ok(Err(HeadError::TooLarge)) => {
                let _ = write_response(
                    &mut stream,
                    Response::error(Status::HeaderTooLarge),
                    false,
                    false,
                )
                .await;
                return;
            }
            // EOF, I/O error or idle timeout.
            _ => return,
        };
        let (response, is_head, keep_alive) = handle(&root, &head).await;
        if write_response(&mut stream, response, is_head, keep_alive)
            .await
            .is_err()
            || !keep_alive
        {
            return;
        }
    }
}

enum HeadError {
    TooLarge,
    Io,
}

/// Reads one request head; `Ok(None)` on a clean EOF before any byte.
async fn read_head(stream: &mut BufReader<TcpStream>) -> Result<Option<String>, HeadError> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let n = stream
            .read_until(b'\n', &mut head)
            .await
            .map_err(|_| HeadError::Io)?;
        if n == 0 {
            return if head.is_empty() {
                Ok(None)
            } else {
                Err(HeadError::Io)
            };
        }
        if head.len() > MAX_HEAD_BYTES {
            return Err(HeadError::TooLarge);
        }
        let line = &head[before..];
        // Tolerate blank lines before the request line (RFC 9112 §2.2).
        if line == b"\r\n" || line == b"\n" {
            if before == 0 {
                head.clear();
                continue;
            }
            return Ok(Some(String::from_utf8_lossy(&head).into_owned()));
        }
    }
}

/// Answers one request: (response, whether it was HEAD, whether to keep the connection).
async fn handle(root: &Path, head: &str) -> (Response, bool, bool) {
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return (Response::error(Status::BadRequest), false, false);
    };
    let connection = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("connection"))
        .map(|(_, v)| v.trim().to_ascii_lowercase());
    let keep_alive = match version {
        "HTTP/1.1" => connection.as_deref() != Some("close"),
        _ => connection.as_deref() == Some("keep-alive"),
    };
    let is_head = method == "HEAD";
    if method != "GET" && !is_head {
        // A body may follow that we will not read: close the connection after this.
        return (Response::error(Status::MethodNotAllowed), false, false);
    }
    let response = match serve_file(root, target).await {
        Ok(r) => r,
        Err(status) => Response::error(status),
    };
    tracing::debug!(
        method,
        target,
        status = response.status.line(),
        "static server"
    );
    (response, is_head, keep_alive)
}

async fn serve_file(root: &Path, target: &str) -> Result<Response, Status> {
    let path = resolve(root, target)?;
    let meta = tokio::fs::metadata(&path)
        .await
        .map_err(|_| Status::NotFound)?;
    let path = if meta.is_dir() {
        let raw_path = target.split(['?', '#']).next().unwrap_or("/");
        if !raw_path.ends_with('/') {
            // Relative links in the index resolve against the directory only with a
            // trailing slash.
            return Ok(Response {
                location: Some(format!("{raw_path}/")),
                ..Response::error(Status::MovedPermanently)
            });
        }
        path.join("index.html")
    } else {
        path
    };
    // Follow symlinks, then re-check containment.
    let real = tokio::fs::canonicalize(&path)
        .await
        .map_err(|_| Status::NotFound)?;
    if !real.starts_with(root) {
        return Err(Status::Forbidden);
    }
    let body = tokio::fs::read(&real).await.map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Status::NotFound,
        io::ErrorKind::PermissionDenied => Status::Forbidden,
        // E.g. a directory named `index.html`.
        _ => Status::InternalError,
    })?;
    Ok(Response {
        status: Status::Ok,
        content_type: content_type(&real),
        body,
        location: None,
    })
}

/// Maps a request target to a path under `root`, refusing traversal. Does not touch
/// the file system.
pub(crate) fn resolve(root: &Path, target: &str) -> Result<PathBuf, Status> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Err(Status::BadRequest);
    }
    let decoded = percent_decode(path).ok_or(Status::BadRequest)?;
    if decoded.contains('\0') || decoded.contains('\\') {
        return Err(Status::BadRequest);
    }
    let mut out = root.to_path_buf();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(Status::Forbidden),
            s => out.push(s),
        }
    }
    Ok(out)
}

/// Decodes `%XX` escapes; `None` for a malformed escape or non-UTF-8 result.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The `Content-Type` for a file, by extension.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "wasm" => "application/wasm",
        "pdf" => "application/pdf",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        _ => "application/octet-stream",
    }
}

async fn write_response(
    stream: &mut BufReader<TcpStream>,
    response: Response,
    is_head: bool,
    keep_alive: bool,
) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: {}\r\n",
        response.status.line(),
        response.content_type,
        response.body.len(),
        if keep_alive { "keep-alive" } else { "close" },
    );
    if let Some(location) = &response.location {
        head.push_str(&format!("Location: {location}\r\n"));
    }
    head.push_str("\r\n");
    let stream = stream.get_mut();
    stream.write_all(head.as_bytes()).await?;
    if !is_head {
        stream.write_all(&response.body).await?;
    }
    stream.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_inside_root() {
        let root = Path::new("/srv");
        assert_eq!(
            resolve(root, "/a/b.html?x=1#f"),
            Ok(PathBuf::from("/srv/a/b.html"))
        );
        assert_eq!(
            resolve(root, "/a/./b%20c.html"),
            Ok(PathBuf::from("/srv/a/b c.html"))
        );
        assert_eq!(resolve(root, "/"), Ok(PathBuf::from("/srv")));
        assert_eq!(resolve(root, "//a//b"), Ok(PathBuf::from("/srv/a/b")));
    }

    #[test]
    fn refuses_traversal_in_every_spelling() {
        let root = Path::new("/srv");
        for target in [
            "/../etc/passwd",
            "/a/../../etc/passwd",
            "/a/..",
            "/%2e%2e/etc/passwd",
            "/%2E%2E%2Fetc%2Fpasswd",
            "/a/%2e%2e/%2e%2e/x",
        ] {
            assert_eq!(resolve(root, target), Err(Status::Forbidden), "{target}");
        }
        for target in ["/a%5c..%5cb", "/a%00b", "/%zz", "/%e2%28", "relative", "*"] {
            assert_eq!(resolve(root, target), Err(Status::BadRequest), "{target}");
        }
    }

    #[test]
    fn content_types() {
        assert_eq!(
            content_type(Path::new("a/B.HTML")),
            "text/html; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("x.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type(Path::new("x.woff2")), "font/woff2");
        assert_eq!(
            content_type(Path::new("Makefile")),
            "application/octet-stream"
        );
    }
}
