//! Helpers for the host's tests: a real headless Chromium, the fixture site, a protocol
//! client over any stream, and a reader of a page's own record (`window.__events`)
//! through a CDP session of the test's own — never through the host.

#![allow(dead_code)]

use arc_browser::backend::BrowserOptions;
use arc_browser::{Browser, Chromium, LaunchOptions, StaticServer};
use arc_host::transport::{read_frame, serve, write_frame, Framing};
use arc_host::{Host, Limits};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite, BufReader};

/// The desktop crate's private Xvfb + D-Bus + GTK fixture harness, shared as is.
#[path = "../../../../desktop/tests/it/common/mod.rs"]
pub mod desktop;

pub mod mcp;
pub mod origin;

/// A JSON-lines client over an in-memory duplex, served as one connection of `host`.
/// A client of one in-memory duplex connection.
pub type DuplexClient = Client<
    BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    tokio::io::WriteHalf<tokio::io::DuplexStream>,
>;

pub fn duplex_client(host: &Host) -> DuplexClient {
    let (client, server) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server);
    tokio::spawn(serve(host.clone(), BufReader::new(sr), sw, Framing::Lines));
    let (cr, cw) = tokio::io::split(client);
    Client::new(BufReader::new(cr), cw, Framing::Lines)
}

pub fn site_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site")
}

/// A launched Chromium, the fixture site, and a host on that browser. The test keeps
/// its own handle on the browser to read pages' records.
pub struct Rig {
    pub chromium: Chromium,
    pub browser: Browser,
    pub site: StaticServer,
    pub host: Host,
    pages: tokio::sync::Mutex<std::collections::HashMap<String, arc_browser::PageSession>>,
}

impl Rig {
    pub async fn start() -> Rig {
        Rig::with_limits(Limits::default()).await
    }

    pub async fn with_limits(limits: Limits) -> Rig {
        let chromium = Chromium::launch(LaunchOptions::default())
            .await
            .expect("Chromium launches");
        let browser = chromium.connect().await.expect("connect to Chromium");
        let site = StaticServer::start(site_root())
            .await
            .expect("serve the fixture site");
        let host = Host::with_browser(browser.clone(), BrowserOptions::default(), limits);
        Rig {
            chromium,
            browser,
            site,
            host,
            pages: Default::default(),
        }
    }

    pub fn url(&self, page: &str) -> String {
        self.site.url(page)
    }

    /// A client over an in-memory duplex, served as one connection (JSON lines).
    pub fn duplex_client(&self) -> DuplexClient {
        duplex_client(&self.host)
    }

    /// A duplex client past `hello`, with a session on the fixture `page` under `grants`.
    pub async fn opened(&self, page: &str, grants: Value) -> (DuplexClient, Session) {
        let mut c = self.duplex_client();
        c.hello().await;
        let s = c.open(&self.url(page), grants).await;
        (c, s)
    }

    /// The page's own record of what it received (`window.__events`), read through a
    /// CDP session of the test's own.
    pub async fn events(&self, target_id: &str) -> Vec<Value> {
        let v = self
            .eval(target_id, "JSON.stringify(window.__events || [])")
            .await;
        serde_json::from_str(v.as_str().unwrap_or("[]")).unwrap_or_default()
    }

    pub async fn eval(&self, target_id: &str, expression: &str) -> Value {
        let page = self.page(target_id).await;
        page.evaluate(expression).await.expect("evaluate")
    }

    /// The centre of `#id` in viewport CSS pixels, as the page measures it.
    pub async fn centre(&self, target_id: &str, id: &str) -> (f64, f64) {
        let v = self
            .eval(
                target_id,
                &format!("(() => {{ const r = document.getElementById('{id}').getBoundingClientRect(); return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]); }})()"),
            )
            .await;
        let [x, y]: [f64; 2] = serde_json::from_str(v.as_str().unwrap()).unwrap();
        (x, y)
    }

    /// The test's own session on a page (attached once, kept).
    pub async fn page(&self, target_id: &str) -> arc_browser::PageSession {
        let mut pages = self.pages.lock().await;
        if let Some(p) = pages.get(target_id) {
            return p.clone();
        }
        let page = self
            .browser
            .attach(arc_browser::cdp::TargetId(target_id.to_owned()))
            .await
            .expect("attach to the page");
        pages.insert(target_id.to_owned(), page.clone());
        page
    }
}

pub struct Client<R, W> {
    reader: R,
    writer: W,
    framing: Framing,
    next: u64,
    /// Events of streamed requests, as they came.
    pub events: Vec<Value>,
}

impl<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin> Client<R, W> {
    pub fn new(reader: R, writer: W, framing: Framing) -> Self {
        Client {
            reader,
            writer,
            framing,
            next: 0,
            events: Vec::new(),
        }
    }

    pub async fn send_raw(&mut self, bytes: &[u8]) {
        write_frame(&mut self.writer, self.framing, bytes)
            .await
            .expect("write a frame");
    }

