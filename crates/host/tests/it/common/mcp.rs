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
        Mcp::start_on_pipe(rig, page, 1 << 22).await
    }

    /// A client on a pipe that buffers `pipe` bytes each way.
    pub async fn start_on_pipe(rig: &Rig, page: &str, pipe: usize) -> Mcp {
        let grants = json!({"allow_launch": true, "allow_input": true});
        Mcp::start_with(rig, &rig.url(page), grants, pipe).await
    }

    /// A server started as `arc-cua mcp` starts it: on a new tab at `url` (`about:blank`
    /// when no page is named) with `grants` (JSON, as the host reads them).
    pub async fn start_with(rig: &Rig, url: &str, grants: Value, pipe: usize) -> Mcp {
        let grants: arc_host::Grants = serde_json::from_value(grants).unwrap();
        let server = arc_host::mcp::McpServer::open(
            &rig.host,
            arc_host::protocol::TargetSpec {
                target_id: None,
                url: Some(url.to_owned()),
            },
            grants,
        )
        .await
        .expect("the MCP server opens its session");
        let (client, served) = tokio::io::duplex(pipe);
        let (sr, sw) = tokio::io::split(served);
        tokio::spawn(server.serve_on(sr, sw));
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

    /// The client's two ends, to write without reading.
    pub fn into_parts(
        self,
    ) -> (
        tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
        tokio::io::WriteHalf<tokio::io::DuplexStream>,
    ) {
        (self.reader, self.writer)
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.send_raw(line.as_bytes()).await;
    }

    /// Bytes as they are, newline or not.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        use tokio::io::AsyncWriteExt as _;
        self.writer.write_all(bytes).await.unwrap();
    }

    /// The next message the server sends, whatever it answers (a hang guard, not a timing
    /// assertion: a server that answers nothing fails here).
    pub async fn recv(&mut self, within: std::time::Duration) -> Value {
        use tokio::io::AsyncBufReadExt as _;
        let mut line = String::new();
        let n = tokio::time::timeout(within, self.reader.read_line(&mut line))
            .await
            .unwrap_or_else(|_| panic!("no MCP message within {within:?}"))
            .unwrap();
        assert!(n > 0, "the MCP server closed");
        serde_json::from_str(&line).expect("the server sends JSON lines")
    }

    /// A request with the next id; its reply (messages before it skipped).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let msg = self.recv(std::time::Duration::from_secs(60)).await;
            if msg["id"] == id {
                return msg;
            }
        }
    }

    /// A tool call's whole reply, errors included.
    pub async fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
            .await
    }

    /// The latest snapshot id (from `observe`) and the session's target id (from `status`).
    pub async fn snapshot_and_target(&mut self) -> (String, String) {
        let observed = self.tool("observe", json!({})).await;
        let text = observed["content"][0]["text"].as_str().unwrap();
        let snapshot = text
            .lines()
            .next()
            .unwrap()
            .trim_start_matches("snapshot: ");
        let status = self.tool("status", json!({})).await;
        let status: Value =
            serde_json::from_str(status["content"][0]["text"].as_str().unwrap()).unwrap();
        let target = status["target"]["target_id"].as_str().unwrap().to_owned();
        (snapshot.to_owned(), target)
    }

    pub async fn tool(&mut self, name: &str, arguments: Value) -> Value {
        let r = self.call(name, arguments).await;
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
