//! The arc-cua host: a long-lived process that serves many agents on live pages.
//!
//! A [`Host`] holds one browser (or none) and reaches the desktop's accessibility bus.
//! A client says `hello` and gets a [`Connection`]; on it it opens sessions, each bound
//! to exactly one target — a browser page or a desktop window — with explicit [`Grants`],
//! and observes, finds, waits, acts and runs subtasks there. Invariants:
//! * no request widens a session's target (other tabs are neither shown nor switched to);
//! * every mutation cites the session's latest observation, once (`stale_observation`);
//! * grants default to false; every input is bounded ([`Limits`]);
//! * a page session stays on its origins (`confine`): its page never leaves them, and
//!   nothing is done on a page that is off them;
//! * physical input from all sessions goes through one FIFO;
//! * every dispatch is journaled, and an unknown outcome is reported, never retried;
//! * password values and learned secrets never leave the host.
//!
//! Transports ([`transport`]) speak the [`protocol`] over JSON lines (stdio) or
//! length-prefixed frames (a Unix socket); the MCP server calls the typed methods.

mod act;
mod confine;
mod connection;
pub mod desktop;
pub mod dispatch;
pub mod grants;
mod guarded;
mod host;
pub mod input_fifo;
pub mod journal;
mod landing;
pub mod limits;
pub mod mcp;
mod new_tab;
mod observation;
pub mod outbox;
mod point;
pub mod protocol;
mod query;
mod run;
mod screenshot;
mod secret;
mod session;
mod target;
pub mod transport;
mod view_memo;

pub use connection::Connection;
pub use desktop::DesktopAccess;
pub use grants::Grants;
pub use host::{Host, SERVER_NAME};
pub use journal::{JournalEntry, JournalState};
pub use limits::Limits;
