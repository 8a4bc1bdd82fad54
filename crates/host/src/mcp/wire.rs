//! The MCP server's line transport. One JSON-RPC message per line, read through the
//! host's own frame reader under its `frame_bytes` limit (the bound every front door
//! has), and the lines rmcp's reader would drop without a word answered instead
//! (JSON-RPC 2.0 §5.1): not JSON is -32700, JSON that is no message is -32600, a line
//! over the limit is -32600 naming it — `"id": null` unless the line's own id can be
//! read — and the next line is served. Notifications are never answered.
//!
//! What it holds for a client is bounded ([`InFlight`]): past `requests_in_flight`
//! requests unanswered it reads nothing more, so a client that does not read its replies
//! has its own writes block.

use crate::protocol::{HostError, LimitName};
use crate::transport::{read_frame, skip_line, write_frame, FrameError, Framing};
use rmcp::model::{ClientNotification, ClientRequest, GetExtensions, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::sync::{mpsc, Mutex, OwnedSemaphorePermit, Semaphore};

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

type Writer<W> = Arc<Mutex<Option<W>>>;

/// rmcp's [`Transport`] over a reader and a writer of JSON lines.
pub(super) struct LineTransport<W> {
    messages: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    writer: Writer<W>,
    reader: tokio::task::JoinHandle<()>,
    in_flight: Arc<InFlight>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> LineTransport<W> {
    /// Reads on a task of its own, so a read rmcp's loop abandons mid-line (it selects
    /// over its reads) loses nothing; lines of at most `max_bytes`, at most `in_flight`
    /// requests unanswered.
    pub(super) fn new<R>(reader: R, writer: W, max_bytes: usize, in_flight: usize) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let writer = Arc::new(Mutex::new(Some(writer)));
        let in_flight = Arc::new(InFlight::new(in_flight));
        let (tx, messages) = mpsc::channel(32);
        let reader = tokio::spawn(read_lines(
            BufReader::new(reader),
            max_bytes,
            Arc::clone(&writer),
            Arc::clone(&in_flight),
            tx,
        ));
        LineTransport {
            messages,
            writer,
            reader,
            in_flight,
        }
    }
}

impl<W> Drop for LineTransport<W> {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        // The answer to a request: its permit goes once the answer is written.
        let answered = match &item {
            JsonRpcMessage::Response(r) => self.in_flight.answered(&r.id),
            JsonRpcMessage::Error(e) => e.id.as_ref().and_then(|id| self.in_flight.answered(id)),
            _ => None,
        };
        async move {
            let bytes = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            let written = write_line(&writer, &bytes).await;
            drop(answered);
            written
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        let m = self.messages.recv().await?;
        // rmcp handles what this returns before anything else: a request it has not
        // answered by now it never will (it drops the handler's reply).
        if let JsonRpcMessage::Notification(n) = &m {
            if let ClientNotification::CancelledNotification(c) = &n.notification {
                if let Some(id) = &c.params.request_id {
                    self.in_flight.cancelled(id);
                }
            }
        }
        Some(m)
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.reader.abort();
        self.writer.lock().await.take();
        Ok(())
    }
}

async fn write_line<W: AsyncWrite + Unpin>(
    writer: &Writer<W>,
    bytes: &[u8],
) -> std::io::Result<()> {
    let mut guard = writer.lock().await;
    let Some(w) = guard.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "the MCP transport is closed",
        ));
    };
    write_frame(w, Framing::Lines, bytes).await
}

/// The requests a client has in flight: read and handed to rmcp, not yet answered.
///
/// rmcp spawns a handler per request and queues each reply behind the write, so a client
/// that pipelined requests and never read its replies had every one read (100,000 calls,
/// the server 45 → 231 MB in 3 s). Now a request takes one of `requests_in_flight`
/// permits (the host's own bound per connection: enough for any client's concurrency,
/// few enough that their replies are small change) before it is handed on, and the
/// reader waits for one: at the bound nothing more is read, the pipe fills, the client's
/// writes block. A permit goes when its reply is written — or, cancelled (rmcp then
/// drops the reply), when its handler ends — so the server holds at most that many
/// handlers and replies. rmcp keys requests by id, and a second request on an id in
/// flight would lose one reply: it is refused instead.
struct InFlight {
    permits: Arc<Semaphore>,
    ids: std::sync::Mutex<HashMap<RequestId, Held>>,
}

/// One request's permit: freed when both its entry (until answered) and its handler's
/// [`Handling`] (until the handler ends) let go.
struct Permit {
    _permit: OwnedSemaphorePermit,
}

enum Held {
    /// rmcp will answer it.
    Answer(Arc<Permit>),
    /// Cancelled unanswered: rmcp will not answer; the id is taken until the handler ends.
    Cancelled(Weak<Permit>),
}

/// In a request's extensions, which its handler holds to the end.
#[derive(Clone)]
struct Handling {
    _permit: Arc<Permit>,
}

impl InFlight {
    fn new(max: usize) -> Self {
        InFlight {
            permits: Arc::new(Semaphore::new(max.clamp(1, Semaphore::MAX_PERMITS))),
            ids: std::sync::Mutex::new(HashMap::new()),
        }
    }

