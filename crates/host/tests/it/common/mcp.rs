//! An MCP client for the host's tests: JSON-RPC lines over an in-memory pipe to the
//! host's MCP server (the tools `arc-cua mcp` serves), opened on a fixture page.

use super::Rig;
use serde_json::{json, Value};

/// One initialized client; its server holds one session on the page it was opened on.
pub struct Mcp {
    reader: tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    writer: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    next: u64,
}

impl Mcp {
    pub async fn start(rig: &Rig, page: &str) -> Mcp {
        use rmcp::ServiceExt as _;
        let grants: arc_host::Grants =
            serde_json::from_value(json!({"allow_launch": true, "allow_input": true})).unwrap();
        let server = arc_host::mcp::McpServer::open(
            &rig.host,
            arc_host::protocol::TargetSpec {
                target_id: None,
                url: Some(rig.url(page)),
            },
            grants,
        )
        .await
        .expect("the MCP server opens its session");
        let (client, served) = tokio::io::duplex(1 << 22);
        let (sr, sw) = tokio::io::split(served);
        tokio::spawn(async move {
            if let Ok(running) = server.serve((sr, sw)).await {
                let _ = running.waiting().await;
            }
        });
        let (cr, cw) = tokio::io::split(client);
        let mut mcp = Mcp {
            reader: tokio::io::BufReader::new(cr),
            writer: cw,
            next: 0,
        };
        mcp.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}}),
        )
        .await;
        mcp.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        mcp
    }

    async fn send(&mut self, message: Value) {
        use tokio::io::AsyncWriteExt as _;
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        use tokio::io::AsyncBufReadExt as _;
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let mut line = String::new();
            let n = tokio::time::timeout(
                std::time::Duration::from_secs(60),
                self.reader.read_line(&mut line),
            )
            .await
            .expect("an MCP reply within 60 s")
            .unwrap();
            assert!(n > 0, "the MCP server closed");
            let msg: Value = serde_json::from_str(&line).unwrap();
            if msg["id"] == id {
                return msg;
            }
        }
    }

    pub async fn tool(&mut self, name: &str, arguments: Value) -> Value {
        let r = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await;
        assert_eq!(r["result"]["isError"], false, "{name}: {r}");
        r["result"].clone()
    }
}

/// The PNG and the elements of an MCP observation's content blocks.
pub fn mcp_observation(result: &Value) -> Value {
    let content = result["content"].as_array().unwrap();
    let png = content
        .iter()
        .find(|b| b["type"] == "image")
        .expect("image content")["data"]
        .clone();
    let elements = content
        .iter()
        .filter(|b| b["type"] == "text")
        .find_map(|b| serde_json::from_str::<Value>(b["text"].as_str()?).ok())
        .unwrap_or(Value::Null);
    json!({"png_base64": png, "elements": elements})
}
