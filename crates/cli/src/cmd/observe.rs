use crate::bound::{within, Bound};
use crate::browser_args::BrowserArgs;
use crate::desktop_args::DesktopArgs;
use crate::exit::{Exit, Failure};
use crate::ocr_args::OcrArgs;
use crate::session_args::SessionArgs;
use crate::target::{serve, Served};
use arc_browser::backend::BrowserBackend;
use arc_core::{Backend, Snapshot};
use arc_view::{find, render, CompactView, FindQuery, ViewOptions};
use clap::Args;
use serde::Serialize;
use std::time::Instant;

#[derive(Args)]
pub struct ObserveArgs {
    /// A URL, or a local HTML file (served on 127.0.0.1); omitted with --app/--pid.
    #[arg(required_unless_present_any = ["app", "pid"], conflicts_with_all = ["app", "pid"])]
    target: Option<String>,
    /// Token budget of the compact view (o200k_base tokens).
    #[arg(long, default_value_t = 1200)]
    budget: usize,
    /// Print JSON: the view, every element, and the timing.
    #[arg(long)]
    json: bool,
    /// Instead of the view, list the elements whose name or value contains this text
    /// (over the whole page, including what the viewport and the budget would drop).
    #[arg(long, value_name = "TEXT")]
    find: Option<String>,
    /// Wall-clock bound on launching Chromium, loading the page and observing it, in
    /// milliseconds (running out exits 3 naming the limit).
    #[arg(long)]
    timeout_ms: Option<u64>,
    #[command(flatten)]
    browser: BrowserArgs,
    #[command(flatten)]
    session: SessionArgs,
    #[command(flatten)]
    desktop: DesktopArgs,
    #[command(flatten)]
    ocr: OcrArgs,
}

#[derive(Serialize)]
struct Observation<'a> {
    /// The page observed, or the desktop application (`atspi:NAME`).
    url: &'a str,
    observe_ms: f64,
    view: &'a CompactView,
    snapshot: &'a Snapshot,
}

/// What was opened: a served page in Chromium, or a desktop application.
enum Opened {
    Page(Served, Box<BrowserBackend>),
    App(String),
}

impl Opened {
    fn place(&self) -> &str {
        match self {
            Opened::Page(served, _) => &served.url,
            Opened::App(place) => place,
        }
    }

    async fn close(self) {
        if let Opened::Page(_, backend) = self {
            backend.close().await;
        }
    }
}

pub async fn run(args: ObserveArgs) -> Result<Exit, Failure> {
    let bound = Bound::from_ms(args.timeout_ms);
    let (opened, snapshot, observe_ms) = match &args.target {
        Some(target) => {
            let doing = format!("while launching Chromium, loading and observing {target}");
            let (served, backend, snapshot, ms) =
                within(bound, &doing, open_and_observe(&args, target)).await??;
            (Opened::Page(served, Box::new(backend)), snapshot, ms)
        }
        None => {
            let doing = "while binding and observing the desktop application";
            let (place, snapshot, ms) =
                within(bound, doing, observe_desktop(&args.desktop, args.ocr)).await??;
            (Opened::App(place), snapshot, ms)
        }
    };
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
        opened.close().await;
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
            url: opened.place(),
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
    opened.close().await;
    Ok(Exit::Ok)
}

/// Binds the desktop application and observes it once (timing the observation).
async fn observe_desktop(
    args: &DesktopArgs,
    ocr: OcrArgs,
) -> Result<(String, Snapshot, f64), Failure> {
    let mut backend = args.open(ocr.mode).await?;
    let place = format!("atspi:{}", backend.app().name);
    let started = Instant::now();
    let snapshot = backend
        .observe()
        .await
        .map_err(|e| (Exit::Environment, e.to_string()))?;
    Ok((place, snapshot, started.elapsed().as_secs_f64() * 1e3))
}

/// Serves the target, opens it and observes it once (timing the observation).
async fn open_and_observe(
    args: &ObserveArgs,
    target: &str,
) -> Result<(Served, BrowserBackend, Snapshot, f64), Failure> {
    let served = serve(target).await?;
    let mut options = args.browser.options();
    options.ocr = args.ocr.mode;
    args.session.apply(&mut options)?;
    let mut backend = BrowserBackend::start(options, &served.url)
        .await
        .map_err(|e| match e {
            // A profile or storage state the user named cannot be used as it is.
            e @ arc_browser::BrowserError::SessionFile { .. } => (Exit::BadInput, e.to_string()),
            e => (
                Exit::Environment,
                format!("cannot open {} in Chromium: {e}", served.url),
            ),
        })?;
    let started = Instant::now();
    // `--find` searches the whole page, as the host's `find` does; the view, the viewport.
    let observed = if args.find.is_some() {
        backend.observe_whole().await
    } else {
        backend.observe().await
    };
    let snapshot = observed.map_err(|e| match backend.lost() {
        Some(lost) => (Exit::from(lost), format!("{lost}: {e}")),
        None => (Exit::Environment, e.to_string()),
    })?;
    let observe_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut options = args.browser.options();
    args.session.apply(&mut options)?;
    args.session.save(backend.browser(), &options).await?;
    Ok((served, backend, snapshot, observe_ms))
}
