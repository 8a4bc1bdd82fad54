//! The host's integration tests: one binary, real headless Chromium.

mod common;
mod protocol;
