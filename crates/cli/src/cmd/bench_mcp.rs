//! `arc-cua bench mcp`: `observe` through `arc-cua mcp` against Playwright MCP's
//! `browser_snapshot`, over one stock MCP client (the `mcp` Python package) on the same
//! pages served the same way, in one run: p50/p95 ms per call and the reply's o200k
//! tokens (one tokenizer, ours, for both replies).

use crate::exit::{Exit, Failure};
use arc_browser::StaticServer;
use clap::Args;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const VENV_SCRIPT: &str = include_str!("../../../../scripts/mcp-venv.sh");
const PLAYWRIGHT_SCRIPT: &str = include_str!("../../../../scripts/playwright-mcp.sh");
const CLIENT: &str = include_str!("../../../../scripts/mcp-bench-client.py");

/// Fixture pages (from the project's site) measured by default.
const FIXTURE_PAGES: [&str; 4] = ["form.html", "events.html", "signup.html", "table.html"];
/// Rust documentation pages (from `rustup doc --path`) measured by default: small,
/// medium and the largest (std's Vec: ~62,000 accessibility nodes).
const DOC_PAGES: [&str; 3] = [
    "std/index.html",
    "std/collections/struct.HashMap.html",
    "std/vec/struct.Vec.html",
];

#[derive(Args)]
pub struct McpBench {
    /// Timed calls per page and server (after one warm-up call each).
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// The Rust documentation's index.html (default: `rustup doc --path`).
    #[arg(long, value_name = "FILE")]
    rust_docs: Option<PathBuf>,
    /// Python with the `mcp` package (default: the venv scripts/mcp-venv.sh makes).
    #[arg(long, value_name = "PATH")]
    python: Option<PathBuf>,
    /// The playwright-mcp executable (default: installed by scripts/playwright-mcp.sh).
    #[arg(long, value_name = "PATH")]
    playwright_mcp: Option<PathBuf>,
    /// The Chromium both servers run (default: $ARC_CUA_CHROMIUM, then Debian's).
    #[arg(long, value_name = "PATH")]
    chromium: Option<PathBuf>,
    /// Print the rows as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ServerSpec {
    command: String,
    args: Vec<String>,
}

#[derive(Serialize)]
struct ClientConfig {
    runs: usize,
    timeout_s: u64,
    arc: ServerSpec,
    playwright: ServerSpec,
    pages: Vec<String>,
}

/// One line of the client's output.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Measured {
    server: String,
    page: String,
    ms: Vec<f64>,
    text: String,
}

#[derive(Serialize)]
struct Row {
    page: String,
    arc_p50_ms: f64,
    arc_p95_ms: f64,
    arc_tokens: usize,
    playwright_p50_ms: f64,
    playwright_p95_ms: f64,
    playwright_tokens: usize,
    /// arc p50 / Playwright p50.
    p50_ratio: f64,
}

