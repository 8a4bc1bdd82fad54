//! `arc-cua`: run, validate and demo bounded UI subtasks.

mod bound;
mod browser_args;
mod cmd;
mod desktop_args;
mod exit;
mod input;
mod log;
mod ocr_args;
mod ocr_env;
mod out;
mod policy_args;
mod progress;
mod run_args;
mod session_args;
mod signals;
mod target;

use clap::{Parser, Subcommand};
use exit::Exit;
use std::process::ExitCode;

/// Hand a bounded UI subtask to a fast executor and get back a terminal status.
///
/// Exit codes: 0 SUBTASK_COMPLETE (or a valid payload), 1 any other terminal status
/// (a `--timeout-ms` that ran out during the run: NEEDS_AGENT, termination `timeout`),
/// 2 bad input (the error is on stderr), 3 the environment failed (a backend could not
/// start, `--timeout-ms` ran out before the run started, a local page was not served, a
/// trajectory could not be written, the browser died — the result line is still printed
/// when a run happened), 4 stdout was closed or unwritable (output dropped), 129/130/143
/// ended by SIGHUP/SIGINT/SIGTERM (the browser killed first; a first Ctrl-C during a run
/// still prints its result, a second one quits at once).
#[derive(Parser)]
#[command(name = "arc-cua", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a subtask (JSON on stdin or --file): one JSON line per step, then the result line.
    Run(cmd::run::RunArgs),
    /// Check a subtask payload and print it normalized.
    Validate(cmd::validate::ValidateArgs),
    /// Print a payload's JSON Schema: `schema subtask` (sentences or check objects in
    /// `verification`; docs/PLANNERS.md shows how a planner writes one).
    Schema(cmd::schema::SchemaArgs),
    /// Run a built-in subtask end to end and print each step with its timing.
    Demo(cmd::demo::DemoArgs),
    /// Open a page in headless Chromium (or bind a desktop app with --app/--pid) and print
    /// its compact view within a token budget.
    Observe(cmd::observe::ObserveArgs),
    /// Check what the backends need: the accessibility bus, the X display, Chromium.
    Doctor(cmd::doctor::DoctorArgs),
    /// Measure: `bench observe URL…` (observation p50/p95, tokens), `bench mcp` (against Playwright MCP),
    /// `bench host` (ping, host RSS).
    Bench(cmd::bench::BenchArgs),
    /// Auto-label a recorded trajectory (stuck and milestone labels, deterministic).
    Label(cmd::label::LabelArgs),
    /// Evaluate on benchmarks: `eval miniwob` (MiniWoB++ from PyPI, served on loopback).
    Eval(cmd::eval::EvalArgs),
    /// Serve agents on live pages over stdio (JSON lines) or a Unix socket (framed JSON).
    Host(cmd::host::HostArgs),
    /// Serve one page as MCP tools over stdio (observe, act, run_subtask, …); see --help.
    #[command(long_about = cmd::mcp::LONG_ABOUT)]
    Mcp(cmd::mcp::McpArgs),
}

fn main() -> ExitCode {
    // Before anything else: OpenMP reads its thread limit when the process loads.
    ocr_env::single_thread_ocr();
    // First, before anything can launch a browser: a signal must find it registered.
    if let Err(e) = signals::install() {
        return Exit::Environment.report(&format!("cannot install signal handlers: {e}"));
    }
    log::init();
    let cli = Cli::parse();
    // `mcp` serves one client's requests one at a time: on one thread each hop between
    // its tasks (stdio, rmcp's loop and handler, the CDP reader and writer) is a queue
    // push, not a wake of another worker — the larger share of a small page's observe
    // on a busy machine (docs/EVAL.md, issue 10). Every other command keeps the pool.
    let mut builder = match cli.command {
        Command::Mcp(_) => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return Exit::Environment.report(&format!("cannot start the async runtime: {e}")),
    };
    let outcome = runtime.block_on(async {
        match cli.command {
            Command::Run(args) => cmd::run::run(args).await,
            Command::Validate(args) => cmd::validate::run(args),
            Command::Schema(args) => cmd::schema::run(args),
            Command::Demo(args) => cmd::demo::run(args).await,
            Command::Observe(args) => cmd::observe::run(args).await,
            Command::Doctor(args) => cmd::doctor::run(args).await,
            Command::Bench(args) => cmd::bench::run(args).await,
            Command::Label(args) => cmd::label::run(args),
            Command::Eval(args) => cmd::eval::run(args).await,
            Command::Host(args) => cmd::host::run(args).await,
            Command::Mcp(args) => cmd::mcp::run(args).await,
        }
    });
    // A signal's cleanup killed the browser under us: let it exit with its code.
    signals::await_death();
    let code = match outcome {
        // A step line that could not be written is reported even if the command went on.
        Ok(_) if out::is_closed() => Exit::OutputClosed.report("stdout was closed; output dropped"),
        Ok(exit) => exit.code(),
        Err((exit, message)) => exit.report(&log::redactor().redact(&message)),
    };
    if signals::interrupted() {
        return ExitCode::from(signals::SignalExit::Interrupt as u8);
    }
    code
}
