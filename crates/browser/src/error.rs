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
    /// The connection closed (or was never usable) before the reply arrived: the
    /// browser exited or was killed, or closed the socket.
    #[error("CDP {method} failed: the DevTools connection is closed (the browser is gone)")]
    Closed { method: String },
    /// The page's renderer process crashed (or was killed): its session never answers
    /// again, so its calls fail at once instead of timing out.
    #[error("CDP {method} failed: the page's renderer crashed")]
    TargetCrashed { method: String },
    /// The session was detached (its tab closed) before the reply arrived.
    #[error("CDP {method} failed: the page's session was detached (the tab closed)")]
    Detached { method: String },
    /// The reply was larger than the connection's message limit and was skipped.
    #[error("CDP {method} failed: the reply is over the {limit}-byte message limit")]
    TooLarge { method: String, limit: usize },
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
            | CdpError::TargetCrashed { method }
            | CdpError::Detached { method }
            | CdpError::TooLarge { method, .. }
            | CdpError::Serialize { method, .. }
            | CdpError::Deserialize { method, .. } => Some(method),
            CdpError::Connect { .. } => None,
        }
    }

    /// Whether this error means the browser or the page's renderer is gone (an
    /// environment failure, not something a retry or another decision can fix).
    pub fn lost(&self) -> Option<Lost> {
        match self {
            CdpError::Closed { .. } => Some(Lost::Browser),
            CdpError::TargetCrashed { .. } => Some(Lost::Renderer),
            _ => None,
        }
    }
}

/// What of the environment is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// The browser process exited or was killed (the connection closed).
    Browser,
    /// The page's renderer process crashed or was killed.
    Renderer,
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Lost::Browser => "the browser is gone (it exited or was killed)",
            Lost::Renderer => "the page's renderer crashed",
        })
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
    /// Chromium did not answer on its debugging pipe within the launch timeout.
    #[error("Chromium at {path} did not answer DevTools within {timeout:?}; last stderr lines:\n{stderr}")]
    LaunchTimeout {
        path: PathBuf,
        timeout: Duration,
        stderr: String,
    },
    /// Chromium exited (or closed its debugging pipe) before answering DevTools.
    #[error("Chromium at {path} exited before answering DevTools ({status}); last stderr lines:\n{stderr}")]
    LaunchExited {
        path: PathBuf,
        status: String,
        stderr: String,
    },
    /// A local I/O failure (temp profile directory, the debugging pipe, HTTP discovery).
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
    /// The page target to attach to is not there (or is not named when it must be).
    #[error("{detail}")]
    NoSuchTarget { detail: String },
    /// The page's first load led off its allowed origins ([`BrowserOptions::confine`],
    /// a redirect) and was stopped; `origin` is where it led.
    ///
    /// [`BrowserOptions::confine`]: crate::backend::BrowserOptions::confine
    #[error("opening {url} was stopped: it led to {origin}, which is not one of the page's allowed origins")]
    OffOrigin { url: String, origin: String },
    /// A storage-state file or a profile directory cannot be used as it is (its
    /// permissions, its format, another user of it); `path` names it.
    #[error("{path}: {reason}")]
    SessionFile { path: PathBuf, reason: String },
}

impl BrowserError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        BrowserError::Io {
            context: context.into(),
            source,
        }
    }
}
