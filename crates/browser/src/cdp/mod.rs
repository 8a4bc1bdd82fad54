//! A thin, typed Chrome DevTools Protocol client.
//!
//! * [`Connection`] owns one transport — a websocket (`--cdp ws://…`) or the debugging
//!   pipe of a browser we launched: calls are matched to replies by id, events are
//!   fanned out to subscribers. Flat sessions are used: a page is addressed by passing its
//!   [`SessionId`] to [`Connection::call`] (see `Target.attachToTarget{flatten:true}`).
//! * [`Method`] ties a params struct to its CDP name and reply type; the structs live in
//!   [`methods`], one module per domain (`methods::page::Navigate`, ...).
//! * [`Event`] is a raw event; [`EventType`] structs in [`events`] parse it.
//!
//! Only the methods arc-cua uses are typed. Anything else can go through
//! [`Connection::call_raw`] with a `serde_json::Value`.

mod connection;
pub mod events;
pub mod methods;
mod pipe;
mod types;
mod websocket;

pub use crate::error::CdpError;
pub use connection::{Connection, ConnectionOptions, SessionFilter, MAX_MESSAGE_SIZE};
pub use events::{Event, EventType};
pub use types::*;

use serde::de::DeserializeOwned;
use serde::Serialize;

/// A CDP command: `Self` is the params object (serialized as-is), `Returns` the reply.
///
/// Reply structs never deny unknown fields: Chromium adds fields between releases.
pub trait Method: Serialize {
    /// The wire name, e.g. `"Page.navigate"`.
    const NAME: &'static str;
    /// The `result` object of the reply.
    type Returns: DeserializeOwned;
}

/// The reply of commands that return nothing (`{}`); any fields are ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
pub struct Empty {}

/// Implements [`Method`] for a params struct.
macro_rules! cdp_method {
    ($ty:ty, $name:literal, $ret:ty) => {
        impl $crate::cdp::Method for $ty {
            const NAME: &'static str = $name;
            type Returns = $ret;
        }
    };
}
pub(crate) use cdp_method;
