//! The host's wire: mutated requests on JSON lines and on length-prefixed frames, fed to
//! the transport's real loop (`arc_host::transport::serve`) over an in-memory pipe, on a
//! host without a browser and with the desktop bus out of reach.
//!
//! A case is one connection: `hello`, the fuzzed bytes, then `ping` (unless the fuzzed
//! bytes end the connection by design: a frame over the limit, a zero length, a frame
//! cut short). Every reply must be a response of the documented shape (`ok`, a result, or
//! an error with a stable code); the fuzzed request gets exactly one; the `ping` after it
//! is answered; a connection the host closed is followed by a new one that is served.

use crate::json::{any_json, edge_number, edge_string, field, object, re, text, Json};
use arc_host::protocol::{ErrorCode, HostError};
use arc_host::transport::{read_frame, serve, write_frame, Framing};
use arc_host::{DesktopAccess, Host, Limits};
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};

/// Small enough that over-limit frames are cheap to generate.
pub const FRAME_BYTES: usize = 64 * 1024;
/// A case that takes longer is a hang (the host answers these without a page in µs).
const CASE_BOUND: Duration = Duration::from_secs(5);
const NEXT: &str = "arc-fuzz-next";

/// What follows `hello` on the wire.
#[derive(Clone, Debug)]
pub enum Wire {
    /// JSON lines: the text, newlines and all, then `\n`.
    Line(Vec<u8>),
    /// A length-prefixed frame whose header tells the truth.
    Frame(Vec<u8>),
    /// A header claiming `len` bytes, then `body` (shorter), then the end of the stream.
    Cut { len: u32, body: Vec<u8> },
    /// A header alone: 0, or over the limit (up to 4 GiB).
    Header(u32),
}

fn s(v: &str) -> Json {
    Json::str(v)
}

fn auth() -> BoxedStrategy<Json> {
    object(vec![
        field(
            "session_id",
            prop_oneof![Just(s("c1-s1")), re("\\PC{0,12}").prop_map(Json::Str)].boxed(),
        ),
        field(
            "capability",
            prop_oneof![Just(s("cap-x")), re("\\PC{0,12}").prop_map(Json::Str)].boxed(),
        ),
    ])
}

fn small_number() -> BoxedStrategy<Json> {
    prop_oneof![4 => (0u64..100_000).prop_map(|n| Json::Raw(n.to_string())), 1 => edge_number()]
        .boxed()
}

fn flag() -> BoxedStrategy<Json> {
    any::<bool>().prop_map(|b| Json::Raw(b.to_string())).boxed()
}

fn words() -> BoxedStrategy<Json> {
    prop_oneof![4 => re("\\PC{0,20}").prop_map(Json::Str), 1 => edge_string()].boxed()
}

fn options() -> BoxedStrategy<Json> {
    object(vec![
        field("include_elements", flag()),
        field("include_png", flag()),
        field("since", words()),
        field("budget_tokens", small_number()),
    ])
}

fn action() -> BoxedStrategy<Json> {
    let kinds = vec![
        "CLICK",
        "TYPE_TEXT",
        "CLICK_AT",
        "DRAG_PATH",
        "SCROLL",
        "PRESS_KEY",
        "NAVIGATE",
        "WAIT",
        "SELECT_TEXT",
        "EXPLODE",
    ];
    object(vec![
        field(
            "kind",
            prop::sample::select(kinds).prop_map(Json::str).boxed(),
        ),
        field("target_id", prop_oneof![Just(s("e1")), words()].boxed()),
        field("text", words()),
        field("x", small_number()),
        field("y", small_number()),
        field("points", any_json()),
        field(
            "url",
            prop_oneof![
                Just(s("https://example.com/")),
                Just(s("javascript:alert(1)")),
                words()
            ]
            .boxed(),
        ),
    ])
}

fn subtask() -> BoxedStrategy<Json> {
    object(vec![
        field("goal", words()),
        field("verification", any_json()),
        field("inputs", any_json()),
    ])
}

