//! `arc-cua bench host`: the host's figures from issue 10, end to end. The real binary
//! serves `host --socket` as a child process; this process is its client: `ping` round
//! trips, then sessions opened (each a new tab on one page) and observed once each,
//! then the host's own resident memory read from `/proc` (Chromium is another process
//! tree and not counted). The child and its browser are always ended, and checked gone.

mod child;
mod client;

use super::bench::percentile;
use crate::exit::{Exit, Failure};
use crate::target::{fixture_site, serve, serve_file, Served};
use arc_host::protocol::{
    Empty, HelloParams, HelloResult, Method, Observation, ObserveParams, OpenSessionParams,
    OpenedSession, Pong, TargetSpec, PROTOCOL_VERSION,
};
use arc_host::{Grants, Limits};
use child::{left_in_groups, HostChild};
use clap::Args;
use client::Client;
use serde::Serialize;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

/// Issue 10's targets.
const TARGET_PING_P50_US: f64 = 100.0;
const TARGET_RSS_KB: u64 = 40 * 1024;
/// The host's socket appears once its browser is up.
const START_BOUND: Duration = Duration::from_secs(60);
const PING_BOUND: Duration = Duration::from_secs(5);
const SESSION_BOUND: Duration = Duration::from_secs(60);
const STOP_GRACE: Duration = Duration::from_secs(10);
/// The fixture page sessions open when `--page` is not given.
const DEFAULT_PAGE: &str = "form.html";

/// Measure the host against issue 10's targets: `ping` p50 ≤ 100 µs on the socket, and
/// the host's RSS ≤ 40 MB with 16 open sessions (Chromium's memory not counted).
///
/// Starts this binary as `arc-cua host --socket <temp dir>/host.sock` (a child process
/// with its own headless Chromium), says hello, times `--pings` sequential pings (client
/// round trip, after a warm-up), opens `--sessions` sessions on `--page` (each a new
/// tab, `allow_launch`), observes each once, and reads VmRSS / VmHWM / Threads from
/// /proc/<host pid>/status. Then stops the host (SIGTERM) and checks that it and its
/// browser are gone. Figures from a debug build are not the release figures.
#[derive(Args)]
pub struct HostBench {
    /// Sessions to open and observe (1 to the host's sessions per connection, 16).
    #[arg(long, default_value_t = 16)]
    sessions: usize,
    /// Timed pings (after a warm-up of a tenth as many, at least 10).
    #[arg(long, default_value_t = 2000)]
    pings: usize,
    /// The page each session opens: an http(s) URL or a local HTML file (served on
    /// 127.0.0.1). Default: the fixture site's form.html.
    #[arg(long)]
    page: Option<String>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    /// `debug` or `release`: the build that was measured.
    build: &'static str,
    host_pid: u32,
    /// 1-minute load average when the bench ended (other work on the machine).
    load_1m: f64,
    page: String,
    pings: usize,
    ping_p50_us: f64,
    ping_p95_us: f64,
    ping_p99_us: f64,
    ping_max_us: f64,
    sessions: usize,
    open_session_p50_ms: f64,
    observe_p50_ms: f64,
    observe_tokens_max: usize,
    /// After hello, before any session.
    rss_idle_kb: u64,
    /// With every session open and observed once.
    rss_sessions_kb: u64,
    /// Of `rss_sessions_kb`: anonymous (heap, stacks) and file-backed (the binary's
    /// pages, the tokenizer's tables).
    rss_sessions_anon_kb: u64,
    rss_sessions_file_kb: u64,
    /// Peak RSS over the host's life so far.
    hwm_kb: u64,
    threads: u64,
    ping_p50_target_us: f64,
    rss_target_kb: u64,
    ping_p50_met: bool,
    rss_met: bool,
    /// How the host ended (it is stopped with SIGTERM).
    host_exit: String,
    /// Processes of the host's browser still alive after it ended (should be 0).
    browser_processes_left: usize,
}

