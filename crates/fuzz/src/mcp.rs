//! The MCP server's messages: mutated JSON-RPC lines fed to the real server
//! (`McpServer::serve_on`: its line transport `wire.rs`, rmcp's dispatch, the tool router
//! and each tool's argument parsing) over an in-memory pipe. The server's session does not
//! exist (`McpServer::without_session`), so no page is needed: a tool that gets past its
//! arguments answers `unknown_session`.
//!
//! A case: `initialize`, `notifications/initialized`, the fuzzed line, then `ping`. Every
//! line the server writes is a JSON-RPC 2.0 object (an error has an integer code and a
//! message); a line that is not JSON is answered `-32700` with `"id": null`; a request (an
//! id and a method) gets exactly one response with its id; a line over the frame limit is
//! answered `-32600` naming `frame_bytes`; the `ping` after it is answered.

use crate::json::{any_json, edge_number, edge_string, field, object, re, text, Json};
use arc_host::mcp::McpServer;
use arc_host::Host;
use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

pub use crate::host::FRAME_BYTES;
const CASE_BOUND: Duration = Duration::from_secs(5);
const NEXT: &str = "arc-fuzz-next";

fn s(v: &str) -> Json {
    Json::str(v)
}

fn words() -> BoxedStrategy<Json> {
    prop_oneof![4 => re("\\PC{0,20}").prop_map(Json::Str), 1 => edge_string()].boxed()
}

fn number() -> BoxedStrategy<Json> {
    prop_oneof![4 => (-100.0f64..2000.0).prop_map(|f| Json::Raw(format!("{f:?}"))), 1 => edge_number()].boxed()
}

fn flag() -> BoxedStrategy<Json> {
    any::<bool>().prop_map(|b| Json::Raw(b.to_string())).boxed()
}

const TOOLS: [&str; 15] = [
    "status",
    "targets",
    "observe",
    "find",
    "act",
    "press",
    "click_at",
    "drag",
    "scroll_at",
    "type_text",
    "settle",
    "wait",
    "screenshot",
    "run_subtask",
    "explode",
];

/// A tool's arguments: its fields (and some of other tools'), each mutated.
fn arguments() -> BoxedStrategy<Json> {
    object(vec![
        field(
            "snapshot",
            prop_oneof![Just(s("c1-s1/o1")), words()].boxed(),
        ),
        field(
            "action",
            prop::sample::select(vec![
                "CLICK",
                "TYPE",
                "SCROLL",
                "KEY_PRESS",
                "HOTKEY",
                "DRAG",
                "boom",
            ])
            .prop_map(Json::str)
            .boxed(),
        ),
        field("element", prop_oneof![Just(s("e1")), words()].boxed()),
        field("value", words()),
        field("text", words()),
        field("query", words()),
        field("keys", words()),
        field("x", number()),
        field("y", number()),
        field("dx", number()),
        field("dy", number()),
        field("points", any_json()),
        field("timeout_s", number()),
        field("settle", flag()),
        field(
            "subtask",
            object(vec![
                field("goal", words()),
                field("verification", any_json()),
            ]),
        ),
    ])
}

fn id() -> BoxedStrategy<Json> {
    prop_oneof![
        4 => (0u32..1000).prop_map(|n| Json::Raw(n.to_string())),
        2 => re("f[0-9]{1,3}").prop_map(Json::Str),
        1 => Just(Json::Raw("null".into())),
        1 => any_json(),
    ]
    .boxed()
}

fn message() -> BoxedStrategy<String> {
    let methods = vec![
        "tools/call",
        "tools/call",
        "tools/call",
        "tools/list",
        "ping",
        "initialize",
        "notifications/initialized",
        "notifications/cancelled",
        "resources/list",
        "prompts/get",
        "logging/setLevel",
        "no/such",
    ];
    text(object(vec![
        field(
            "jsonrpc",
            prop_oneof![8 => Just(s("2.0")), 1 => Just(s("1.0"))].boxed(),
        ),
        field("id", id()),
        field(
            "method",
            prop::sample::select(methods).prop_map(Json::str).boxed(),
        ),
        field(
            "params",
            object(vec![
                field(
                    "name",
                    prop::sample::select(TOOLS.to_vec())
                        .prop_map(Json::str)
                        .boxed(),
                ),
                field("arguments", arguments()),
                field("_meta", any_json()),
            ]),
        ),
    ]))
}

/// One line's bytes: a message, invalid UTF-8 spliced in, deep nesting, noise, or a line
/// over the limit.
pub fn case() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        24 => message().prop_map(|t| t.replace('\n', " ").into_bytes()),
        2 => (message(), any::<prop::sample::Index>(), prop::collection::vec(0x80u8..=0xff, 1..4))
            .prop_map(|(t, at, bad)| {
                let mut b = t.replace('\n', " ").into_bytes();
                let i = at.index(b.len() + 1);
                b.splice(i..i, bad);
                b
            }),
        1 => crate::json::deep().prop_map(|j| j.render().into_bytes()),
        1 => prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..64),
        1 => (FRAME_BYTES..FRAME_BYTES * 2).prop_map(|n| vec![b'{'; n]),
    ]
    .boxed()
}

