//! Error types. Every variant names what failed (the CDP method, the executable path, the
//! URL or the limit) so a log line is enough to act on.

use std::path::PathBuf;
use std::time::Duration;

/// An error from one CDP exchange on a [`Connection`](crate::cdp::Connection).
#[derive(Debug, thiserror::Error)]
pub enum CdpError {
    /// Chromium answered the call with an error object.
    #[error("CDP {method} failed: {message} (code {code}){}", data.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Protocol {
        method: String,
        code: i64,
        message: String,
        /// The optional `data` string Chromium sometimes adds.
        data: Option<String>,
    },
    /// No reply within the per-call timeout. The call is forgotten; a late reply is dropped.
    #[error("CDP {method} timed out after {timeout:?}")]
    Timeout { method: String, timeout: Duration },
    /// The websocket closed (or was never usable) before the reply arrived.
    #[error("CDP {method} failed: the DevTools connection is closed")]
    Closed { method: String },
    /// The params could not be serialized.
    #[error("CDP {method}: cannot serialize params: {source}")]
    Serialize {
        method: String,
        #[source]
        source: serde_json::Error,
    },
    /// The reply (or event) did not match the typed struct.
    #[error("CDP {method}: cannot parse reply: {source}")]
    Deserialize {
        method: String,
        #[source]
        source: serde_json::Error,
    },
    /// The websocket handshake to the endpoint failed.
    #[error("cannot connect to DevTools endpoint {url}: {source}")]
    Connect {
        url: String,
        #[source]
        source: Box<tokio_tungstenite::tungstenite::Error>,
    },
}

impl CdpError {
    /// The CDP method the error is about (`None` for connection-level errors).
    pub fn method(&self) -> Option<&str> {
        match self {
            CdpError::Protocol { method, .. }
            | CdpError::Timeout { method, .. }
            | CdpError::Closed { method }
            | CdpError::Serialize { method, .. }
            | CdpError::Deserialize { method, .. } => Some(method),
            CdpError::Connect { .. } => None,
        }
    }
}

/// An error from launching Chromium or from a browser/page-level helper.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    #[error(transparent)]
    Cdp(#[from] CdpError),
    /// The executable could not be started at all.
    #[error("cannot start Chromium at {path}: {source}")]
    Spawn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Chromium did not print its DevTools address within the launch timeout.
    #[error("Chromium at {path} printed no DevTools address within {timeout:?}; last stderr lines:\n{stderr}")]
    LaunchTimeout {
        path: PathBuf,
        timeout: Duration,
        stderr: String,
    },
    /// Chromium exited (or closed stderr) before printing its DevTools address.
    #[error("Chromium at {path} exited before printing a DevTools address ({status}); last stderr lines:\n{stderr}")]
    LaunchExited {
        path: PathBuf,
        status: String,
        stderr: String,
    },
    /// A local I/O failure (temp profile directory, reading stderr, HTTP discovery).
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    /// The endpoint given to [`Browser::connect`](crate::Browser::connect) is unusable.
    #[error("bad DevTools endpoint {endpoint}: {reason}")]
    Endpoint { endpoint: String, reason: String },
    /// `Page.navigate` reported a network-level failure (`errorText`).
    #[error("navigation to {url} failed: {error_text}")]
    Navigation { url: String, error_text: String },
    /// The load event did not arrive in time.
    #[error("navigation to {url}: no load event within {timeout:?}")]
    NavigationTimeout { url: String, timeout: Duration },
    /// The process is exiting (a signal's cleanup ran): no browser is launched any more.
    #[error("not launching Chromium: the runtime is shutting down")]
    ShuttingDown,
    /// `Runtime.evaluate` threw in the page.
    #[error("JavaScript exception evaluating `{expression}`: {text}")]
    JavaScript { expression: String, text: String },
}

impl BrowserError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        BrowserError::Io {
            context: context.into(),
            source,
        }
    }
}