pub async fn run(args: HostBench) -> Result<Exit, Failure> {
    let max_sessions = Limits::default().sessions_per_connection;
    if args.sessions == 0 || args.sessions > max_sessions {
        return Err((
            Exit::BadInput,
            format!(
                "--sessions must be 1–{max_sessions} (the host's sessions_per_connection); got {}",
                args.sessions
            ),
        ));
    }
    if args.pings == 0 {
        return Err((Exit::BadInput, "--pings must be at least 1".into()));
    }
    let served = match &args.page {
        Some(page) => serve(page).await?,
        None => serve_file(&fixture_site().join(DEFAULT_PAGE)).await?,
    };
    if !served.url.starts_with("http://") && !served.url.starts_with("https://") {
        return Err((
            Exit::BadInput,
            format!(
                "--page {}: sessions open http(s) pages only; give a local file path instead",
                served.url
            ),
        ));
    }
    let dir = tempfile::Builder::new()
        .prefix("arc-cua-bench-")
        .tempdir()
        .map_err(|e| {
            (
                Exit::Environment,
                format!("cannot create a socket directory: {e}"),
            )
        })?;
    // The host binds only in a directory closed to everyone else.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .map_err(|e| (Exit::Environment, format!("{}: {e}", dir.path().display())))?;
    let socket = dir.path().join("host.sock");
    let mut host = HostChild::spawn(&socket).map_err(|e| (Exit::Environment, e))?;
    let measured = measure(&args, &served, &socket, &mut host).await;
    // Whatever happened: the host and its browser end here, and are checked gone.
    let groups = host.child_groups();
    let host_exit = tokio::task::block_in_place(|| host.stop(STOP_GRACE));
    let left = tokio::task::block_in_place(|| left_in_groups(&groups, STOP_GRACE));
    let mut m = measured.map_err(|e| {
        let tail = host.stderr_tail();
        let tail = if tail.is_empty() {
            String::new()
        } else {
            format!("\nthe host's stderr:\n{tail}")
        };
        (Exit::Environment, format!("{e}{tail}"))
    })?;
    m.host_exit = host_exit;
    m.browser_processes_left = left;
    m.load_1m = load_1m();
    print(&m, args.json)?;
    if left > 0 {
        return Err((
            Exit::Environment,
            format!("{left} processes of the host's browser outlived it (groups {groups:?})"),
        ));
    }
    Ok(Exit::Ok)
}

async fn measure(
    args: &HostBench,
    served: &Served,
    socket: &Path,
    host: &mut HostChild,
) -> Result<Report, String> {
    let mut client = connect(socket, host).await?;
    let hello: HelloResult = client
        .call(
            Method::Hello,
            &HelloParams {
                protocol_version: PROTOCOL_VERSION,
                client_name: "arc-cua bench host".into(),
            },
            SESSION_BOUND,
        )
        .await?;
    if hello.limits.sessions_per_connection < args.sessions {
        return Err(format!(
            "the host allows {} sessions per connection; --sessions is {}",
            hello.limits.sessions_per_connection, args.sessions
        ));
    }
    let warm_up = (args.pings / 10).max(10);
    for _ in 0..warm_up {
        ping(&mut client).await?;
    }
    let mut rtt_us = Vec::with_capacity(args.pings);
    for _ in 0..args.pings {
        let started = Instant::now();
        ping(&mut client).await?;
        rtt_us.push(started.elapsed().as_secs_f64() * 1e6);
    }
    rtt_us.sort_by(f64::total_cmp);
    let idle = host.status()?;

    let grants = Grants {
        allow_launch: true,
        ..Grants::default()
    };
    let mut opened = Vec::with_capacity(args.sessions);
    let mut open_ms = Vec::with_capacity(args.sessions);
    for i in 0..args.sessions {
        let started = Instant::now();
        let s: OpenedSession = client
            .call(
                Method::OpenSession,
                &OpenSessionParams {
                    grants: grants.clone(),
                    target: TargetSpec {
                        target_id: None,
                        url: Some(served.url.clone()),
                    },
                },
                SESSION_BOUND,
            )
            .await
            .map_err(|e| format!("session {}/{}: {e}", i + 1, args.sessions))?;
        open_ms.push(started.elapsed().as_secs_f64() * 1e3);
        opened.push(s);
    }
    let mut observe_ms = Vec::with_capacity(opened.len());
    let mut tokens_max = 0;
    for s in &opened {
        let started = Instant::now();
        let o: Observation = client
            .call(
                Method::Observe,
                &ObserveParams {
                    session: s.session.clone(),
                    options: Default::default(),
                },
                SESSION_BOUND,
            )
            .await?;
        observe_ms.push(started.elapsed().as_secs_f64() * 1e3);
        tokens_max = tokens_max.max(o.tokens);
    }
    open_ms.sort_by(f64::total_cmp);
    observe_ms.sort_by(f64::total_cmp);
    let with_sessions = host.status()?;
    // Still serving after all that.
    ping(&mut client).await?;
    let p50 = percentile(&rtt_us, 0.50);
    Ok(Report {
        build: if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        host_pid: host.pid(),
        load_1m: 0.0,
        page: served.url.clone(),
        pings: args.pings,
        ping_p50_us: p50,
        ping_p95_us: percentile(&rtt_us, 0.95),
        ping_p99_us: percentile(&rtt_us, 0.99),
        ping_max_us: rtt_us.last().copied().unwrap_or_default(),
        sessions: args.sessions,
        open_session_p50_ms: percentile(&open_ms, 0.50),
        observe_p50_ms: percentile(&observe_ms, 0.50),
        observe_tokens_max: tokens_max,
        rss_idle_kb: idle.rss_kb,
        rss_sessions_kb: with_sessions.rss_kb,
        rss_sessions_anon_kb: with_sessions.anon_kb,
        rss_sessions_file_kb: with_sessions.file_kb,
        hwm_kb: with_sessions.hwm_kb,
        threads: with_sessions.threads,
        ping_p50_target_us: TARGET_PING_P50_US,
        rss_target_kb: TARGET_RSS_KB,
        ping_p50_met: p50 <= TARGET_PING_P50_US,
        rss_met: with_sessions.rss_kb <= TARGET_RSS_KB,
        host_exit: String::new(),
        browser_processes_left: 0,
    })
}