pub struct Rig {
    runtime: tokio::runtime::Runtime,
    host: Host,
}

impl Rig {
    pub fn new() -> Rig {
        let (runtime, host) = crate::host::offline_host();
        Rig { runtime, host }
    }

    pub fn check(&self, line: &[u8]) -> Result<bool, String> {
        self.runtime.block_on(async {
            tokio::time::timeout(CASE_BOUND, one(&self.host, line))
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

/// A JSON-RPC 2.0 message of the documented shape.
fn shape(v: &Value) -> Result<(), String> {
    if v["jsonrpc"] != "2.0" {
        return Err(format!("not JSON-RPC 2.0: {v}"));
    }
    if let Some(e) = v.get("error") {
        if !e["code"].is_i64() || !e["message"].is_string() {
            return Err(format!(
                "an error without an integer code and a message: {v}"
            ));
        }
        if v.get("result").is_some() {
            return Err(format!("both a result and an error: {v}"));
        }
    }
    if v.get("id").is_none() && v.get("method").is_none() {
        return Err(format!("neither a response nor a notification: {v}"));
    }
    Ok(())
}

/// What the line asks for, read independently of the server: `Some(id)` for a request.
enum Kind {
    NotJson,
    Request(Value),
    Other,
}

fn kind(line: &[u8]) -> Kind {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Kind::Other; // a blank line is skipped, not read
    }
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let Ok(v) = serde_json::from_slice::<Value>(line) else {
        return Kind::NotJson;
    };
    match (v.get("id"), v.get("method")) {
        (Some(id @ (Value::Number(_) | Value::String(_))), Some(Value::String(_)))
            if v.get("result").is_none() && v.get("error").is_none() =>
        {
            Kind::Request(id.clone())
        }
        _ => Kind::Other,
    }
}

/// The same id: equal strings, or equal numbers (`0.0` is answered as `0`).
fn same_id(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

async fn one(host: &Host, line: &[u8]) -> Result<bool, String> {
    let server = McpServer::without_session(host).map_err(|e| format!("no server: {e}"))?;
    let (client, end) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(end);
    let serving = tokio::spawn(server.serve_on(sr, sw));
    let (r, mut w) = tokio::io::split(client);
    let mut r = BufReader::new(r);
    let mut write = async |bytes: &[u8]| -> Result<(), String> {
        w.write_all(bytes)
            .await
            .map_err(|e| format!("write: {e}"))?;
        w.write_all(b"\n").await.map_err(|e| format!("write: {e}"))
    };
    write(br#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"arc-fuzz","version":"0"}}}"#).await?;
    let mut read = async || -> Result<Value, String> {
        let mut buf = Vec::new();
        let n = r
            .read_until(b'\n', &mut buf)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("the server closed the stream".into());
        }
        let v: Value =
            serde_json::from_slice(&buf).map_err(|e| format!("a line that is not JSON ({e})"))?;
        shape(&v)?;
        Ok(v)
    };
    let init = read().await?;
    if init["id"] != "init" || init.get("result").is_none() {
        return Err(format!("initialize was not served: {init}"));
    }
    let expect = kind(line);
    write(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await?;
    write(line).await?;
    write(format!(r#"{{"jsonrpc":"2.0","id":"{NEXT}","method":"ping"}}"#).as_bytes()).await?;
    let too_large = line.len() > FRAME_BYTES;
    let mut pong = false;
    let mut answered = 0;
    let mut refused = false;
    while !pong || (matches!(expect, Kind::Request(_)) && answered == 0 && !too_large) {
        let v = read().await?;
        if v["id"] == NEXT && v.get("result").is_some() {
            pong = true;
            continue;
        }
        if !pong && v["id"].is_null() && v.get("error").is_some() {
            let code = v["error"]["code"].as_i64();
            refused |=
                (too_large && code == Some(-32600) && v["error"]["data"]["limit"] == "frame_bytes")
                    || (!too_large && matches!(expect, Kind::NotJson) && code == Some(-32700));
        }
        if let Kind::Request(id) = &expect {
            if same_id(&v["id"], id) && v.get("method").is_none() {
                answered += 1;
            }
        }
    }
    // The end of the client's stream ends the server (and its connection).
    w.shutdown().await.map_err(|e| format!("shutdown: {e}"))?;
    let _ = serving.await;
    if (too_large || matches!(expect, Kind::NotJson)) && !refused {
        return Err("the line was not refused before the next request was served".into());
    }
    // A request whose id repeats the initialize's or a later one may be answered twice.
    Ok(answered > 0)
}

#[cfg(test)]
mod tests {
    /// The harness itself: a tool call is answered, a line that is not JSON refused.
    #[test]
    fn a_request_is_answered_and_the_ping_after_it() {
        let rig = super::Rig::new();
        let r = rig.check(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"status","arguments":{}}}"#);
        assert_eq!(r, Ok(true));
        assert_eq!(rig.check(b"{nope"), Ok(false));
        // rmcp reads `0.0` as the id 0 and answers with `0`: the same number.
        let float_id = br#"{"jsonrpc":"2.0","id":0.0,"method":"tools/call","params":{"name":"status","arguments":{}}}"#;
        assert_eq!(rig.check(float_id), Ok(true));
    }
}
