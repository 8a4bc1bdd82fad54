//! The MCP server's wire, as a client sees it: malformed JSON-RPC answered, bounded
//! messages, one JSON boundary for subtasks, page text quoted.

use crate::common::mcp::Mcp;
use crate::common::Rig;
use serde_json::{json, Value};
use std::time::Duration;

/// How long a test waits for a reply before calling the server silent (a hang guard).
const SILENT: Duration = Duration::from_secs(10);

/// The next message is a JSON-RPC error with `"id": null` and this code.
async fn null_id_error(mcp: &mut Mcp, code: i64) -> Value {
    let reply = mcp.recv(SILENT).await;
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    assert!(
        reply.get("id").is_some_and(Value::is_null),
        "an unreadable request is answered with \"id\": null: {reply}"
    );
    assert_eq!(reply["error"]["code"], code, "{reply}");
    reply
}

/// The server still serves: `status` names the page it was opened on.
async fn still_serves(mcp: &mut Mcp) {
    let status = mcp.tool("status", json!({})).await;
    let text = status["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("form.html"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_rpc_gets_a_null_id_error_and_the_next_request_is_served() {
    let rig = Rig::start().await;
    let mut mcp = Mcp::start(&rig, "form.html").await;
    for (line, code) in [
        ("this is not json", -32700),
        (r#"{"jsonrpc": "2.0", "id": 1, "method": "#, -32700),
        ("[1, 2]", -32600),
        ("42", -32600),
        (r#""tools/list""#, -32600),
        (r#"{"jsonrpc": "2.0", "method": 7}"#, -32600),
        (
            r#"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}"#,
            -32600,
        ),
    ] {
        mcp.send_raw(format!("{line}\n").as_bytes()).await;
        let reply = null_id_error(&mut mcp, code).await;
        assert!(
            reply["error"]["message"].is_string(),
            "{line}: a message says what was wrong: {reply}"
        );
        still_serves(&mut mcp).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_the_frame_limit_is_refused_naming_it_and_the_next_is_served() {
    let rig = Rig::start().await;
    let limit = rig.host.limits().frame_bytes;
    let mut mcp = Mcp::start(&rig, "form.html").await;
    // Over the limit, and far over it (rmcp's own reader dropped lines over 16 MiB
    // without a word); `observe`'s query has no bound of its own before the line's.
    for size in [limit + 1024, 20 << 20] {
        let call = json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
            "params": {"name": "observe", "arguments": {"query": "a".repeat(size)}}});
        mcp.send_raw(format!("{call}\n").as_bytes()).await;
        let reply = null_id_error(&mut mcp, -32600).await;
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("frame_bytes") && message.contains(&limit.to_string()),
            "the refusal names the limit: {message}"
        );
        assert_eq!(reply["error"]["data"]["limit"], "frame_bytes", "{reply}");
        assert!(reply.to_string().len() < 2_000, "nothing of it is echoed");
        still_serves(&mut mcp).await;
    }
}