pub async fn run(args: McpBench) -> Result<Exit, Failure> {
    if args.runs == 0 {
        return Err((Exit::BadInput, "--runs must be at least 1".into()));
    }
    let env = |what: &str, e: String| (Exit::Environment, format!("{what}: {e}"));
    let chromium = args
        .chromium
        .clone()
        .unwrap_or_else(|| arc_browser::LaunchOptions::default().resolved_executable());
    let docs_index = match &args.rust_docs {
        Some(p) => p.clone(),
        None => rust_docs()?,
    };
    let docs_root = docs_index.parent().ok_or_else(|| {
        (
            Exit::BadInput,
            format!("{}: no parent", docs_index.display()),
        )
    })?;
    let site = StaticServer::start(crate::target::fixture_site())
        .await
        .map_err(|e| env("cannot serve the fixture site", e.to_string()))?;
    let docs = StaticServer::start(docs_root)
        .await
        .map_err(|e| env("cannot serve the Rust docs", e.to_string()))?;
    let mut pages: Vec<String> = FIXTURE_PAGES.iter().map(|p| site.url(p)).collect();
    pages.extend(DOC_PAGES.iter().map(|p| docs.url(p)));

    let python = match args.python.clone() {
        Some(p) => p,
        None => PathBuf::from(script_output("mcp-venv", VENV_SCRIPT)?),
    };
    let playwright = match args.playwright_mcp.clone() {
        Some(p) => p,
        None => PathBuf::from(script_output("playwright-mcp", PLAYWRIGHT_SCRIPT)?),
    };
    let exe = std::env::current_exe().map_err(|e| env("cannot find arc-cua", e.to_string()))?;
    let config = ClientConfig {
        runs: args.runs,
        timeout_s: 120,
        arc: ServerSpec {
            command: exe.display().to_string(),
            args: vec![
                "mcp".into(),
                "--chromium".into(),
                chromium.display().to_string(),
            ],
        },
        playwright: ServerSpec {
            command: playwright.display().to_string(),
            args: vec![
                "--headless".into(),
                "--browser".into(),
                "chromium".into(),
                "--executable-path".into(),
                chromium.display().to_string(),
                "--isolated".into(),
            ],
        },
        pages,
    };
    // Playwright MCP writes its output files (logs, snapshots) under its working
    // directory: a scratch one, removed afterwards.
    let scratch = std::env::temp_dir().join(format!("arc-cua-bench-mcp-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| env("cannot make a scratch dir", e.to_string()))?;
    let measured = run_client(&python, &config, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let measured = measured?;
    let rows = rows(&config.pages, &measured)?;
    print(&rows, args.json)?;
    Ok(Exit::Ok)
}

/// `rustup doc --path`: the toolchain's documentation index.
fn rust_docs() -> Result<PathBuf, Failure> {
    let out = Command::new("rustup")
        .args(["doc", "--path"])
        .output()
        .map_err(|e| {
            (
                Exit::Environment,
                format!("cannot run rustup (or give --rust-docs): {e}"),
            )
        })?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !out.status.success() || !path.is_file() {
        return Err((
            Exit::Environment,
            "`rustup doc --path` gave no index.html: install the rust-docs component or give --rust-docs".into(),
        ));
    }
    Ok(path)
}

/// Runs one of the embedded set-up scripts and returns the path it prints.
fn script_output(name: &str, script: &str) -> Result<String, Failure> {
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(name)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| {
            (
                Exit::Environment,
                format!("cannot run bash for {name}: {e}"),
            )
        })?;
    if !out.status.success() {
        return Err((
            Exit::Environment,
            format!("{name} set-up failed ({})", out.status),
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn run_client(python: &Path, config: &ClientConfig, cwd: &Path) -> Result<Vec<Measured>, Failure> {
    use std::io::Write;
    let env = |what: &str, e: String| (Exit::Environment, format!("{what}: {e}"));
    eprintln!(
        "measuring {} pages × {} calls on each server…",
        config.pages.len(),
        config.runs
    );
    // The client's text as `-c`, its config on stdin: nothing written to disk.
    let mut child = Command::new(python)
        .arg("-c")
        .arg(CLIENT)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| env(&format!("cannot run {}", python.display()), e.to_string()))?;
    let json = serde_json::to_vec(config).map_err(|e| env("config", e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(&json)
            .map_err(|e| env("cannot send the config", e.to_string()))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| env("the MCP client", e.to_string()))?;
    if !out.status.success() {
        return Err((
            Exit::Environment,
            format!("the MCP client failed ({})", out.status),
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .map_err(|e| env("the client printed a bad line", e.to_string()))
        })
        .collect()
}

fn rows(pages: &[String], measured: &[Measured]) -> Result<Vec<Row>, Failure> {
    let find = |server: &str, page: &str| {
        measured
            .iter()
            .find(|m| m.server == server && m.page == page)
            .ok_or_else(|| {
                (
                    Exit::Environment,
                    format!("no {server} measurement for {page}"),
                )
            })
    };
    pages
        .iter()
        .map(|page| {
            let arc = find("arc-cua", page)?;
            let pw = find("playwright-mcp", page)?;
            let (a50, a95) = p50_p95(&arc.ms);
            let (p50, p95) = p50_p95(&pw.ms);
            Ok(Row {
                page: short(page),
                arc_p50_ms: a50,
                arc_p95_ms: a95,
                arc_tokens: arc_view::count_tokens(&arc.text),
                playwright_p50_ms: p50,
                playwright_p95_ms: p95,
                playwright_tokens: arc_view::count_tokens(&pw.text),
                p50_ratio: if p50 > 0.0 { a50 / p50 } else { f64::NAN },
            })
        })
        .collect()
}

/// The page's path without the server's random prefix: from `std/` on, else its name.
fn short(url: &str) -> String {
    match url.find("/std/") {
        Some(i) => url[i + 1..].to_owned(),
        None => url.rsplit('/').next().unwrap_or(url).to_owned(),
    }
}

fn p50_p95(ms: &[f64]) -> (f64, f64) {
    let mut sorted = ms.to_vec();
    sorted.sort_by(f64::total_cmp);
    (
        super::bench::percentile(&sorted, 0.50),
        super::bench::percentile(&sorted, 0.95),
    )
}

fn print(rows: &[Row], json: bool) -> Result<(), Failure> {
    if json {
        return crate::out::json_line(&rows);
    }
    crate::outln!(
        "{:<38} {:>9} {:>9} {:>7} {:>10} {:>10} {:>8} {:>7}",
        "page",
        "arc p50",
        "arc p95",
        "arc tok",
        "pw p50",
        "pw p95",
        "pw tok",
        "p50 ×"
    )?;
    for r in rows {
        crate::outln!(
            "{:<38} {:>9.1} {:>9.1} {:>7} {:>10.1} {:>10.1} {:>8} {:>7.3}",
            r.page,
            r.arc_p50_ms,
            r.arc_p95_ms,
            r.arc_tokens,
            r.playwright_p50_ms,
            r.playwright_p95_ms,
            r.playwright_tokens,
            r.p50_ratio
        )?;
    }
    Ok(())
}
