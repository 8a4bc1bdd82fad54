use crate::exit::{Exit, Failure};
use arc_eval::miniwob::{run_miniwob_with, MiniwobOptions, PolicyMode, TaskName};
use arc_eval::{
    merge, report, run_suite, suite, Pricing, RunOptions, Scorecard, Shard, SuiteResult,
};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Args)]
pub struct EvalArgs {
    #[command(subcommand)]
    what: EvalKind,
}

#[derive(Subcommand)]
enum EvalKind {
    /// The fixture suite (one task per synthetic category on the project's own site), in
    /// reflex and cascade modes, scored by assertions read from the page.
    Fixtures(FixturesArgs),
    /// Join shard results (`eval fixtures --shard K/N --results FILE`) into one scorecard.
    Merge(MergeArgs),
    /// MiniWoB++ (the `miniwob` 1.1.0 pages from PyPI, fetched into a cache outside git on
    /// first use): seeded episodes, a planner that reads only the utterance, the reward
    /// read from the page.
    Miniwob(MiniwobArgs),
}

#[derive(Args)]
struct FixturesArgs {
    /// Which mode(s) to run.
    #[arg(long, value_enum, default_value_t = Modes::Both)]
    mode: Modes,
    /// Run only shard K of N (1-based), e.g. `--shard 2/4`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Where the scorecard (JSON, Markdown, HTML) goes.
    #[arg(long, value_name = "DIR", default_value = "eval-report")]
    out: PathBuf,
    /// Also write the raw per-mode results (for `eval merge`).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Embed a screenshot per step in the HTML report.
    #[arg(long)]
    screenshots: bool,
}

#[derive(Args)]
struct MergeArgs {
    /// Result files written by `eval fixtures --results`.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    #[arg(long, value_name = "DIR", default_value = "eval-report")]
    out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum Modes {
    Reflex,
    Cascade,
    Both,
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
        EvalKind::Fixtures(f) => fixtures(f).await,
        EvalKind::Merge(m) => merge_parts(m),
    }
}

fn env_err(e: impl std::fmt::Display) -> Failure {
    (Exit::Environment, e.to_string())
}

async fn fixtures(args: FixturesArgs) -> Result<Exit, Failure> {
    let tasks = suite::fixture_suite().map_err(env_err)?;
    let modes = match args.mode {
        Modes::Reflex => vec![arc_eval::Mode::Reflex],
        Modes::Cascade => vec![arc_eval::Mode::Cascade],
        Modes::Both => vec![arc_eval::Mode::Reflex, arc_eval::Mode::Cascade],
    };
    let mut runs = Vec::new();
    for mode in modes {
        let opts = RunOptions {
            screenshots: args.screenshots,
            shard: args.shard,
            progress: true,
            ..RunOptions::new(mode)
        };
        runs.push(run_suite(&tasks, &opts).await.map_err(env_err)?);
    }
    if let Some(path) = &args.results {
        let json = serde_json::to_string_pretty(&runs).map_err(env_err)?;
        std::fs::write(path, json).map_err(|e| {
            (
                Exit::Environment,
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
    }
    write_card(&Scorecard::compare(&runs, Pricing::default()), &args.out)
}

fn merge_parts(args: MergeArgs) -> Result<Exit, Failure> {
    let mut by_mode: Vec<Vec<SuiteResult>> = Vec::new();
    for path in &args.parts {
        let text = std::fs::read_to_string(path)
            .map_err(|e| (Exit::BadInput, format!("{}: {e}", path.display())))?;
        let runs: Vec<SuiteResult> = serde_json::from_str(&text)
            .map_err(|e| (Exit::BadInput, format!("{}: {e}", path.display())))?;
        for (i, run) in runs.into_iter().enumerate() {
            if by_mode.len() <= i {
                by_mode.push(Vec::new());
            }
            by_mode[i].push(run);
        }
    }
    let merged = by_mode
        .into_iter()
        .map(merge)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| (Exit::BadInput, e.to_string()))?;
    write_card(&Scorecard::compare(&merged, Pricing::default()), &args.out)
}

fn write_card(card: &Scorecard, out: &std::path::Path) -> Result<Exit, Failure> {
    let written = report::write_all(card, out).map_err(env_err)?;
    print!("{}", report::render_markdown(card));
    eprintln!("report: {}", written.html.display());
    Ok(Exit::Ok)
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
