//! Snapshot latency of the GTK fixture at ~600 accessible nodes (`--rows 290`), on a
//! private Xvfb + D-Bus session. Prints p50/p95 over 100 observations, then criterion's
//! own estimate. `cargo bench -p arc-desktop --bench snapshot`.

#[path = "../tests/it/common/mod.rs"]
mod common;

use arc_core::Backend;
use criterion::Criterion;
use std::time::{Duration, Instant};

/// Nodes the app has: those read plus each left-out row and its label.
fn total_nodes(raw: &arc_desktop::tree::RawTree) -> usize {
    raw.nodes.len() + 2 * raw.left_out
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let desk = common::Desktop::start();
    let app = desk.launch(&["--rows", "290"]);
    let mut backend = rt.block_on(desk.backend(&app));
    let first = rt.block_on(backend.observe()).expect("observe");
    let conn = rt
        .block_on(arc_desktop::connect_bus(Some(&desk.bus)))
        .expect("bus");
    let raw = rt
        .block_on(arc_desktop::tree::read(
            conn.connection(),
            &backend.app().root,
            arc_desktop::TreeSource::Auto,
        ))
        .expect("tree");
    let mut times: Vec<Duration> = (0..100)
        .map(|_| {
            let t = Instant::now();
            rt.block_on(backend.observe()).expect("observe");
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "gtk_form --rows 290: {} accessible nodes, {} read ({} off-screen rows left out), {} elements; snapshot p50 {:.1} ms, p95 {:.1} ms",
        total_nodes(&raw),
        raw.nodes.len(),
        raw.left_out,
        first.elements.len(),
        times[49].as_secs_f64() * 1e3,
        times[94].as_secs_f64() * 1e3
    );
    let mut c = Criterion::default().configure_from_args().sample_size(30);
    c.bench_function("desktop_snapshot_600_nodes", |b| {
        b.iter(|| rt.block_on(backend.observe()).expect("observe"))
    });
    c.final_summary();
}
