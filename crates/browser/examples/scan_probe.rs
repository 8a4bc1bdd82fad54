//! Viewport scan vs. `Accessibility.getFullAXTree`, per page: medians over 10 runs.
//!
//! ```text
//! cargo run --release -p arc-browser --example scan_probe -- ROOT PAGE... [--view]
//! cargo run --release -p arc-browser --example scan_probe -- \
//!     "$(dirname "$(rustup doc --path)")" std/vec/struct.Vec.html std/index.html
//! ```
//! `--view` also prints the pruned scan as a policy would see it. `--backend` runs on a
//! `BrowserBackend`'s page (Accessibility, DOM, Network, Runtime enabled, as in a run)
//! instead of a bare page (only Page enabled).

use arc_browser::backend::prune::Pruner;
use arc_browser::backend::raw::NodeHandle;
use arc_browser::backend::scan::{scan, ScanOptions, ScanResult};
use arc_browser::backend::world::Worlds;
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::cdp::methods::{accessibility::GetFullAxTree, page::GetFrameTree};
use arc_browser::{Browser, Chromium, LaunchOptions, PageSession, StaticServer};
use arc_core::{ElementId, Snapshot};
use arc_view::{render, ViewOptions};
use std::time::{Duration, Instant};

const RUNS: usize = 10;

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let view = args.iter().any(|a| a == "--view");
    let with_backend = args.iter().any(|a| a == "--backend");
    let mut args = args.into_iter().filter(|a| !a.starts_with("--"));
    let root = args
        .next()
        .expect("usage: scan_probe ROOT PAGE... [--view]");
    let pages: Vec<String> = args.collect();
    assert!(!pages.is_empty(), "usage: scan_probe ROOT PAGE... [--view]");
    let server = StaticServer::start(&root).await.expect("serves ROOT");
    let mut target = Target::start(with_backend).await;
    println!(
        "{:<40} {:>9} {:>9} {:>8} {:>9} {:>9} {:>9} {:>10} {:>9}",
        "page",
        "scan p50",
        "scan max",
        "records",
        "JSON",
        "elements",
        "left out",
        "AX p50",
        "AX nodes"
    );
    for name in &pages {
        let page = target.goto(&server.url(name)).await;
        let top = page.call(GetFrameTree {}).await.unwrap().frame_tree.frame;
        let mut worlds = Worlds::default();
        let opts = ScanOptions::default();
        let mut last: Option<ScanResult> = None;
        let mut times = Vec::new();
        // One extra, unmeasured run: it creates the world and installs the helpers.
        for run in 0..=RUNS {
            let t = Instant::now();
            let r = scan(page, &mut worlds, &top.id, &top.loader_id, &opts)
                .await
                .expect("scan");
            if run > 0 {
                times.push(t.elapsed());
            }
            last = Some(r);
        }
        if std::env::var_os("SCAN_PROBE_TIMES").is_some() {
            eprintln!(
                "{name}: {:?}",
                times.iter().map(|t| t.as_millis()).collect::<Vec<_>>()
            );
        }
        let r = last.expect("ran");
        let scan_max = times.iter().max().unwrap().as_secs_f64() * 1000.0;
        let scan_p50 = median(times);
        let mut ax_times = Vec::new();
        let mut ax_nodes = 0;
        for _ in 0..RUNS {
            let t = Instant::now();
            let tree = page
                .call_with_timeout(GetFullAxTree::default(), Duration::from_secs(60))
                .await
                .expect("getFullAXTree");
            ax_times.push(t.elapsed());
            ax_nodes = tree.nodes.len();
        }
        println!(
            "{:<40} {:>6.1} ms {:>6.1} ms {:>8} {:>6} KB {:>9} {:>9} {:>7.0} ms {:>9}",
            name,
            scan_p50,
            scan_max,
            r.tree.nodes.len(),
            r.json_bytes / 1024,
            r.elements,
            r.left_out,
            median(ax_times),
            ax_nodes
        );
        if view {
            let elements = Pruner::new(&r.tree, |h| match h {
                NodeHandle::Scan { key, .. } => ElementId(format!("k{key}")),
                NodeHandle::Backend { node, .. } => ElementId(format!("b{}", node.0)),
            })
            .run();
            let title = elements.first().map(|e| e.name.clone()).unwrap_or_default();
            let mut snapshot = Snapshot::new("Chromium", title, elements);
            snapshot.viewport = Some(r.viewport);
            println!("{}", render(&snapshot, &ViewOptions::default()).text);
        }
    }
    target.close().await;
}

/// Where the pages open: a backend's page, or bare pages of a launched Chromium.
struct Target {
    backend: Option<BrowserBackend>,
    bare: Option<(Chromium, Browser)>,
    page: Option<PageSession>,
}

impl Target {
    async fn start(with_backend: bool) -> Target {
        if with_backend {
            let backend = BrowserBackend::start(BrowserOptions::default(), "about:blank")
                .await
                .expect("Chromium");
            return Target {
                backend: Some(backend),
                bare: None,
                page: None,
            };
        }
        let chromium = Chromium::launch(LaunchOptions::default())
            .await
            .expect("Chromium");
        let browser = chromium.connect().await.expect("connects");
        Target {
            backend: None,
            bare: Some((chromium, browser)),
            page: None,
        }
    }

    async fn goto(&mut self, url: &str) -> &PageSession {
        if let Some(b) = &mut self.backend {
            b.goto(url).await.expect("navigates");
            return b.page();
        }
        let (_, browser) = self.bare.as_ref().expect("a browser");
        if let Some(old) = self.page.take() {
            let _ = old.close().await;
        }
        self.page
            .insert(browser.new_page(url).await.expect("opens"))
    }

    async fn close(self) {
        if let Some(b) = self.backend {
            b.close().await;
        }
        if let Some((chromium, _)) = self.bare {
            let _ = chromium.close().await;
        }
    }
}
