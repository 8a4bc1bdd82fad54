//! The integration tests of this crate, one binary (one link step) for all of them.

mod common;

mod agreement;
mod assertions;
mod generalize;
mod mappers;
mod miniwob;
mod miniwob_report;
mod outcomes;
mod planner;
mod private_protocol;
mod role_names;
mod scorecard;
mod suite;
mod task_format;
mod truth;
