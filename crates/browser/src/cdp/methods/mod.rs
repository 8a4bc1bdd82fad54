//! Typed CDP commands, one module per domain. Params structs serialize in camelCase and
//! omit `None` fields; reply structs default what Chromium may omit and ignore fields
//! they do not know. Build params with struct literals (`..Default::default()` where the
//! struct has optional fields) or the constructors provided.

pub mod accessibility;
pub mod browser;
pub mod dom;
pub mod dom_snapshot;
pub mod emulation;
pub mod fetch;
pub mod input;
pub mod inspector;
pub mod network;
pub mod page;
pub mod runtime;
pub mod storage;
pub mod target;
