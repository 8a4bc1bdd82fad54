//! What the runtime sees at the start of a MiniWoB++ episode: the utterance, the plan the
//! deterministic planner makes of it, and the compact view of the page.
//!
//! `cargo run -p arc-eval --example miniwob_view -- click-dialog 3`

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::Backend;
use arc_eval::miniwob::{ensure_pages, plan, HarnessOptions, MiniwobHost, TaskName};
use arc_view::{render, ViewOptions};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: miniwob_view TASK [SEED] [--elements]";
    let task = TaskName::new(&args.next().ok_or(usage)?)?;
    let seed: u64 = args.next().map_or(Ok(0), |s| s.parse())?;
    let elements = args.next().as_deref() == Some("--elements");
    let root = ensure_pages()?;
    let host = MiniwobHost::start(&root, HarnessOptions::default()).await?;
    let mut backend = BrowserBackend::start(BrowserOptions::default(), "about:blank").await?;
    let started = host.begin(&mut backend, &task, seed).await?;
    println!("utterance: {}", started.utterance.text);
    match plan(&started.utterance) {
        Ok(s) => println!(
            "inputs: {:?}\nverification: {:?}",
            s.inputs.keys().collect::<Vec<_>>(),
            s.verification
        ),
        Err(e) => println!("planner: {e}"),
    }
    let snapshot = backend.observe().await?;
    println!("{}", render(&snapshot, &ViewOptions::default()).text);
    if elements {
        for e in snapshot.elements.iter() {
            println!("{}", serde_json::to_string(e)?);
        }
    }
    backend.close().await;
    Ok(())
}
