//! The integration tests of this crate, one binary (one link step) for all of them.

#[path = "../../../model/tests/it/common/model_fixtures.rs"]
mod fixtures;
#[path = "common/local_model.rs"]
mod local_model;
#[path = "../../../reflex/tests/it/common/reflex_run.rs"]
mod reflex_browser;
#[path = "common/model_server.rs"]
mod server;

mod cache;
mod cascade;
mod cortex;
mod judge;
mod local_model_runs;
mod trajectory;
