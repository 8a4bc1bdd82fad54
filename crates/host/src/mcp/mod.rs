//! `arc-cua mcp`: the host's session core as MCP tools, on the official Rust SDK (`rmcp`,
//! stdio). One server = one host connection = one session on one page, opened with the
//! grants the command line gave. Tool and argument names follow the reference Python
//! server (`status`, `observe`, `act`, `settle`, `wait`, `screenshot`, `press`) plus
//! `targets`, `find` and `run_subtask`; docs/MCP.md lists them.

mod action;
mod params;
mod reply;
mod server;
mod wire;

pub use server::McpServer;
