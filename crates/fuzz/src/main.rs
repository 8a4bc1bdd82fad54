//! `cargo run --release -p arc-fuzz -- --cases 100000 [--target subtask|decision|view|host|mcp|all]
//! [--seed N]`: prints cases, time and findings per target; exits 1 on a finding, with
//! the minimized input.

use arc_fuzz::{run, Target};
use clap::{Parser, ValueEnum};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Which {
    Subtask,
    Decision,
    View,
    Host,
    Mcp,
    All,
}

#[derive(Parser, Debug)]
#[command(
    name = "arc-fuzz",
    about = "Fuzz the subtask/decision JSON boundaries, the compact view, the host's frames and the MCP server's messages"
)]
struct Args {
    /// Generated cases per target.
    #[arg(long, default_value_t = 10_000)]
    cases: u32,
    #[arg(long, value_enum, default_value_t = Which::All)]
    target: Which,
    /// The generator seed (the same seed replays the same cases).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() {
    let args = Args::parse();
    let targets: Vec<Target> = match args.target {
        Which::Subtask => vec![Target::Subtask],
        Which::Decision => vec![Target::Decision],
        Which::View => vec![Target::View],
        Which::Host => vec![Target::Host],
        Which::Mcp => vec![Target::Mcp],
        Which::All => Target::ALL.to_vec(),
    };
    let mut found = false;
    for target in targets {
        let o = run(target, args.cases, args.seed);
        println!(
            "{:<9} {:>9} cases  {:>9} accepted  {:>8.1} s  {}",
            target.as_str(),
            o.cases,
            o.accepted,
            o.elapsed.as_secs_f64(),
            if o.finding.is_some() {
                "FINDING"
            } else {
                "0 findings"
            }
        );
        if let Some(f) = o.finding {
            found = true;
            // Shrinking keeps what the property needs; a huge remainder is cut for the
            // terminal (the seed replays it whole).
            let shown: String = f.input.chars().take(4_000).collect();
            let more = if shown.len() < f.input.len() {
                format!("… ({} bytes in all)", f.input.len())
            } else {
                String::new()
            };
            println!(
                "  property: {}\n  minimized input: {shown}{more}",
                f.property
            );
            println!(
                "  reproduce: cargo run --release -p arc-fuzz -- --target {} --cases {} --seed {}",
                target.as_str(),
                args.cases,
                args.seed
            );
        }
    }
    std::process::exit(found as i32);
}
