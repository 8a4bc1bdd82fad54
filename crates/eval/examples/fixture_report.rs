//! Runs the fixture suite in both modes and writes the side-by-side scorecard:
//!
//! ```sh
//! cargo run --release -p arc-eval --example fixture_report -- OUT_DIR [--screenshots]
//! ```
//!
//! (Until `arc-cua eval fixtures` exists.)

use arc_eval::{report, run_suite, suite, Mode, Pricing, RunOptions, Scorecard};
use std::path::PathBuf;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let screenshots = args.iter().any(|a| a == "--screenshots");
    let out = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("eval-report"));
    let tasks = suite::fixture_suite()?;
    let mut runs = Vec::new();
    for mode in [Mode::Reflex, Mode::Cascade] {
        let opts = RunOptions {
            screenshots,
            ..RunOptions::new(mode)
        };
        runs.push(run_suite(&tasks, &opts).await?);
    }
    let card = Scorecard::compare(&runs, Pricing::default());
    let written = report::write_all(&card, &out)?;
    print!("{}", report::render_markdown(&card));
    eprintln!("wrote {}", written.html.display());
    Ok(())
}