/// Each method with its params, every field kept, dropped, duplicated or retyped.
fn params(method: &'static str) -> BoxedStrategy<Json> {
    let target = object(vec![
        field(
            "target_id",
            prop_oneof![Just(s("atspi::1.5:/org/a11y/atspi/accessible/1")), words()].boxed(),
        ),
        field(
            "url",
            prop_oneof![Just(s("https://example.com/")), words()].boxed(),
        ),
    ]);
    let grants = object(vec![
        field("allow_input", flag()),
        field("allow_navigate", flag()),
        field("navigate_origins", any_json()),
        field("navigate_any_origin", flag()),
        field("allow_launch", flag()),
        field("allowed_risks", any_json()),
    ]);
    match method {
        "hello" => object(vec![
            field(
                "protocol_version",
                prop_oneof![Just(Json::Raw("1".into())), small_number()].boxed(),
            ),
            field("client_name", words()),
        ]),
        "open_session" => object(vec![field("grants", grants), field("target", target)]),
        "observe" => object(vec![field("session", auth()), field("options", options())]),
        "find" => object(vec![
            field("session", auth()),
            field("text", words()),
            field("role", words()),
            field("limit", small_number()),
        ]),
        "act" => object(vec![
            field("session", auth()),
            field("observation_id", words()),
            field("action", action()),
            field("settle", flag()),
            field("observe_after", options()),
        ]),
        "wait_for" => object(vec![
            field("session", auth()),
            field(
                "condition",
                object(vec![
                    field(
                        "kind",
                        prop::sample::select(vec![
                            "element_present",
                            "text_contains",
                            "value_equals",
                            "changed",
                            "never",
                        ])
                        .prop_map(Json::str)
                        .boxed(),
                    ),
                    field("text", words()),
                    field("since", words()),
                ]),
            ),
            field("timeout_ms", small_number()),
        ]),
        "run_subtask" => object(vec![
            field("session", auth()),
            field("observation_id", words()),
            field("subtask", subtask()),
            field("timeout_ms", small_number()),
        ]),
        "stop_session" | "downloads" => object(vec![field("session", auth())]),
        // ping, manifest, list_targets, interrupt_all: {} (anything else is refused).
        _ => object(vec![]),
    }
}

const METHODS: [&str; 14] = [
    "hello",
    "ping",
    "manifest",
    "list_targets",
    "open_session",
    "observe",
    "find",
    "act",
    "wait_for",
    "run_subtask",
    "stop_session",
    "interrupt_all",
    "downloads",
    "explode",
];

fn request() -> BoxedStrategy<String> {
    prop::sample::select(METHODS.to_vec())
        .prop_flat_map(|method| {
            text(object(vec![
                field(
                    "request_id",
                    prop_oneof![re("r[0-9]{1,4}").prop_map(Json::Str), Just(s(NEXT))].boxed(),
                ),
                field("method", Just(Json::str(method)).boxed()),
                field("params", params(method)),
            ]))
        })
        .boxed()
}

/// Bytes around a request: as generated, invalid UTF-8 spliced in, or deeply nested.
fn payload() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        12 => request().prop_map(String::into_bytes),
        1 => (request(), any::<prop::sample::Index>(), prop::collection::vec(0x80u8..=0xff, 1..4))
            .prop_map(|(t, at, bad)| {
                let mut b = t.into_bytes();
                let i = at.index(b.len() + 1);
                b.splice(i..i, bad);
                b
            }),
        1 => crate::json::deep().prop_map(|j| j.render().into_bytes()),
        1 => prop::collection::vec(any::<u8>(), 0..64),
    ]
    .boxed()
}

pub fn case() -> BoxedStrategy<Wire> {
    prop_oneof![
        10 => payload().prop_map(Wire::Line),
        10 => payload().prop_filter("a frame has a byte", |b| !b.is_empty()).prop_map(Wire::Frame),
        1 => (1u32..4096, prop::collection::vec(any::<u8>(), 0..64))
            .prop_map(|(extra, body)| Wire::Cut { len: body.len() as u32 + extra, body }),
        1 => prop_oneof![Just(0u32), (FRAME_BYTES as u32 + 1)..=u32::MAX].prop_map(Wire::Header),
        1 => (FRAME_BYTES..FRAME_BYTES * 2).prop_map(|n| Wire::Line(vec![b'['; n])),
    ]
    .boxed()
}

