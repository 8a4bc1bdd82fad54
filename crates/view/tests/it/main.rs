//! The integration tests of this crate, one binary (one link step) for all of them.

mod tokens;
mod view;
