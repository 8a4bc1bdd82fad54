//! `arc-cua mcp`: the host's session core as MCP tools, on the official Rust SDK (`rmcp`,
//! stdio). One server = one host connection, with a session on the target it started on
//! (a page, a blank tab `open` loads what the grants allow, or a desktop window) and one
//! more on each tab that page opened the client switches to, all with the grants the
//! command line gave. Tool and argument names follow the reference Python server
//! (`status`, `apps`, `windows`, `observe`, `act`, `settle`, `wait`, `screenshot`,
//! `press`, …) plus `targets`, `open`, `tabs`, `switch_tab`, `find` and `run_subtask`;
//! docs/MCP.md lists them.

mod action;
mod params;
mod reply;
mod server;
mod wire;

pub use server::McpServer;