/// One host and a runtime for every case of a run.
pub struct Rig {
    runtime: tokio::runtime::Runtime,
    host: Host,
}

/// A current-thread runtime and a host with no browser whose desktop bus reaches nothing
/// (no desktop is touched, the answer is fast), its frames bounded at `FRAME_BYTES`: what
/// both wire targets run their cases on.
pub(crate) fn offline_host() -> (tokio::runtime::Runtime, Host) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let host = Host::without_browser(Limits {
        frame_bytes: FRAME_BYTES,
        ..Limits::default()
    });
    host.set_desktop(DesktopAccess {
        session_bus: Some("unix:path=/nonexistent/arc-fuzz/bus".into()),
        display: Some(":9999".into()),
    });
    (runtime, host)
}

impl Rig {
    pub fn new() -> Rig {
        let (runtime, host) = offline_host();
        Rig { runtime, host }
    }

    pub fn check(&self, wire: &Wire) -> Result<bool, String> {
        self.runtime.block_on(async {
            tokio::time::timeout(CASE_BOUND, one(&self.host, wire))
                .await
                .map_err(|_| format!("no answer within {CASE_BOUND:?}"))?
        })
    }
}

impl Default for Rig {
    fn default() -> Self {
        Rig::new()
    }
}

fn hello() -> Vec<u8> {
    br#"{"request_id":"hello","method":"hello","params":{"protocol_version":1,"client_name":"fuzz"}}"#.to_vec()
}

fn ping() -> Vec<u8> {
    format!(r#"{{"request_id":"{NEXT}","method":"ping"}}"#).into_bytes()
}

/// A client's end of one connection.
struct Peer {
    r: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    w: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    framing: Framing,
}

impl Peer {
    fn connect(host: &Host, framing: Framing) -> Peer {
        let (client, server) = tokio::io::duplex(1 << 20);
        let (sr, sw) = tokio::io::split(server);
        tokio::spawn(serve(host.clone(), BufReader::new(sr), sw, framing));
        let (r, w) = tokio::io::split(client);
        Peer {
            r: BufReader::new(r),
            w,
            framing,
        }
    }

    async fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        write_frame(&mut self.w, self.framing, bytes)
            .await
            .map_err(|e| format!("write: {e}"))
    }

    /// The next reply, checked for shape; `None` when the host closed the connection.
    async fn recv(&mut self) -> Result<Option<Value>, String> {
        let Some(frame) = read_frame(&mut self.r, self.framing, 64 << 20)
            .await
            .map_err(|e| format!("the host's reply is not a frame: {e}"))?
        else {
            return Ok(None);
        };
        let v: Value =
            serde_json::from_slice(&frame).map_err(|e| format!("a reply is not JSON ({e})"))?;
        shape(&v)?;
        Ok(Some(v))
    }

    async fn greet(&mut self) -> Result<(), String> {
        self.send(&hello()).await?;
        match self.recv().await? {
            Some(r) if r["ok"] == true => Ok(()),
            r => Err(format!("hello was not served: {r:?}")),
        }
    }
}

/// `{"request_id"?, "ok": true, "result"}` or `{"request_id"?, "ok": false, "error"}`,
/// the error a stable code and a short message, naming its bound for `limit_exceeded`.
fn shape(v: &Value) -> Result<(), String> {
    let o = v
        .as_object()
        .ok_or_else(|| format!("a reply is not an object: {v}"))?;
    for k in o.keys() {
        if !["request_id", "ok", "result", "error"].contains(&k.as_str()) {
            return Err(format!("a reply has key {k:?}: {v}"));
        }
    }
    if let Some(id) = o.get("request_id") {
        if !id
            .as_str()
            .is_some_and(|s| (1..=128).contains(&s.chars().count()))
        {
            return Err(format!("a reply echoes a request_id it should not: {id}"));
        }
    }
    match o.get("ok") {
        Some(Value::Bool(true)) if o.contains_key("result") && !o.contains_key("error") => Ok(()),
        Some(Value::Bool(false)) if !o.contains_key("result") => {
            let e: HostError = serde_json::from_value(o.get("error").cloned().unwrap_or_default())
                .map_err(|e| format!("an error of no documented shape ({e}): {v}"))?;
            if e.message.trim().is_empty() || e.message.len() > 1_024 {
                return Err(format!(
                    "an error message of {} bytes: {v}",
                    e.message.len()
                ));
            }
            if (e.code == ErrorCode::LimitExceeded) != e.limit.is_some() {
                return Err(format!("limit named iff limit_exceeded: {v}"));
            }
            Ok(())
        }
        _ => Err(format!("a reply is neither a result nor an error: {v}")),
    }
}

