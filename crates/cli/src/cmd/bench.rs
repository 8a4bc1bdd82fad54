use crate::browser_args::BrowserArgs;
use crate::exit::{Exit, Failure};
use crate::target::serve;
use arc_browser::backend::BrowserBackend;
use arc_core::{Backend, ObservationScope};
use arc_view::{render, ViewOptions};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchKind,
}

#[derive(Subcommand)]
enum BenchKind {
    /// Observation cost per page: observe p50/p95, elements, compact-view tokens, and the
    /// scope each observation reported.
    Observe(ObserveBench),
    /// `observe` through `arc-cua mcp` against Playwright MCP's `browser_snapshot`, over
    /// one stock MCP client: p50/p95 ms, o200k tokens and the p50 ratio, per page.
    Mcp(super::bench_mcp::McpBench),
    /// The host's figures (issue 10): socket `ping` p50/p95/p99 and the host's own RSS
    /// with N sessions open, against a real `arc-cua host --socket` child process.
    Host(super::bench_host::HostBench),
    /// OCR latency p50/p95 on a desktop window (`--app`/`--pid`) or a PNG (`--image`).
    Ocr(super::bench_ocr::OcrBench),
    /// Per-step observe / decide / execute / settle time (p50, p95) on the fixture site's
    /// tasks and MiniWoB++ click/form episodes, with the reflex policy.
    Steps(super::bench_steps::StepsBench),
    /// What a model step costs on a page: decision and judgment p50/p95 and tokens per
    /// call, beside the reflex on the same snapshot (`--model`, `--model-base-url`).
    Model(super::bench_model::ModelBench),
}

#[derive(Args)]
struct ObserveBench {
    /// URLs or local HTML files (served on 127.0.0.1).
    #[arg(required = true)]
    targets: Vec<String>,
    /// Observations per page (after one warm-up).
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Token budget of the compact view.
    #[arg(long, default_value_t = 1200)]
    budget: usize,
    /// Print the rows as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Make every timed observation a fresh scan: before each one (untimed), the page
    /// gets a synthetic `resize` event, which marks it changed. Without, an unchanged page
    /// is answered from the last scan, as in a run.
    #[arg(long, conflicts_with = "asked")]
    fresh: bool,
    /// Make every timed observation ask the page: before each one (untimed), a no-op
    /// `Runtime.evaluate` crosses the page's session, which ends a watched answer. Without,
    /// a quiet page's watched answer is shown again unasked.
    #[arg(long)]
    asked: bool,
    #[command(flatten)]
    browser: BrowserArgs,
}

#[derive(Serialize)]
struct Row {
    page: String,
    runs: usize,
    observe_p50_ms: f64,
    observe_p95_ms: f64,
    observe_max_ms: f64,
    elements: usize,
    view_tokens: usize,
    truncated: bool,
    /// The scope each timed observation reported (`full`: the whole page was read).
    scopes: BTreeMap<&'static str, usize>,
    /// Timed observations the page answered "unchanged" (the last scan shown again).
    reused: u64,
    /// Of those, answered without asking the page (watched, `backend/watch.rs`).
    unasked: u64,
}

pub async fn run(args: BenchArgs) -> Result<Exit, Failure> {
    match args.what {
        BenchKind::Observe(b) => observe(b).await,
        BenchKind::Mcp(b) => super::bench_mcp::run(b).await,
        BenchKind::Host(b) => super::bench_host::run(b).await,
        BenchKind::Ocr(b) => super::bench_ocr::run(b).await,
        BenchKind::Steps(b) => super::bench_steps::run(b).await,
        BenchKind::Model(b) => super::bench_model::run(b).await,
    }
}

async fn observe(args: ObserveBench) -> Result<Exit, Failure> {
    if args.runs == 0 {
        return Err((Exit::BadInput, "--runs must be at least 1".into()));
    }
    let mut backend: Option<BrowserBackend> = None;
    let mut rows = Vec::new();
    for (i, target) in args.targets.iter().enumerate() {
        let served = serve(target).await?;
        eprintln!("[{}/{}] {}", i + 1, args.targets.len(), served.url);
        let b = match backend.as_mut() {
            Some(b) => {
                b.goto(&served.url)
                    .await
                    .map_err(|e| (Exit::Environment, format!("{}: {e}", served.url)))?;
                b
            }
            None => backend.insert(
                BrowserBackend::start(args.browser.options(), &served.url)
                    .await
                    .map_err(|e| (Exit::Environment, format!("cannot start Chromium: {e}")))?,
            ),
        };
        let env = |e: arc_core::BackendError| (Exit::Environment, format!("{}: {e}", served.url));
        let warm = b.observe().await.map_err(env)?;
        let mut times = Vec::with_capacity(args.runs);
        let mut last = warm;
        let mut scopes = BTreeMap::new();
        let reused_before = b.reused_observations();
        let unasked_before = b.unasked_observations();
        for _ in 0..args.runs {
            let untimed = match (args.fresh, args.asked) {
                (true, _) => Some("window.dispatchEvent(new Event('resize'))"),
                (_, true) => Some("0"),
                _ => None,
            };
            if let Some(expression) = untimed {
                b.page()
                    .evaluate(expression)
                    .await
                    .map_err(|e| (Exit::Environment, format!("{}: {e}", served.url)))?;
            }
            let started = Instant::now();
            last = b.observe().await.map_err(env)?;
            times.push(started.elapsed().as_secs_f64() * 1e3);
            let scope = match last.facts.scope {
                Some(ObservationScope::Full) => "full",
                Some(ObservationScope::Viewport) => "viewport",
                None => "unknown",
            };
            *scopes.entry(scope).or_default() += 1;
        }
        times.sort_by(f64::total_cmp);
        let view = render(
            &last,
            &ViewOptions {
                budget_tokens: args.budget,
                ..Default::default()
            },
        );
        rows.push(Row {
            page: target.clone(),
            runs: args.runs,
            observe_p50_ms: percentile(&times, 0.50),
            observe_p95_ms: percentile(&times, 0.95),
            observe_max_ms: times.last().copied().unwrap_or_default(),
            elements: last.elements.len(),
            view_tokens: view.tokens,
            truncated: view.truncated,
            scopes,
            reused: b.reused_observations() - reused_before,
            unasked: b.unasked_observations() - unasked_before,
        });
    }
    if let Some(b) = backend {
        b.close().await;
    }
    if args.json {
        crate::out::json_line(&rows)?;
    } else {
        crate::outln!(
            "{:<48} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7}  scope",
            "page",
            "p50 ms",
            "p95 ms",
            "elements",
            "tokens",
            "trunc",
            "reused",
            "unasked"
        )?;
        for r in &rows {
            let scopes: Vec<String> = r.scopes.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
            crate::outln!(
                "{:<48} {:>9.2} {:>9.2} {:>9} {:>9} {:>7} {:>7} {:>7}  {}",
                r.page,
                r.observe_p50_ms,
                r.observe_p95_ms,
                r.elements,
                r.view_tokens,
                r.truncated,
                r.reused,
                r.unasked,
                scopes.join(", ")
            )?;
        }
    }
    Ok(Exit::Ok)
}

/// Nearest-rank percentile of sorted samples.
pub(super) fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}