    fn ids(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, Held>> {
        self.ids.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a permit for `request`, then takes its id; `Err` is the refusal of a
    /// request whose id is in flight already.
    async fn admit(
        &self,
        request: &mut rmcp::model::JsonRpcRequest<ClientRequest>,
    ) -> Result<(), Value> {
        // The semaphore is never closed.
        let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
            return Ok(());
        };
        let permit = Arc::new(Permit { _permit: permit });
        let mut ids = self.ids();
        ids.retain(|_, held| match held {
            Held::Answer(_) => true,
            Held::Cancelled(handler) => handler.strong_count() > 0,
        });
        if ids.contains_key(&request.id) {
            let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
            let message = format!(
                "invalid request: a request with id {id} is in flight already; give each request an id of its own"
            );
            return Err(refusal(id, INVALID_REQUEST, message, None));
        }
        ids.insert(request.id.clone(), Held::Answer(Arc::clone(&permit)));
        request
            .request
            .extensions_mut()
            .insert(Handling { _permit: permit });
        Ok(())
    }

    /// rmcp sends the answer to `id`: its entry, to drop once the answer is written.
    fn answered(&self, id: &RequestId) -> Option<Arc<Permit>> {
        let mut ids = self.ids();
        match ids.remove(id)? {
            Held::Answer(permit) => Some(permit),
            held @ Held::Cancelled(_) => {
                ids.insert(id.clone(), held);
                None
            }
        }
    }

    /// rmcp takes the cancellation of `id`: unanswered by now, it never will be.
    fn cancelled(&self, id: &RequestId) {
        let mut ids = self.ids();
        if let Some(held) = ids.get_mut(id) {
            if let Held::Answer(permit) = held {
                let handler = Arc::downgrade(permit);
                *held = Held::Cancelled(handler);
            }
        }
    }
}

/// Every line until the end of the stream: messages to rmcp, refusals to the peer.
async fn read_lines<R, W>(
    mut reader: BufReader<R>,
    max_bytes: usize,
    writer: Writer<W>,
    in_flight: Arc<InFlight>,
    messages: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    loop {
        let refusal = match read_frame(&mut reader, Framing::Lines, max_bytes).await {
            Ok(None) | Err(FrameError::Io(_)) => return,
            Ok(Some(line)) => match read_message(&line) {
                Read::Message(mut m) => {
                    // Backpressure: at the bound, nothing more is read until a reply is
                    // written.
                    let admitted = match &mut *m {
                        JsonRpcMessage::Request(request) => in_flight.admit(request).await,
                        _ => Ok(()),
                    };
                    match admitted {
                        Err(refusal) => refusal,
                        Ok(()) => {
                            if messages.send(*m).await.is_err() {
                                return;
                            }
                            continue;
                        }
                    }
                }
                Read::Notification => continue,
                Read::Refused(r) => r,
            },
            Err(FrameError::TooLarge { max, .. }) => {
                if skip_line(&mut reader).await.is_err() {
                    return;
                }
                too_large(max)
            }
            // Lines have no empty or truncated frames.
            Err(FrameError::Empty | FrameError::Truncated) => return,
        };
        if write_line(&writer, refusal.to_string().as_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
}

enum Read {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// A notification rmcp does not know: never answered (JSON-RPC 2.0 §4.1).
    Notification,
    Refused(Value),
}

/// One line as rmcp's message, or the JSON-RPC error it gets instead.
fn read_message(line: &[u8]) -> Read {
    // RFC 8259 §8.1 lets a parser ignore a byte order mark.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let e = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(mut m) => {
            keep_raw_arguments(&mut m, line);
            return Read::Message(Box::new(m));
        }
        Err(e) => e,
    };
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return Read::Refused(refusal(
            Value::Null,
            PARSE_ERROR,
            format!("parse error: the line is not JSON ({e})"),
            None,
        ));
    };
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        Some(_) => Value::Null,
        None if value.get("method").is_some_and(Value::is_string) => return Read::Notification,
        None => Value::Null,
    };
    Read::Refused(refusal(
        id,
        INVALID_REQUEST,
        format!(
            "invalid request: not a JSON-RPC 2.0 request, notification or response object ({e})"
        ),
        None,
    ))
}

/// A tool call's `arguments` as the client sent them, in the request's extensions (the
/// tool reads them from its `RequestContext`): rmcp hands a tool a JSON value, in which a
/// key given twice has already become one, so a tool whose input has a strict boundary of
/// its own (`run_subtask`'s subtask) reads this text instead.
#[derive(Clone, Debug)]
pub(super) struct RawArguments(pub Arc<RawValue>);

fn keep_raw_arguments(message: &mut RxJsonRpcMessage<RoleServer>, line: &[u8]) {
    #[derive(serde::Deserialize)]
    struct Call<'a> {
        #[serde(borrow)]
        params: Params<'a>,
    }
    #[derive(serde::Deserialize)]
    struct Params<'a> {
        #[serde(borrow)]
        arguments: Option<&'a RawValue>,
    }
    let JsonRpcMessage::Request(request) = message else {
        return;
    };
    let ClientRequest::CallToolRequest(call) = &mut request.request else {
        return;
    };
    // The line parsed as a call a moment ago, so this parse does not fail on any line
    // rmcp accepted; a call without arguments has none to keep.
    if let Ok(Call {
        params: Params {
            arguments: Some(raw),
        },
    }) = serde_json::from_slice::<Call>(line)
    {
        call.extensions
            .insert(RawArguments(Arc::from(raw.to_owned())));
    }
}

fn too_large(max: usize) -> Value {
    let e = HostError::limit(
        LimitName::FrameBytes,
        format!("a message over the {max}-byte limit (frame_bytes) was not read; send less, or split it"),
    );
    refusal(Value::Null, INVALID_REQUEST, e.message.clone(), Some(&e))
}

/// A JSON-RPC error response; `data` is the host's error when there is one.
fn refusal(id: Value, code: i64, message: String, data: Option<&HostError>) -> Value {
    let message = arc_core::clip(&message, 600);
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data.and_then(|d| serde_json::to_value(d).ok()) {
        error["data"] = data;
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}
