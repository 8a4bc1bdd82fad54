//! A protocol client over the host's socket: the host crate's own frames and types.

use arc_host::protocol::{Method, Reply, Request};
use arc_host::transport::{read_frame, write_frame, Framing};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;
use std::time::Duration;
use tokio::io::BufReader;
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::UnixStream;

/// Replies can carry a whole observation; requests never come near this.
const MAX_REPLY_BYTES: usize = 64 << 20;
/// One request id suffices: the bench sends one request at a time.
const REQUEST_ID: &str = "bench";

pub struct Client {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
}

impl Client {
    pub async fn connect(path: &Path) -> std::io::Result<Client> {
        let (r, w) = UnixStream::connect(path).await?.into_split();
        Ok(Client {
            reader: BufReader::new(r),
            writer: w,
        })
    }

    /// One request and its response (streamed events skipped), within `bound`.
    pub async fn call<P: Serialize, T: DeserializeOwned>(
        &mut self,
        method: Method,
        params: &P,
        bound: Duration,
    ) -> Result<T, String> {
        let what = method.as_str();
        let request = Request {
            request_id: Some(REQUEST_ID),
            method,
            params,
        };
        let bytes = serde_json::to_vec(&request).map_err(|e| format!("{what}: {e}"))?;
        let exchange = async {
            write_frame(&mut self.writer, Framing::LengthPrefixed, &bytes)
                .await
                .map_err(|e| format!("{what}: cannot send: {e}"))?;
            loop {
                let frame = read_frame(&mut self.reader, Framing::LengthPrefixed, MAX_REPLY_BYTES)
                    .await
                    .map_err(|e| format!("{what}: {e}"))?
                    .ok_or_else(|| format!("{what}: the host closed the connection"))?;
                let reply = Reply::parse(&frame).map_err(|e| format!("{what}: {e}"))?;
                if reply.is_event() {
                    continue;
                }
                if reply.request_id.as_deref() != Some(REQUEST_ID) {
                    return Err(format!(
                        "{what}: the reply echoes request_id {:?}, not {REQUEST_ID:?}",
                        reply.request_id
                    ));
                }
                return reply.into_result().map_err(|e| format!("{what}: {e}"));
            }
        };
        tokio::time::timeout(bound, exchange)
            .await
            .map_err(|_| format!("{what}: no answer within {} ms", bound.as_millis()))?
    }
}
