use crate::exit::{Exit, Failure};
use arc_eval::miniwob::{run_miniwob_with, MiniwobOptions, PolicyMode, TaskName};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Args)]
pub struct EvalArgs {
    #[command(subcommand)]
    what: EvalKind,
}

#[derive(Subcommand)]
enum EvalKind {
    /// MiniWoB++ (the `miniwob` 1.1.0 pages from PyPI, fetched into a cache outside git on
    /// first use): seeded episodes, a planner that reads only the utterance, the reward
    /// read from the page.
    Miniwob(MiniwobArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum Mode {
    Reflex,
    Cascade,
}

#[derive(Args)]
struct MiniwobArgs {
    /// Comma-separated task names (default: every registered task).
    #[arg(long)]
    tasks: Option<String>,
    /// Episodes per task.
    #[arg(long, default_value_t = 3)]
    seeds: u32,
    /// The first seed; episodes use seeds S … S+N−1.
    #[arg(long, default_value_t = 0)]
    seed_base: u64,
    #[arg(long, value_enum, default_value_t = Mode::Reflex)]
    policy: Mode,
    /// Print the scorecard as JSON on stdout (overall success_rate, one row per task).
    #[arg(long)]
    json: bool,
    /// Also write the scorecard (JSON and Markdown) into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub async fn run(args: EvalArgs) -> Result<Exit, Failure> {
    match args.what {
        EvalKind::Miniwob(m) => miniwob(m).await,
    }
}

async fn miniwob(args: MiniwobArgs) -> Result<Exit, Failure> {
    let bad = |e: arc_eval::miniwob::MiniwobError| (Exit::BadInput, e.to_string());
    let mut opts = MiniwobOptions {
        seeds: args.seeds,
        seed_base: args.seed_base,
        ..Default::default()
    };
    if let Some(list) = &args.tasks {
        opts.tasks = TaskName::parse_list(list).map_err(bad)?;
    }
    opts.policy = match args.policy {
        Mode::Reflex => PolicyMode::Reflex,
        Mode::Cascade => PolicyMode::Cascade,
    };
    let total = opts.tasks.len() * opts.seeds as usize;
    let mode = opts.policy;
    let mut done = 0usize;
    let result = run_miniwob_with(
        &opts,
        mode.as_str(),
        |_| mode.policy(),
        |episode| {
            done += 1;
            eprintln!(
                "[{done}/{total}] {} seed {}: {} (reward {:.2}, {} steps, {} ms)",
                episode.task,
                episode.seed,
                episode.status.map_or("harness error", |s| s.as_str()),
                episode.raw_reward,
                episode.steps,
                episode.wall_ms
            );
        },
    )
    .await
    .map_err(|e| (Exit::Environment, e.to_string()))?;
    let json =
        serde_json::to_string_pretty(&result).map_err(|e| (Exit::Environment, e.to_string()))?;
    if let Some(dir) = &args.out {
        let write = |name: &str, text: &str| {
            std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(dir.join(name), text))
                .map_err(|e| {
                    (
                        Exit::Environment,
                        format!("cannot write {}: {e}", dir.join(name).display()),
                    )
                })
        };
        write("miniwob.json", &json)?;
        write("miniwob.md", &result.to_markdown())?;
    }
    if args.json {
        println!("{json}");
    } else {
        println!("{}", result.to_markdown());
    }
    Ok(Exit::Ok)
}
