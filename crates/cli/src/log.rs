//! The log sink: every line tracing writes, at every level and from every crate, passes
//! through the run's [`Redactor`] before it reaches stderr.
//!
//! The WebSocket library's own frame dumps (`tungstenite` at trace) are held at `info`
//! whatever `ARC_CUA_LOG` asks: they carry every CDP payload — the text TYPE_TEXT inserts
//! included — hex-encoded, a form no redactor can match. Our `CDP call` trace names the
//! method instead.

use arc_core::Redactor;
use std::io::Write;
use std::sync::OnceLock;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

/// The process's redactor: the command adds its subtask's secrets and hands a clone to
/// the executor, which adds what it learns (shared state: the sink sees it at once).
pub fn redactor() -> &'static Redactor {
    static REDACTOR: OnceLock<Redactor> = OnceLock::new();
    REDACTOR.get_or_init(Redactor::default)
}

/// Targets whose traces dump raw wire payloads.
const WIRE_DUMPS: [&str; 2] = ["tungstenite=info", "tokio_tungstenite=info"];

pub fn init() {
    let mut filter = EnvFilter::from_env("ARC_CUA_LOG");
    for directive in WIRE_DUMPS {
        if let Ok(d) = directive.parse() {
            filter = filter.add_directive(d);
        }
    }
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(RedactedStderr)
        .init();
}

struct RedactedStderr;

impl<'a> MakeWriter<'a> for RedactedStderr {
    type Writer = EventBuffer;
    fn make_writer(&'a self) -> EventBuffer {
        EventBuffer(Vec::with_capacity(256))
    }
}

/// One event's formatted text, redacted as a whole and written when dropped (the
/// formatter writes an event in pieces; a secret may straddle two).
struct EventBuffer(Vec<u8>);

impl Write for EventBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for EventBuffer {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.0);
        let _ = std::io::stderr().write_all(redactor().redact(&text).as_bytes());
    }
}
