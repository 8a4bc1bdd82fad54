//! A loopback origin of the test's own: it serves the fixture site, answers
//! `/redirect?to=URL` with a 302 to URL, and records the target of every request it
//! receives — the independent record of whether a page reached it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

pub struct Origin {
    /// `http://127.0.0.1:PORT`
    pub origin: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Origin {
    pub async fn start() -> Origin {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let log = Arc::clone(&log);
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 16 * 1024];
                    let mut n = 0;
                    // The request head (bounded by the buffer).
                    while n < buf.len() && !buf[..n].windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf[n..]).await {
                            Ok(0) | Err(_) => return,
                            Ok(k) => n += k,
                        }
                    }
                    let head = String::from_utf8_lossy(&buf[..n]);
                    let target = head.split(' ').nth(1).unwrap_or("/").to_owned();
                    log.lock().unwrap().push(target.clone());
                    let _ = stream.write_all(&reply(&target)).await;
                });
            }
        });
        Origin { origin, requests }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.origin)
    }

    /// The request targets (`/path?query`) received so far.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

fn reply(target: &str) -> Vec<u8> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path == "/redirect" {
        let to = query.strip_prefix("to=").unwrap_or("/");
        let to = urlencoding_decode(to);
        return format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").into_bytes();
    }
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/site")
        .join(path.trim_start_matches('/'));
    let (status, body, kind) = match (path.contains(".."), std::fs::read(&file)) {
        (false, Ok(body)) => (
            "200 OK",
            body,
            if path.ends_with(".js") {
                "text/javascript"
            } else {
                "text/html; charset=utf-8"
            },
        ),
        _ => (
            "200 OK",
            b"<!DOCTYPE html><title>Landed</title><h1>Landed elsewhere</h1>".to_vec(),
            "text/html; charset=utf-8",
        ),
    };
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend(body);
    out
}

/// `%XX` escapes decoded (what `encodeURIComponent` wrote).
fn urlencoding_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => match u8::from_str_radix(&String::from_utf8_lossy(hex), 16) {
                Ok(b) => {
                    out.push(b);
                    i += 3;
                }
                Err(_) => {
                    out.push(b'%');
                    i += 1;
                }
            },
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
