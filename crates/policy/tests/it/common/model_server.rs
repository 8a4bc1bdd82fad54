//! A real HTTP/1.1 server on loopback for the model-policy tests (and for pages whose
//! pictures a test sends late, [`picture`]): it records every request and answers from a
//! script (status, headers, body, delay), or hangs, or drops the connection. One request
//! per connection (`Connection: close`), so each retry is a fresh exchange the test can
//! count.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// What the server does with one request.
#[derive(Clone, Debug)]
pub enum Reply {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
        delay: Duration,
    },
    /// Read the request, then never answer (the connection stays open).
    Hang,
    /// Read the request, then close the connection without a byte.
    Drop,
}

impl Reply {
    pub fn status(status: u16, body: impl Into<String>) -> Self {
        Reply::Respond {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    pub fn json(value: &Value) -> Self {
        Reply::status(200, value.to_string())
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        if let Reply::Respond { headers, .. } = &mut self {
            headers.push((name.into(), value.into()));
        }
        self
    }

    pub fn after(mut self, wait: Duration) -> Self {
        if let Reply::Respond { delay, .. } = &mut self {
            *delay = wait;
        }
        self
    }
}

/// One request as received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("request body is JSON")
    }

    /// The id the request's screen gives the element whose line holds `needle`: the
    /// bracketed token that starts a screen line, as a model reads it.
    pub fn screen_id(&self, needle: &str) -> Option<String> {
        let body: Value = serde_json::from_str(&self.body).ok()?;
        let messages = body["messages"].as_array()?;
        let text: Vec<&str> = messages
            .iter()
            .filter_map(|m| m["content"].as_str())
            .collect();
        let line = text
            .iter()
            .flat_map(|t| t.lines())
            .map(str::trim_start)
            .find(|l| l.starts_with('[') && l.contains(needle))?;
        Some(line[1..line.find(']')?].to_owned())
    }
}

type Responder = Arc<dyn Fn(usize, &Recorded) -> Reply + Send + Sync>;

pub struct ModelServer {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: JoinHandle<()>,
}

impl ModelServer {
    /// Answers the n-th request with `script[n]`; past the end, 500 "script exhausted".
    pub async fn scripted(script: Vec<Reply>) -> Self {
        Self::with(move |n, _| {
            script
                .get(n)
                .cloned()
                .unwrap_or_else(|| Reply::status(500, r#"{"error":"script exhausted"}"#))
        })
        .await
    }

    /// Answers every request with `f(index, request)`.
    pub async fn with(f: impl Fn(usize, &Recorded) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let responder: Responder = Arc::new(f);
        let counter = Arc::new(AtomicUsize::new(0));
        let log = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (responder, counter, log) = (responder.clone(), counter.clone(), log.clone());
                tokio::spawn(serve(stream, responder, counter, log));
            }
        });
        ModelServer {
            addr,
            requests,
            task,
        }
    }

    /// `http://127.0.0.1:<port>/v1`
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(
    mut stream: TcpStream,
    responder: Responder,
    counter: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<Recorded>>>,
) {
    let Some(request) = read_request(&mut stream).await else {
        return;
    };
    let n = counter.fetch_add(1, Ordering::SeqCst);
    log.lock().unwrap().push(request.clone());
    match responder(n, &request) {
        Reply::Hang => {
            // Keep the socket open until the runtime ends the test.
            std::future::pending::<()>().await;
            drop(stream);
        }
        Reply::Drop => drop(stream),
        Reply::Respond {
            status,
            headers,
            body,
            delay,
        } => {
            tokio::time::sleep(delay).await;
            let mut head = format!(
                "HTTP/1.1 {status} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
                reason(status),
                body.len()
            );
            if !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            {
                head.push_str("Content-Type: application/json\r\n");
            }
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.write_all(body.as_bytes()).await;
            let _ = stream.shutdown().await;
        }
    }
}

async fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let header_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split_whitespace();
    let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    while buf.len() < header_end + length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(Recorded {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&buf[header_end..header_end + length]).into_owned(),
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// A 16×16 SVG picture (an icon a page draws by CSS `content: url()`); `.after(d)` sends
/// it late.
pub fn picture() -> Reply {
    Reply::status(
        200,
        "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>\
         <rect width='16' height='16' fill='#c33'/></svg>",
    )
    .header("Content-Type", "image/svg+xml")
}

/// A chat completion whose message content is `answer` (serialized), with usage.
pub fn chat(answer: &Value) -> Reply {
    chat_text(&answer.to_string())
}

/// A chat completion whose message content is `content` verbatim.
pub fn chat_text(content: &str) -> Reply {
    Reply::json(&json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": null},
            "finish_reason": "stop"
        }],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    }))
}

/// An answer object: `operation` plus the given heads, a confidence and a reason.
pub fn answer(operation: &str, heads: &[(&str, &str)]) -> Value {
    let mut v = json!({
        "operation": operation,
        "confidence": 0.9,
        "reason": "scripted"
    });
    for (k, val) in heads {
        v[*k] = json!(val);
    }
    v
}
