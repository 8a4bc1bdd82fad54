//! One connection on either transport.

use super::frame::{read_frame, write_frame, FrameError, Framing};
use crate::dispatch::{greet, serve as serve_request};
use crate::host::Host;
use crate::outbox::{outbox, Outbox};
use crate::protocol::{ErrorCode, HostError, LimitName, Response};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::Instant;

/// Serves one connection until the peer closes it, sends a bad frame, or misses the
/// `hello` deadline. The connection's sessions are stopped on the way out. While its
/// reply queue is full (`reply_queue_bytes`: the peer is not reading) no further request
/// is read.
pub async fn serve<R, W>(host: Host, mut reader: R, mut writer: W, framing: Framing)
where
    R: AsyncBufRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let limits = host.limits().clone();
    let (out, mut drain) = outbox(limits.reply_queue_bytes, host.reply_queue_peak());
    let write = tokio::spawn(async move {
        while let Some(message) = drain.recv().await {
            if write_frame(&mut writer, framing, message.bytes())
                .await
                .is_err()
            {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_millis(limits.hello_ms);
    let mut connection = None;
    let mut requests = JoinSet::new();
    let in_flight = Arc::new(Semaphore::new(limits.requests_in_flight));
    loop {
        let frame = match &connection {
            None => match tokio::time::timeout_at(
                deadline,
                read_frame(&mut reader, framing, limits.frame_bytes),
            )
            .await
            {
                Ok(frame) => frame,
                Err(_) => {
                    refuse(
                        &out,
                        HostError::new(
                            ErrorCode::HelloTimeout,
                            format!(
                                "no hello within {} ms; the connection is closed",
                                limits.hello_ms
                            ),
                        ),
                    )
                    .await;
                    break;
                }
            },
            Some(_) => {
                // Reap finished requests so a long connection holds no task per request.
                while requests.try_join_next().is_some() {}
                // Backpressure: a peer that does not read its replies is not read from.
                out.room().await;
                read_frame(&mut reader, framing, limits.frame_bytes).await
            }
        };
        let bytes = match frame {
            Ok(Some(bytes)) => bytes,
            Ok(None) => break,
            Err(FrameError::TooLarge { len, max }) => {
                refuse(&out, HostError::limit(
                    LimitName::FrameBytes,
                    format!("a frame of {len} bytes is over the {max}-byte limit; the connection is closed"),
                )).await;
                break;
            }
            Err(e @ (FrameError::Empty | FrameError::Truncated)) => {
                refuse(
                    &out,
                    HostError::new(
                        ErrorCode::InvalidRequest,
                        format!("malformed frame ({e}); the connection is closed"),
                    ),
                )
                .await;
                break;
            }
            Err(FrameError::Io(_)) => break,
        };
        match &connection {
            None => connection = greet(&host, &bytes, &out).await,
            Some(conn) => {
                let Ok(permit) = Arc::clone(&in_flight).try_acquire_owned() else {
                    let id = crate::protocol::Envelope::parse(&bytes)
                        .ok()
                        .and_then(|e| e.request_id);
                    out.send(Response::err(id, HostError::limit(
                        LimitName::RequestsInFlight,
                        format!("{} requests are already in flight on this connection; wait for answers", limits.requests_in_flight),
                    )).to_bytes()).await;
                    continue;
                };
                let conn = Arc::clone(conn);
                let out = out.clone();
                requests.spawn(async move {
                    serve_request(&conn, &bytes, &out).await;
                    drop(permit);
                });
            }
        }
    }
    // The peer is gone or refused: its sessions stop, its requests end.
    if let Some(conn) = &connection {
        conn.close().await;
    }
    requests.shutdown().await;
    drop(connection);
    drop(out);
    let _ = write.await;
}

async fn refuse(out: &Outbox, error: HostError) {
    out.send(Response::err(None, error).to_bytes()).await;
}
