//! The websocket transport: `--cdp ws://…` attaches to a browser the user runs.

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

use super::connection::{Connection, ConnectionOptions};
use crate::error::CdpError;

impl Connection {
    /// Connects to a `ws://…/devtools/browser/…` (or `/devtools/page/…`) endpoint.
    pub async fn connect(ws_url: &str) -> Result<Connection, CdpError> {
        Self::connect_with(ws_url, ConnectionOptions::default()).await
    }

    /// [`Connection::connect`] with explicit options.
    pub async fn connect_with(
        ws_url: &str,
        options: ConnectionOptions,
    ) -> Result<Connection, CdpError> {
        let config = WebSocketConfig::default()
            .max_message_size(Some(options.max_message_size))
            .max_frame_size(Some(options.max_message_size));
        let connect_err = |e: tungstenite::Error| CdpError::Connect {
            url: ws_url.to_owned(),
            source: Box::new(e),
        };
        let handshake = tokio_tungstenite::connect_async_with_config(ws_url, Some(config), true);
        let (ws, _response) = tokio::time::timeout(options.connect_timeout, handshake)
            .await
            .map_err(|_| {
                connect_err(tungstenite::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no handshake within {:?}", options.connect_timeout),
                )))
            })?
            .map_err(connect_err)?;
        let (mut sink, mut stream) = ws.split();

        let reader = |shared: std::sync::Arc<super::connection::Shared>| async move {
            while let Some(msg) = stream.next().await {
                match msg {
                    Ok(Message::Text(text)) => shared.dispatch(text.as_str()),
                    Ok(Message::Binary(bytes)) => match std::str::from_utf8(&bytes) {
                        Ok(text) => shared.dispatch(text),
                        Err(_) => tracing::warn!("non-UTF-8 binary CDP message dropped"),
                    },
                    Ok(Message::Close(frame)) => {
                        tracing::debug!(?frame, "DevTools socket closed by peer");
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        // A message over the limit ends up here too; say so loudly.
                        tracing::warn!(error = %e, "DevTools socket read failed");
                        break;
                    }
                }
            }
        };
        let writer = |mut rx: tokio::sync::mpsc::UnboundedReceiver<String>| async move {
            while let Some(text) = rx.recv().await {
                if let Err(e) = sink.send(Message::text(text)).await {
                    tracing::debug!(error = %e, "DevTools socket write failed");
                    break;
                }
            }
            let _ = sink.close().await;
        };
        Ok(Connection::assemble(
            ws_url.to_owned(),
            &options,
            reader,
            writer,
        ))
    }
}