/// Connects once the host serves its socket, or says why it never did.
async fn connect(socket: &Path, host: &mut HostChild) -> Result<Client, String> {
    let start = Instant::now();
    loop {
        if let Some(status) = host.exited() {
            return Err(format!("the host exited before serving ({status})"));
        }
        if socket.exists() {
            if let Ok(c) = Client::connect(socket).await {
                return Ok(c);
            }
        }
        if start.elapsed() > START_BOUND {
            return Err(format!(
                "the host did not serve {} within {} s",
                socket.display(),
                START_BOUND.as_secs()
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn ping(client: &mut Client) -> Result<(), String> {
    let pong: Pong = client.call(Method::Ping, &Empty {}, PING_BOUND).await?;
    if !pong.pong {
        return Err("ping: pong is false".into());
    }
    Ok(())
}

fn load_1m() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

fn print(r: &Report, json: bool) -> Result<(), Failure> {
    if json {
        return crate::out::json_line(r);
    }
    let mark = |met: bool| if met { "met" } else { "MISSED" };
    let mb = |kb: u64| kb as f64 / 1024.0;
    crate::outln!(
        "host bench ({} build, load {:.2}, host pid {})",
        r.build,
        r.load_1m,
        r.host_pid
    )?;
    crate::outln!("{:<34} {:>12} {:>12}", "figure", "measured", "target")?;
    crate::outln!(
        "{:<34} {:>9.1} µs {:>9.0} µs  {}",
        format!("ping p50 ({} pings)", r.pings),
        r.ping_p50_us,
        r.ping_p50_target_us,
        mark(r.ping_p50_met)
    )?;
    crate::outln!("{:<34} {:>9.1} µs", "ping p95", r.ping_p95_us)?;
    crate::outln!("{:<34} {:>9.1} µs", "ping p99", r.ping_p99_us)?;
    crate::outln!("{:<34} {:>9.1} MB", "host RSS, idle", mb(r.rss_idle_kb))?;
    crate::outln!(
        "{:<34} {:>9.1} MB {:>9.1} MB  {}",
        format!("host RSS, {} sessions", r.sessions),
        mb(r.rss_sessions_kb),
        mb(r.rss_target_kb),
        mark(r.rss_met)
    )?;
    crate::outln!(
        "{:<34} {:>9.1} MB",
        "  of which anonymous (heap, stacks)",
        mb(r.rss_sessions_anon_kb)
    )?;
    crate::outln!(
        "{:<34} {:>9.1} MB",
        "  of which file-backed (binary)",
        mb(r.rss_sessions_file_kb)
    )?;
    crate::outln!("{:<34} {:>9.1} MB", "host RSS peak (VmHWM)", mb(r.hwm_kb))?;
    crate::outln!("{:<34} {:>12}", "host threads", r.threads)?;
    crate::outln!(
        "{:<34} {:>9.1} ms",
        "open_session p50",
        r.open_session_p50_ms
    )?;
    crate::outln!("{:<34} {:>9.1} ms", "observe p50", r.observe_p50_ms)?;
    crate::outln!("{:<34} {:>12}", "observe tokens, max", r.observe_tokens_max)?;
    crate::outln!("{:<34} {:>12}", "host exit", r.host_exit)?;
    crate::outln!(
        "{:<34} {:>12}",
        "browser processes left",
        r.browser_processes_left
    )?;
    Ok(())
}
