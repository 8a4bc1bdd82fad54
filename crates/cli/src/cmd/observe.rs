use crate::bound::{within, Bound};
use crate::browser_args::BrowserArgs;
use crate::exit::{Exit, Failure};
use crate::target::{serve, Served};
use arc_browser::backend::BrowserBackend;
use arc_core::{Backend, Snapshot};
use arc_view::{find, render, CompactView, FindQuery, ViewOptions};
use clap::Args;
use serde::Serialize;
use std::time::Instant;

#[derive(Args)]
pub struct ObserveArgs {
    /// A URL, or a local HTML file (served on 127.0.0.1).
    target: String,
    /// Token budget of the compact view (o200k_base tokens).
    #[arg(long, default_value_t = 1200)]
    budget: usize,
    /// Print JSON: the view, every element, and the timing.
    #[arg(long)]
    json: bool,
    /// Instead of the view, list the elements whose name or value contains this text
    /// (over the whole snapshot, including what the budget would drop).
    #[arg(long, value_name = "TEXT")]
    find: Option<String>,
    /// Wall-clock bound on launching Chromium, loading the page and observing it, in
    /// milliseconds (running out exits 3 naming the limit).
    #[arg(long)]
    timeout_ms: Option<u64>,
    #[command(flatten)]
    browser: BrowserArgs,
}

#[derive(Serialize)]
struct Observation<'a> {
    url: &'a str,
    observe_ms: f64,
    view: &'a CompactView,
    snapshot: &'a Snapshot,
}

pub async fn run(args: ObserveArgs) -> Result<Exit, Failure> {
    let bound = Bound::from_ms(args.timeout_ms);
    let doing = format!(
        "while launching Chromium, loading and observing {}",
        args.target
    );
    let (served, backend, snapshot, observe_ms) =
        within(bound, &doing, open_and_observe(&args)).await??;
    if let Some(text) = &args.find {
        let query = FindQuery {
            text: Some(text.clone()),
            role: None,
            limit: 50,
        };
        for hit in find(&snapshot, &query) {
            let place = if hit.context.is_empty() {
                "the page"
            } else {
                hit.context.as_str()
            };
            crate::outln!("{}    in {place}", hit.line.trim())?;
        }
        backend.close().await;
        return Ok(Exit::Ok);
    }
    let view = render(
        &snapshot,
        &ViewOptions {
            budget_tokens: args.budget,
            ..Default::default()
        },
    );
    if args.json {
        let out = Observation {
            url: &served.url,
            observe_ms,
            view: &view,
            snapshot: &snapshot,
        };
        crate::outln!(
            "{}",
            serde_json::to_string(&out).map_err(|e| (Exit::Environment, e.to_string()))?
        )?;
    } else {
        crate::outln!("{}", view.text)?;
        eprintln!(
            "# {} elements observed in {observe_ms:.1} ms; view {} tokens (budget {}){}",
            snapshot.elements.len(),
            view.tokens,
            args.budget,
            if view.truncated { ", truncated" } else { "" }
        );
    }
    backend.close().await;
    Ok(Exit::Ok)
}

/// Serves the target, opens it and observes it once (timing the observation).
async fn open_and_observe(
    args: &ObserveArgs,
) -> Result<(Served, BrowserBackend, Snapshot, f64), Failure> {
    let served = serve(&args.target).await?;
    let mut backend = BrowserBackend::start(args.browser.options(), &served.url)
        .await
        .map_err(|e| {
            (
                Exit::Environment,
                format!("cannot open {} in Chromium: {e}", served.url),
            )
        })?;
    let started = Instant::now();
    let snapshot = backend.observe().await.map_err(|e| match backend.lost() {
        Some(lost) => (Exit::from(lost), format!("{lost}: {e}")),
        None => (Exit::Environment, e.to_string()),
    })?;
    let observe_ms = started.elapsed().as_secs_f64() * 1e3;
    Ok((served, backend, snapshot, observe_ms))
}