    /// Writes a frame the host may refuse while it is still arriving: the host answers and
    /// closes once the line passes its limit, so the rest of the write can meet a closed
    /// pipe. Only a broken pipe is accepted.
    pub async fn send_refusable(&mut self, bytes: &[u8]) {
        if let Err(e) = write_frame(&mut self.writer, self.framing, bytes).await {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "write a frame: {e}"
            );
        }
    }

    pub fn writer(&mut self) -> &mut W {
        &mut self.writer
    }

    /// The stream's two halves, for a test that reads and writes on its own schedule.
    pub fn into_parts(self) -> (R, W) {
        (self.reader, self.writer)
    }

    /// The next message, or None when the host closed the connection.
    pub async fn recv(&mut self) -> Option<Value> {
        let frame = tokio::time::timeout(
            Duration::from_secs(60),
            read_frame(&mut self.reader, self.framing, 64 << 20),
        )
        .await
        .expect("a message within 60 s")
        .ok()??;
        Some(serde_json::from_slice(&frame).expect("the host sends JSON"))
    }

    /// Sends a request with a fresh request_id and returns its response (events kept).
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = format!("t{}", self.next);
        let req = json!({"request_id": id, "method": method, "params": params});
        self.send_raw(req.to_string().as_bytes()).await;
        loop {
            let msg = self
                .recv()
                .await
                .expect("a response before the connection closed");
            assert_eq!(
                msg["request_id"],
                json!(id),
                "responses echo request_id: {msg}"
            );
            if msg.get("event").is_some() {
                self.events.push(msg);
                continue;
            }
            return msg;
        }
    }

    /// `call`, expecting success; the result.
    pub async fn ok(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params).await;
        assert_eq!(r["ok"], json!(true), "{method} failed: {r}");
        r["result"].clone()
    }

    /// `call`, expecting failure; the error code.
    pub async fn code(&mut self, method: &str, params: Value) -> String {
        let r = self.call(method, params).await;
        assert_eq!(r["ok"], json!(false), "{method} should fail: {r}");
        r["error"]["code"]
            .as_str()
            .expect("an error code")
            .to_owned()
    }

    pub async fn hello(&mut self) -> Value {
        self.ok(
            "hello",
            json!({"protocol_version": 1, "client_name": "test"}),
        )
        .await
    }

    /// Opens a session on a new tab at `url` with `grants` (allow_launch added).
    pub async fn open(&mut self, url: &str, mut grants: Value) -> Session {
        grants["allow_launch"] = json!(true);
        let r = self
            .ok(
                "open_session",
                json!({"grants": grants, "target": {"url": url}}),
            )
            .await;
        Session {
            auth: r["session"].clone(),
            target_id: r["target"]["target_id"].as_str().unwrap().to_owned(),
        }
    }

    pub async fn observe(&mut self, s: &Session) -> Value {
        self.ok("observe", json!({"session": s.auth})).await
    }

    /// `act` on a fresh observation (the fence's latest id); the whole reply, errors too.
    pub async fn act_fresh(&mut self, s: &Session, action: Value) -> Value {
        let obs = self.observe(s).await["observation_id"].clone();
        self.call(
            "act",
            json!({"session": s.auth, "observation_id": obs, "action": action}),
        )
        .await
    }

    /// The id of the first element whose view line contains `text`.
    pub async fn find_id(&mut self, s: &Session, text: &str) -> (String, String) {
        self.find_in(json!({"session": s.auth, "text": text}), text)
            .await
    }

    /// The id of the first element of `role` whose line contains `text`.
    pub async fn find_role(&mut self, s: &Session, role: &str, text: &str) -> (String, String) {
        self.find_in(json!({"session": s.auth, "text": text, "role": role}), text)
            .await
    }

    async fn find_in(&mut self, params: Value, text: &str) -> (String, String) {
        let r = self.ok("find", params).await;
        let id = r["hits"][0]["id"]
            .as_str()
            .unwrap_or_else(|| panic!("no hit for {text}: {r}"))
            .to_owned();
        (id, r["observation_id"].as_str().unwrap().to_owned())
    }
}

#[derive(Clone, Debug)]
pub struct Session {
    pub auth: Value,
    pub target_id: String,
}

/// Events of one type from a record.
pub fn of_type<'a>(events: &'a [Value], ty: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == json!(ty)).collect()
}

/// A process of a launched browser's group.
pub struct Proc {
    pub pid: u32,
    pub cmdline: String,
    /// utime + stime, in clock ticks.
    pub cpu_ticks: u64,
}

/// The live processes of process group `group`.
pub fn processes_of(group: u32) -> Vec<Proc> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        // After the comm: state ppid pgrp session tty tpgid flags minflt cminflt majflt
        // cmajflt utime stime …
        let f: Vec<&str> = after.split_whitespace().collect();
        if f.len() < 13 || f[0] == "Z" || f[2].parse::<u32>().ok() != Some(group) {
            continue;
        }
        let ticks = f[11].parse::<u64>().unwrap_or(0) + f[12].parse::<u64>().unwrap_or(0);
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        out.push(Proc {
            pid,
            cmdline,
            cpu_ticks: ticks,
        });
    }
    out
}
