//! The wire types both transports and the MCP layer share: the envelope, the methods,
//! each method's typed params and result, and the errors.
//!
//! A request is `{"request_id"?, "method", "params"?}`; a response is
//! `{"request_id"?, "ok": true, "result"}` or `{"request_id"?, "ok": false, "error"}`,
//! the `request_id` echoed either way; `run_subtask` streams `{"request_id"?, "event"}`
//! lines before its response. Parsing is in two stages (envelope, then the method's
//! params) so an error in the params still echoes the request id and names the field.

mod action;
mod envelope;
mod error;
mod types;

pub use action::HostAction;
pub(crate) use action::LITERAL_KEY;
pub use envelope::{parse_params, Envelope, Method, RequestId, Response};
pub use error::{ErrorCode, HostError, LimitName};
pub use types::*;

/// The protocol version `hello` negotiates.
pub const PROTOCOL_VERSION: u32 = 1;
