//! The integration tests of this crate, one binary (one link step) for all of them.

#[path = "common/model_fixtures.rs"]
mod fixtures;
#[path = "../../../policy/tests/it/common/model_server.rs"]
mod server;

mod jev;
mod model;
