//! The host's integration tests: one binary, real headless Chromium.

mod adversarial;
mod chaining;
mod common;
mod protocol;
