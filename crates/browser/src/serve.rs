//! A small static file server on 127.0.0.1 for fixture sites, measurements and the
//! CLI's local pages.
//!
//! GET and HEAD only, HTTP/1.1 keep-alive, `Cache-Control: no-store`. Paths are
//! percent-decoded and then refused (403) if any segment is `..` or the resolved file
//! (after following symlinks) lies outside the root. Dotfiles and dot-directories are
//! never served, at any depth and whether named or reached through a symlink (404); a
//! directory is served only as its `index.html`, never listed. A scoped server
//! ([`StaticServer::start_scoped`]) answers only under an unguessable prefix
//! (`/<128-bit random hex>/`), so another local user who finds the port cannot fetch
//! anything. HTML is served as `text/html; charset=utf-8` because some pages (MiniWoB++)
//! declare no charset.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
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
    /// `/<hex>` for a scoped server, empty otherwise.
    prefix: String,
    task: JoinHandle<()>,
}

impl StaticServer {
    /// Serves the directory `root` on an ephemeral port of 127.0.0.1, at `/`. For the
    /// project's own fixture sites, whose pages use absolute paths (`/common/…`).
    pub async fn start(root: impl Into<PathBuf>) -> io::Result<StaticServer> {
        Self::start_at(root.into(), String::new()).await
    }

    /// Serves `root` only under a fresh unguessable prefix (`/<32 hex digits>/`, 128
    /// bits from the OS): for user files, which other local users must not read. Absolute
    /// paths in a page (`/style.css`) then miss, as they would from `file://`.
    pub async fn start_scoped(root: impl Into<PathBuf>) -> io::Result<StaticServer> {
        Self::start_at(root.into(), format!("/{}", random_hex()?)).await
    }

    async fn start_at(root: PathBuf, prefix: String) -> io::Result<StaticServer> {
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
        let site = Arc::new(Site {
            root: root.clone(),
            prefix: prefix.clone(),
        });
        let task = tokio::spawn(async move {
            // Owned here so aborting this task also aborts every connection task.
            let mut connections = JoinSet::new();
            loop {
                match listener.accept().await {
                    Ok((stream, _)) => {
                        connections.spawn(serve_connection(stream, Arc::clone(&site)));
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
        Ok(StaticServer {
            addr,
            root,
            prefix,
            task,
        })
    }

    /// The bound address (127.0.0.1 and an ephemeral port).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The canonical directory being served.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `http://127.0.0.1:PORT/` (and the prefix of a scoped server) followed by `path`
    /// (with or without a leading `/`), taken as already URL-encoded.
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://{}{}/{}",
            self.addr,
            self.prefix,
            path.trim_start_matches('/')
        )
    }

    /// The URL of `relative` (a path under the root), every byte that is not plainly
    /// safe percent-encoded: `#`, `?`, `%`, spaces, non-ASCII and non-UTF-8 names reach
    /// the right file.
    pub fn file_url(&self, relative: &Path) -> String {
        let segments: Vec<String> = relative
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(percent_encode(name.as_bytes())),
                _ => None,
            })
            .collect();
        self.url(&segments.join("/"))
    }

    /// The HTTP status a `HEAD` of [`file_url`](Self::file_url)`(relative)` gets, asked
    /// over loopback like a browser would: lets a caller refuse to open an error page.
    pub async fn probe(&self, relative: &Path) -> io::Result<u16> {
        let url = self.file_url(relative);
        let path = &url[url.find("//").map_or(0, |i| i + 2)..];
        let path = &path[path.find('/').unwrap_or(path.len())..];
        let mut stream = TcpStream::connect(self.addr).await?;
        let request = format!(
            "HEAD {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        let reply = async {
            stream.write_all(request.as_bytes()).await?;
            let mut line = String::new();
            BufReader::new(&mut stream).read_line(&mut line).await?;
            Ok::<_, io::Error>(line)
        };
        let line = tokio::time::timeout(Duration::from_secs(5), reply)
            .await
            .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no reply within 5 s"))??;
        line.split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("bad status line {line:?}"),
                )
            })
    }
}

