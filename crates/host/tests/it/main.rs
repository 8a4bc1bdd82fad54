//! The host's integration tests: one binary, real headless Chromium.

mod adversarial;
mod backpressure;
mod chaining;
mod common;
mod desktop;
mod desktop_screenshot;
mod dialogs;
mod fault;
mod load;
mod mcp_open;
mod mcp_wire;
mod model;
#[path = "../../../policy/tests/it/common/model_server.rs"]
mod model_server;
mod navigation;
mod observe;
mod points;
mod protocol;
mod run_options;
mod secrets;
mod side_doors;
mod socket;
mod tabs;
mod uploads;
mod view_memo;
