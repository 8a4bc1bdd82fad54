//! The integration tests of this crate, one binary (one link step) for all of them.

#[path = "../../../policy/tests/it/common/model_server.rs"]
mod server;

#[path = "../../../desktop/tests/it/common/mod.rs"]
mod desktop;

mod cli;
mod cli_bench_host;
mod cli_bench_steps;
mod cli_browser_death;
mod cli_desktop;
mod cli_dialog_on_load;
mod cli_hardening;
mod cli_host;
mod cli_mcp;
mod cli_miniwob;
mod cli_model;
mod cli_ray;
mod cli_redact;
mod cli_sandbox;
mod cli_second_look;
mod cli_session;
mod eval_import;
mod lifetime;
mod procs;