/// What a server serves: the root, under a prefix (empty unless scoped).
struct Site {
    root: PathBuf,
    prefix: String,
}

/// 128 random bits as 32 lowercase hex digits.
fn random_hex() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Percent-encodes everything but RFC 3986 unreserved bytes.
pub fn percent_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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

async fn serve_connection(stream: TcpStream, site: Arc<Site>) {
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
        let (response, is_head, keep_alive) = handle(&site, &head).await;
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
async fn handle(site: &Site, head: &str) -> (Response, bool, bool) {
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
    let response = match serve_file(site, target).await {
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

async fn serve_file(site: &Site, target: &str) -> Result<Response, Status> {
    let root = site.root.as_path();
    // Outside a scoped server's prefix nothing exists (not even a hint that it is one).
    let target = match target.strip_prefix(site.prefix.as_str()) {
        Some(rest) if site.prefix.is_empty() || rest.starts_with('/') => rest,
        _ => return Err(Status::NotFound),
    };
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
                location: Some(format!("{}{raw_path}/", site.prefix)),
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
    let Ok(inside) = real.strip_prefix(root) else {
        return Err(Status::Forbidden);
    };
    // A symlink to a dotfile inside the root is a dotfile too.
    if inside.components().any(|c| is_hidden(c.as_os_str())) {
        return Err(Status::NotFound);
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

/// Maps a request target to a path under `root`, refusing traversal and dotfiles. Does
/// not touch the file system.
pub(crate) fn resolve(root: &Path, target: &str) -> Result<PathBuf, Status> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Err(Status::BadRequest);
    }
    let decoded = percent_decode(path).ok_or(Status::BadRequest)?;
    if decoded.contains(&0) || decoded.contains(&b'\\') {
        return Err(Status::BadRequest);
    }
    let mut out = root.to_path_buf();
    for segment in decoded.split(|&b| b == b'/') {
        match segment {
            b"" | b"." => {}
            b".." => return Err(Status::Forbidden),
            s if is_hidden(OsStr::from_bytes(s)) => return Err(Status::NotFound),
            s => out.push(OsStr::from_bytes(s)),
        }
    }
    Ok(out)
}

/// A dotfile or dot-directory (`.git`, `.env`, `.ssh`).
fn is_hidden(name: &OsStr) -> bool {
    name.as_bytes().first() == Some(&b'.') && name != "." && name != ".."
}

/// Decodes `%XX` escapes (file names are bytes: non-UTF-8 is fine); `None` for a
/// malformed escape.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
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
    Some(out)
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
        for target in ["/a%5c..%5cb", "/a%00b", "/%zz", "relative", "*"] {
            assert_eq!(resolve(root, target), Err(Status::BadRequest), "{target}");
        }
    }

    #[test]
    fn refuses_dotfiles_at_any_depth_and_keeps_odd_names() {
        let root = Path::new("/srv");
        for target in [
            "/.env",
            "/a/.git/config",
            "/%2egit/HEAD",
            "/a/.hidden/x.html",
        ] {
            assert_eq!(resolve(root, target), Err(Status::NotFound), "{target}");
        }
        assert_eq!(
            resolve(root, "/a%23b%3Fc%25d%20%C3%A9.html"),
            Ok(PathBuf::from("/srv/a#b?c%d é.html"))
        );
        // Non-UTF-8 names are bytes on Linux, and still reachable.
        assert_eq!(
            resolve(root, "/%FF.html"),
            Ok(Path::new("/srv").join(OsStr::from_bytes(b"\xff.html")))
        );
        assert_eq!(
            percent_encode("a#b?c%d é/".as_bytes()),
            "a%23b%3Fc%25d%20%C3%A9%2F"
        );
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
