//! The static server over real TCP: content types, traversal refusal, keep-alive, and
//! a page loaded through it by Chromium.

use crate::common;

use std::time::Duration;

use arc_browser::StaticServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A parsed reply.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one reply (head + Content-Length body) from `stream`.
async fn read_reply(stream: &mut TcpStream, head_only: bool) -> Reply {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).await.unwrap();
        assert!(
            n == 1,
            "connection closed mid-head: {:?}",
            String::from_utf8_lossy(&buf)
        );
        buf.push(byte[0]);
    }
    let head = String::from_utf8(buf).unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| v.parse().unwrap())
        .unwrap();
    let mut body = vec![0u8; if head_only { 0 } else { length }];
    stream.read_exact(&mut body).await.unwrap();
    Reply {
        status,
        headers,
        body,
    }
}

/// Sends a raw request line on a fresh connection (no client-side path normalization).
async fn get(server: &StaticServer, target: &str) -> Reply {
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), read_reply(&mut stream, false))
        .await
        .expect("a reply")
}

/// A temporary site: `root/site/…` served, `root/secret.txt` outside it.
fn temp_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("docs")).unwrap();
    std::fs::write(dir.path().join("secret.txt"), "top secret").unwrap();
    std::fs::write(
        site.join("index.html"),
        "<!doctype html><title>Café ✓ 日本</title><p>naïve — ok</p>",
    )
    .unwrap();
    std::fs::write(site.join("docs/index.html"), "<title>docs</title>").unwrap();
    std::fs::write(site.join("app.js"), "window.x = 1;").unwrap();
    std::fs::write(site.join("style.css"), "p{}").unwrap();
    std::fs::write(site.join("data.bin"), [0u8, 1, 2]).unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), site.join("escape.txt")).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_utf8_html_and_typed_files() {
    let dir = temp_site();
    let server = StaticServer::start(dir.path().join("site")).await.unwrap();
    assert!(server.addr().ip().is_loopback());
    assert_ne!(server.addr().port(), 0);

    let reply = get(&server, "/index.html").await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let body = String::from_utf8(reply.body).unwrap();
    assert!(body.contains("Café ✓ 日本"), "{body}");

    for (path, ty) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/data.bin", "application/octet-stream"),
        ("/?query=1", "text/html; charset=utf-8"),
        ("/docs/", "text/html; charset=utf-8"),
        ("/d%6fcs/index.html", "text/html; charset=utf-8"),
    ] {
        let reply = get(&server, path).await;
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.header("content-type"), Some(ty), "{path}");
    }
    let redirect = get(&server, "/docs").await;
    assert_eq!(redirect.status, 301);
    assert_eq!(redirect.header("location"), Some("/docs/"));
    assert_eq!(get(&server, "/missing.html").await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refuses_path_traversal() {
    let dir = temp_site();
    let server = StaticServer::start(dir.path().join("site")).await.unwrap();
    for target in [
        "/../secret.txt",
        "/docs/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/docs/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
    ] {
        let reply = get(&server, target).await;
        assert_eq!(reply.status, 403, "{target}");
        assert!(!String::from_utf8_lossy(&reply.body).contains("top secret"));
    }
    // A symlink pointing outside the root is refused too.
    let reply = get(&server, "/escape.txt").await;
    assert_eq!(reply.status, 403);
    // Backslashes and NULs are malformed, not files.
    assert_eq!(get(&server, "/..%5csecret.txt").await.status, 400);
    assert_eq!(get(&server, "/index.html%00").await.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keeps_connections_alive_and_answers_head() {
    let dir = temp_site();
    let server = StaticServer::start(dir.path().join("site")).await.unwrap();
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    for _ in 0..3 {
        stream
            .write_all(b"GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let reply = read_reply(&mut stream, false).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, b"window.x = 1;");
        assert_eq!(reply.header("connection"), Some("keep-alive"));
    }
    stream
        .write_all(b"HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let reply = read_reply(&mut stream, true).await;
    assert_eq!(reply.status, 200);
    assert!(
        reply
            .header("content-length")
            .unwrap()
            .parse::<usize>()
            .unwrap()
            > 0
    );
    stream
        .write_all(b"POST /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        .await
        .unwrap();
    assert_eq!(read_reply(&mut stream, false).await.status, 405);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rejects_a_missing_root_and_stops_on_drop() {
    let err = StaticServer::start("/nonexistent/site-xyz")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("/nonexistent/site-xyz"), "{err}");

    let dir = temp_site();
    let server = StaticServer::start(dir.path().join("site")).await.unwrap();
    let addr = server.addr();
    drop(server);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(TcpStream::connect(addr).await.is_err(), "listener closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_decodes_served_html_as_utf8() {
    let dir = temp_site();
    let server = StaticServer::start(dir.path().join("site")).await.unwrap();
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page(&server.url("/")).await.unwrap();
    assert_eq!(
        page.evaluate("document.title").await.unwrap(),
        "Café ✓ 日本"
    );
    assert_eq!(
        page.evaluate("document.characterSet").await.unwrap(),
        "UTF-8"
    );
    assert_eq!(
        page.evaluate("document.querySelector('p').textContent")
            .await
            .unwrap(),
        "naïve — ok"
    );
}

/// The path part of a server URL (`/<prefix>/page.html`).
fn path_of(url: &str) -> &str {
    let rest = url.strip_prefix("http://").unwrap();
    &rest[rest.find('/').unwrap()..]
}

/// A user's directory: a page, assets, secrets beside them, links out.
fn user_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    for d in ["img", ".git", "sub/.hidden", "nodir"] {
        std::fs::create_dir_all(site.join(d)).unwrap();
    }
    std::fs::write(site.join("page.html"), "<title>the page</title>").unwrap();
    std::fs::write(site.join("img/a.css"), "p{}").unwrap();
    std::fs::write(site.join(".env"), "TOKEN=top secret").unwrap();
    std::fs::write(site.join(".git/config"), "top secret").unwrap();
    std::fs::write(site.join("sub/.hidden/x.html"), "top secret").unwrap();
    std::fs::write(site.join("sub/.netrc"), "top secret").unwrap();
    std::fs::write(site.join("a#b?c%d é.html"), "<title>odd name</title>").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "top secret").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", site.join("passwd")).unwrap();
    std::os::unix::fs::symlink(site.join(".env"), site.join("env.txt")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside.txt"), site.join("out.txt")).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoped_server_serves_only_under_its_random_prefix() {
    let dir = user_dir();
    let server = StaticServer::start_scoped(dir.path().join("site"))
        .await
        .unwrap();
    let page = server.url("page.html");
    let path = path_of(&page);
    let prefix = path.strip_suffix("/page.html").unwrap();
    assert_eq!(prefix.len(), 33, "{prefix}");
    assert!(
        prefix[1..].bytes().all(|b| b.is_ascii_hexdigit()),
        "{prefix}"
    );
    let other = StaticServer::start_scoped(dir.path().join("site"))
        .await
        .unwrap();
    assert_ne!(
        path_of(&other.url("page.html")),
        path,
        "a fresh prefix per server"
    );

    let reply = get(&server, path).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, b"<title>the page</title>");
    assert_eq!(
        get(&server, &format!("{prefix}/img/a.css")).await.status,
        200
    );
    // Without the prefix, or with another one, nothing is there.
    for target in [
        "/page.html".to_owned(),
        "/".to_owned(),
        prefix.to_owned(),
        format!("/{}/page.html", "0".repeat(32)),
        format!("{}/page.html", &prefix[..32]),
        path_of(&other.url("page.html")).to_owned(),
    ] {
        assert_eq!(get(&server, &target).await.status, 404, "{target}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_dotfiles_listings_traversal_or_links_out() {
    let dir = user_dir();
    let server = StaticServer::start_scoped(dir.path().join("site"))
        .await
        .unwrap();
    let base = path_of(&server.url("")).trim_end_matches('/').to_owned();
    let refused = [
        // Dotfiles and dot-directories at any depth, however spelled.
        (".env", 404),
        (".git/config", 404),
        ("%2egit/config", 404),
        ("%2Eenv", 404),
        ("sub/.netrc", 404),
        ("sub/.hidden/x.html", 404),
        // A symlink to a dotfile is a dotfile.
        ("env.txt", 404),
        // Directories are never listed.
        ("", 404),
        ("nodir/", 404),
        ("sub/", 404),
        // Traversal, plain and encoded, and symlinks out of the root.
        ("../outside.txt", 403),
        ("%2e%2e/outside.txt", 403),
        ("img/%2e%2e/%2e%2e/outside.txt", 403),
        ("..%2foutside.txt", 403),
        ("passwd", 403),
        ("out.txt", 403),
    ];
    for (path, status) in refused {
        let target = format!("{base}/{path}");
        let reply = get(&server, &target).await;
        assert_eq!(reply.status, status, "{target}");
        let body = String::from_utf8_lossy(&reply.body);
        assert!(
            !body.contains("top secret") && !body.contains("root:") && !body.contains("page.html"),
            "{target}: {body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_urls_escape_odd_names_and_probe_reports_the_status() {
    let dir = user_dir();
    let server = StaticServer::start_scoped(dir.path().join("site"))
        .await
        .unwrap();
    let name = std::path::Path::new("a#b?c%d é.html");
    let url = server.file_url(name);
    assert!(url.ends_with("/a%23b%3Fc%25d%20%C3%A9.html"), "{url}");
    let reply = get(&server, path_of(&url)).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, b"<title>odd name</title>");
    assert_eq!(server.probe(name).await.unwrap(), 200);
    assert_eq!(
        server.probe(std::path::Path::new(".env")).await.unwrap(),
        404
    );
    assert_eq!(
        server
            .probe(std::path::Path::new("gone.html"))
            .await
            .unwrap(),
        404
    );
}