fn code(v: &Value) -> (Option<&str>, Option<&str>) {
    (v["error"]["code"].as_str(), v["error"]["limit"].as_str())
}

/// Lines the host reads from `bytes` (blank ones are skipped, the protocol says), and
/// whether one of them is over the limit (refused, the connection closed).
fn lines(bytes: &[u8]) -> (usize, bool) {
    let mut n = 0;
    for l in bytes.split(|&b| b == b'\n') {
        if l.len() > FRAME_BYTES {
            return (n, true);
        }
        n += usize::from(!l.iter().all(u8::is_ascii_whitespace));
    }
    (n, false)
}

const TOO_LARGE: (&str, Option<&str>) = ("limit_exceeded", Some("frame_bytes"));
const MALFORMED: (&str, Option<&str>) = ("invalid_request", None);

/// Runs one case; `Ok(true)` when a fuzzed request was served successfully.
async fn one(host: &Host, wire: &Wire) -> Result<bool, String> {
    let framing = match wire {
        Wire::Line(_) => Framing::Lines,
        _ => Framing::LengthPrefixed,
    };
    let mut peer = Peer::connect(host, framing);
    peer.greet().await?;
    let (closes, expected) = match wire {
        Wire::Line(b) => {
            // Written raw: a refused line may meet a closed pipe.
            peer.w.write_all(b).await.ok();
            peer.w.write_all(b"\n").await.ok();
            match lines(b) {
                (_, true) => (Some(TOO_LARGE), 0),
                (n, false) => (None, n),
            }
        }
        Wire::Frame(b) if b.len() > FRAME_BYTES => {
            peer.send(b).await.ok();
            (Some(TOO_LARGE), 0)
        }
        Wire::Frame(b) => {
            peer.send(b).await?;
            (None, 1)
        }
        Wire::Cut { len, body } => {
            peer.w.write_all(&len.to_be_bytes()).await.ok();
            peer.w.write_all(body).await.ok();
            peer.w.shutdown().await.ok();
            (Some(MALFORMED), 0)
        }
        Wire::Header(len) => {
            peer.w.write_all(&len.to_be_bytes()).await.ok();
            (Some(if *len == 0 { MALFORMED } else { TOO_LARGE }), 0)
        }
    };
    if let Some((want, limit)) = closes {
        // Requests before the refused frame may be answered or cut off with the
        // connection; the refusal must come, without an id, and then the end.
        let mut refused = false;
        while let Some(r) = peer.recv().await? {
            if r.get("request_id").is_none() && code(&r) == (Some(want), limit) {
                refused = true;
            } else if refused {
                return Err(format!("the connection goes on after a refused frame: {r}"));
            }
        }
        if !refused {
            return Err(format!("closed without the {want} {limit:?} refusal"));
        }
        // The host serves the next connection.
        let mut again = Peer::connect(host, framing);
        again.greet().await?;
        again.send(&ping()).await?;
        return match again.recv().await? {
            Some(r) if r["ok"] == true && r["request_id"] == NEXT => Ok(false),
            r => Err(format!(
                "a new connection's ping after a refused frame: {r:?}"
            )),
        };
    }
    peer.send(&ping()).await?;
    // Requests are served concurrently: the answers come in any order, one each.
    let mut pongs = 0;
    let mut served = false;
    for k in 0..=expected {
        let r = peer
            .recv()
            .await?
            .ok_or_else(|| format!("closed after {k} of {} answers", expected + 1))?;
        if r["request_id"] == NEXT && r["result"]["pong"] == true {
            pongs += 1;
        } else {
            served |= r["ok"] == true;
        }
    }
    if pongs == 0 {
        return Err(format!(
            "the ping after {expected} requests was not answered in {} answers",
            expected + 1
        ));
    }
    Ok(served)
}
