//! The integration tests of this crate, one binary (one link step) for all of them.

mod common;

mod agreement;
mod apps;
mod assertions;
mod generalize;
mod judge;
mod mappers;
mod miniwob;
mod miniwob_report;
#[path = "../../../policy/tests/it/common/model_server.rs"]
mod model_server;
mod outcomes;
mod planner;
mod private_protocol;
mod role_names;
mod scorecard;
mod suite;
mod task_format;
mod truth;
