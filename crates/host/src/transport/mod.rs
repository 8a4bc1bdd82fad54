//! The transports: JSON lines on stdio, u32 big-endian length-prefixed JSON frames on a
//! Unix socket. One loop serves a connection on either (`serve`): `hello` first within
//! its deadline, then requests concurrently (answered by `request_id`), a malformed or
//! oversized frame refused and the connection closed, and on the way out the
//! connection's sessions stopped.

pub mod endpoint;
mod frame;
mod serve;
pub mod socket;
pub mod stdio;

pub use frame::{read_frame, skip_line, write_frame, FrameError, Framing};
pub use serve::serve;
