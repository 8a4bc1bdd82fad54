//! The pipe transport (`--remote-debugging-pipe`): Chromium reads commands from its fd 3
//! and writes replies and events to its fd 4, each message a JSON text ended by a NUL
//! byte. No port, so no other local user can reach the browser.

use std::os::fd::OwnedFd;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::sync::mpsc;

use super::connection::{Connection, ConnectionOptions, Shared};
use crate::error::CdpError;

/// What [`Connection::url`] says for a pipe connection.
pub const PIPE_LABEL: &str = "pipe";

impl Connection {
    /// A connection over Chromium's debugging pipe: `from_browser` is the read end of
    /// the pipe Chromium writes to (its fd 4), `to_browser` the write end of the one it
    /// reads (its fd 3). The connection ends when Chromium closes its end (exit or kill).
    pub fn over_pipe(
        from_browser: OwnedFd,
        to_browser: OwnedFd,
        options: ConnectionOptions,
    ) -> Result<Connection, CdpError> {
        let pipe_err = |e: std::io::Error| CdpError::Connect {
            url: PIPE_LABEL.to_owned(),
            source: Box::new(e.into()),
        };
        let rx = pipe::Receiver::from_owned_fd(from_browser).map_err(pipe_err)?;
        let tx = pipe::Sender::from_owned_fd(to_browser).map_err(pipe_err)?;
        let limit = options.max_message_size;
        Ok(Connection::assemble(
            PIPE_LABEL.to_owned(),
            &options,
            move |shared| read_messages(rx, shared, limit),
            move |queue| write_messages(tx, queue),
        ))
    }
}

/// Splits the byte stream at NUL bytes and dispatches each message. A message over
/// `limit` is skipped up to its NUL (never buffered whole); if it is a reply, its call
/// fails with [`CdpError::TooLarge`].
async fn read_messages(mut rx: pipe::Receiver, shared: Arc<Shared>, limit: usize) {
    let mut message: Vec<u8> = Vec::new();
    // `Some(id)` while skipping an oversized message (the id of the call it answers).
    let mut skipping: Option<Option<u64>> = None;
    let mut chunk = vec![0u8; 256 * 1024];
    loop {
        let n = match rx.read(&mut chunk).await {
            Ok(0) => {
                tracing::debug!("DevTools pipe closed by Chromium");
                return;
            }
            Ok(n) => n,
            Err(e) => {
                tracing::debug!(error = %e, "DevTools pipe read failed");
                return;
            }
        };
        let mut rest = &chunk[..n];
        while !rest.is_empty() {
            let end = rest.iter().position(|&b| b == 0);
            let (part, complete) = match end {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            rest = end.map_or(&[][..], |i| &rest[i + 1..]);
            if skipping.is_none() {
                message.extend_from_slice(part);
                if message.len() > limit {
                    skipping = Some(leading_id(&message));
                    message = Vec::new();
                }
            }
            if !complete {
                continue;
            }
            match skipping.take() {
                Some(id) => {
                    tracing::warn!(limit, ?id, "CDP message over the size limit skipped");
                    if let Some(id) = id {
                        shared.fail_too_large(id, limit);
                    }
                }
                None => match std::str::from_utf8(&message) {
                    Ok(text) => shared.dispatch(text),
                    Err(_) => tracing::warn!("non-UTF-8 CDP message dropped"),
                },
            }
            message.clear();
        }
    }
}

/// The call id of a reply from its first bytes: Chromium writes replies as
/// `{"id":N,…`.
fn leading_id(prefix: &[u8]) -> Option<u64> {
    let rest = prefix.strip_prefix(br#"{"id":"#)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()
}

async fn write_messages(mut tx: pipe::Sender, mut queue: mpsc::UnboundedReceiver<String>) {
    while let Some(text) = queue.recv().await {
        let mut bytes = text.into_bytes();
        bytes.push(0);
        if let Err(e) = tx.write_all(&bytes).await {
            tracing::debug!(error = %e, "DevTools pipe write failed");
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_id_of_a_reply() {
        assert_eq!(leading_id(br#"{"id":42,"result":{}}"#), Some(42));
        assert_eq!(leading_id(br#"{"method":"Page.loadEventFired"}"#), None);
        assert_eq!(leading_id(br#"{"id":"#), None);
    }
}
