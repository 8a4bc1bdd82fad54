//! Measures CDP observation costs on real pages.
//!
//! ```text
//! cargo run --release -p arc-browser --example cdp_probe -- [--runs N] \
//!     --root fixtures/site signup.html table.html \
//!     --root "$(dirname "$(rustup doc --path)")" std/index.html
//! ```
//!
//! Each `--root DIR` starts a loopback static server; the paths after it are served from
//! it (full `http://` URLs are also accepted). Per page, after one navigation, each
//! measurement is repeated N times (default 5) and the median printed:
//! `Accessibility.getFullAXTree` (round trip, node count, reply bytes, typed parse),
//! `DOMSnapshot.captureSnapshot{computedStyles:[]}`, a `Runtime.evaluate` of
//! `document.querySelectorAll('*').length`, and `DOM.getBoxModel` on one node.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arc_browser::cdp::methods::{accessibility, dom, runtime};
use arc_browser::cdp::{BackendNodeId, CdpError};
use arc_browser::{Chromium, LaunchOptions, PageSession, StaticServer};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[derive(Default)]
struct Row {
    page: String,
    nav_ms: f64,
    ax_ms: Vec<f64>,
    ax_nodes: usize,
    ax_bytes: usize,
    ax_parse_ms: Vec<f64>,
    snapshot_ms: Vec<f64>,
    snapshot_bytes: usize,
    eval_ms: Vec<f64>,
    elements: i64,
    box_ms: Vec<f64>,
    box_node: String,
}

/// A node worth a box model: the first visible control or heading in the AX tree.
fn pick_node(nodes: &[accessibility::AxNode]) -> Option<(BackendNodeId, String)> {
    for role in ["button", "link", "textbox", "heading"] {
        if let Some(n) = nodes
            .iter()
            .find(|n| !n.ignored && n.role() == role && n.backend_dom_node_id.is_some())
        {
            return Some((n.backend_dom_node_id?, format!("{role} {:?}", n.name())));
        }
    }
    None
}

async fn measure(
    page: &PageSession,
    url: &str,
    runs: usize,
) -> Result<Row, Box<dyn std::error::Error>> {
    let mut row = Row {
        page: url.to_owned(),
        ..Default::default()
    };
    let t = Instant::now();
    page.navigate(url).await?;
    row.nav_ms = ms(t.elapsed());
    let conn = page.connection();
    let session = Some(page.session_id());
    let mut box_target = None;

    for _ in 0..runs {
        // Raw first, so Chromium + transfer and our parse are timed apart.
        let t = Instant::now();
        let raw = conn
            .call_raw(
                session,
                "Accessibility.getFullAXTree",
                serde_json::json!({}),
            )
            .await?;
        row.ax_ms.push(ms(t.elapsed()));
        row.ax_bytes = raw.get().len();
        let t = Instant::now();
        let tree: accessibility::AxNodesReturns = serde_json::from_str(raw.get())?;
        row.ax_parse_ms.push(ms(t.elapsed()));
        row.ax_nodes = tree.nodes.len();
        if box_target.is_none() {
            box_target = pick_node(&tree.nodes);
        }

        let t = Instant::now();
        let snap = conn
            .call_raw(
                session,
                "DOMSnapshot.captureSnapshot",
                serde_json::json!({"computedStyles": []}),
            )
            .await?;
        row.snapshot_ms.push(ms(t.elapsed()));
        row.snapshot_bytes = snap.get().len();

        let t = Instant::now();
        let count = page
            .call(runtime::Evaluate::by_value(
                "document.querySelectorAll('*').length",
            ))
            .await?;
        row.eval_ms.push(ms(t.elapsed()));
        row.elements = count.result.value.and_then(|v| v.as_i64()).unwrap_or(-1);

        if let Some((node, label)) = &box_target {
            let t = Instant::now();
            match page
                .call(dom::GetBoxModel {
                    node: (*node).into(),
                })
                .await
            {
                Ok(_) => row.box_ms.push(ms(t.elapsed())),
                Err(CdpError::Protocol { message, .. }) => {
                    row.box_node = format!("failed: {message}")
                }
                Err(e) => return Err(e.into()),
            }
            if row.box_node.is_empty() {
                row.box_node.clone_from(label);
            }
        }
    }
    Ok(row)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut runs = 5usize;
    let mut servers: Vec<StaticServer> = Vec::new();
    let mut urls: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().ok_or("--runs needs a number")?.parse()?,
            "--root" => {
                let root = PathBuf::from(args.next().ok_or("--root needs a directory")?);
                servers.push(StaticServer::start(root).await?);
            }
            url if url.starts_with("http://") => urls.push(url.to_owned()),
            path => {
                let server = servers.last().ok_or("give --root DIR before paths")?;
                urls.push(server.url(path));
            }
        }
    }
    if urls.is_empty() {
        return Err("usage: cdp_probe [--runs N] --root DIR PATH... [--root DIR PATH...]".into());
    }

    let t = Instant::now();
    let chromium = Chromium::launch(LaunchOptions::default()).await?;
    let launch_ms = ms(t.elapsed());
    let browser = chromium.connect().await?;
    let version = browser.version().await?;
    let page = browser.new_page("about:blank").await?;
    println!(
        "{} | launch {launch_ms:.0} ms | {runs} runs per figure, medians",
        version.product
    );
    println!(
        "{:<44} {:>7} {:>9} {:>8} {:>10} {:>9} {:>8} {:>9} {:>8} {:>8} {:>7}",
        "page",
        "nav ms",
        "AX ms",
        "AX nodes",
        "AX bytes",
        "AX parse",
        "snap ms",
        "snap B",
        "eval ms",
        "elements",
        "box ms"
    );
    for url in &urls {
        let row = measure(&page, url, runs).await?;
        let name = row
            .page
            .split_once("://")
            .and_then(|(_, rest)| rest.split_once('/'))
            .map_or(row.page.as_str(), |(_, p)| p);
        println!(
            "{:<44} {:>7.0} {:>9.1} {:>8} {:>10} {:>9.1} {:>8.1} {:>9} {:>8.2} {:>8} {:>7.2}",
            name,
            row.nav_ms,
            median(row.ax_ms),
            row.ax_nodes,
            row.ax_bytes,
            median(row.ax_parse_ms),
            median(row.snapshot_ms),
            row.snapshot_bytes,
            median(row.eval_ms),
            row.elements,
            if row.box_ms.is_empty() {
                f64::NAN
            } else {
                median(row.box_ms)
            },
        );
        if row.box_node.starts_with("failed") {
            println!("    getBoxModel {}", row.box_node);
        }
    }
    chromium.close().await?;
    Ok(())
}
