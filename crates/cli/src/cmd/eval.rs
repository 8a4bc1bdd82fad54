use crate::exit::{Exit, Failure};
use crate::policy_args::ModelArgs;
use crate::progress::Reporter;
use arc_eval::miniwob::{run_miniwob_with, MiniwobOptions, MiniwobResult, TaskName};
use arc_eval::{
    merge_named, report, run_suite_with, suite, Pricing, RunOptions, Scorecard, Shard, Stack,
    SuiteResult,
};
use arc_policy::ModelConfig;
use clap::{Args, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

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
    /// The planner corpus (`fixtures/planner/`: subtasks phrased as LLM planners write
    /// them, each criterion in three styles, negatives that must not complete) with the
    /// reflex, scored by each page's own record. One category per style.
    Planner(PlannerArgs),
    /// Real applications (`fixtures/apps/<app>/`: open-source web apps installed from PyPI
    /// by scripts/fetch-apps.sh, started fresh with their own databases), their tasks
    /// chained on one live page as a planner chains them, each judged by the row-level
    /// difference of the app's database across it.
    Apps(AppsArgs),
    /// Join shard results (`eval fixtures|miniwob --shard K/N --results FILE`) into one
    /// scorecard; the files must be shards of one run of one kind.
    Merge(MergeArgs),
    /// MiniWoB++ (the `miniwob` 1.1.0 pages from PyPI, fetched into a cache outside git on
    /// first use): seeded episodes, a planner that reads only the utterance, the reward
    /// read from the page. Writes miniwob.json, miniwob.md and miniwob.html into --out.
    Miniwob(MiniwobArgs),
    /// Map WebArena or OSWorld task files into our task format and write the runnable ones
    /// as a suite; unsupported checks are kept and flagged. Runs nothing: live runs need
    /// WebArena's servers / OSWorld's VMs, which this machine lacks.
    Import(super::eval_import::ImportArgs),
}

#[derive(Args)]
struct FixturesArgs {
    /// Which mode(s) to run.
    #[arg(long, value_enum, default_value_t = Modes::Both)]
    mode: Modes,
    #[command(flatten)]
    suite: SuiteRunArgs,
    /// Prices for the cost column (JSON: input_usd_per_million_tokens,
    /// output_usd_per_million_tokens, runtime_usd_per_hour); zero by default.
    #[arg(long, value_name = "FILE")]
    pricing: Option<PathBuf>,
}

#[derive(Args)]
struct PlannerArgs {
    /// Run only the subtasks whose id (`<page>.<subtask>.<style>`) contains this.
    #[arg(long, value_name = "TEXT")]
    only: Option<String>,
    /// The stack: the reflex alone, or the cascade (with the model when --model names one).
    #[arg(long, value_enum, default_value_t = Mode::Reflex)]
    policy: Mode,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    suite: SuiteRunArgs,
}

#[derive(Args)]
struct AppsArgs {
    /// Run only the app of this name (default: every app).
    #[arg(long, value_name = "NAME")]
    app: Option<String>,
    /// Only the tasks marked `reduced` (a quick subset: sign in, one change, a negative), each
    /// app's chain in order.
    #[arg(long)]
    reduced: bool,
    /// The apps venv's python (default: what scripts/fetch-apps.sh prints, installing the
    /// apps on first use).
    #[arg(long, value_name = "FILE")]
    python: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Mode::Reflex)]
    policy: Mode,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    report: ReportArgs,
}

/// What a run of task files shares: a shard, where the report goes, raw results,
/// screenshots.
#[derive(Args)]
struct SuiteRunArgs {
    /// Run only shard K of N (1-based), e.g. `--shard 2/4`.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    report: ReportArgs,
}

/// Where a run of task files reports: the scorecard, the raw results, screenshots.
#[derive(Args)]
struct ReportArgs {
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
    /// Result files written by `eval fixtures --results` or `eval miniwob --results`.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    #[arg(long, value_name = "DIR", default_value = "eval-report")]
    out: PathBuf,
    /// Also write the merged raw results (the shards' format, whole).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Prices for the cost column (as for `eval fixtures`).
    #[arg(long, value_name = "FILE")]
    pricing: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Modes {
    Reflex,
    Cascade,
    Both,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
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
    /// Print the summary as JSON on stdout (overall success_rate, one row per task, one
    /// record per episode) instead of the Markdown scorecard.
    #[arg(long)]
    json: bool,
    /// Where the scorecard goes: miniwob.json, miniwob.md and miniwob.html (one
    /// self-contained page).
    #[arg(long, value_name = "DIR", default_value = "eval-report")]
    out: PathBuf,
    /// Embed a screenshot of the page at the start and after every step in the HTML report
    /// (~10–30 ms per step, which the page's time-decayed reward sees).
    #[arg(long)]
    screenshots: bool,
    /// Run only shard K of N (1-based): the episodes (task-major, task × seed) whose index
    /// i has i % N == K − 1, each with its own seed.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Also write the raw results (for `eval merge`).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Prices for the cost column (as for `eval fixtures`).
    #[arg(long, value_name = "FILE")]
    pricing: Option<PathBuf>,
    #[command(flatten)]
    model: ModelArgs,
}

/// The eval mode and its model: `--policy cascade` with a model named is the cascade
/// with that model.
fn chosen(
    policy: Mode,
    model: &ModelArgs,
) -> Result<(arc_eval::Mode, Option<ModelConfig>), Failure> {
    if policy == Mode::Reflex && model.model.is_none() {
        // The environment's model is for the stacks that ask one.
        return Ok((arc_eval::Mode::Reflex, None));
    }
    let config = model
        .config()
        .map_err(|e| (Exit::BadInput, e.to_string()))?;
    Ok(match (policy, config) {
        (Mode::Reflex, Some(_)) => {
            return Err((
                Exit::BadInput,
                "--model needs --policy cascade (the reflex alone asks no model)".into(),
            ))
        }
        (Mode::Reflex, None) => (arc_eval::Mode::Reflex, None),
        (Mode::Cascade, None) => (arc_eval::Mode::Cascade, None),
        (Mode::Cascade, Some(c)) => (arc_eval::Mode::CascadeModel, Some(c)),
    })
}

pub async fn run(args: EvalArgs) -> Result<Exit, Failure> {
    match args.what {
        EvalKind::Miniwob(m) => miniwob(m).await,
        EvalKind::Fixtures(f) => fixtures(f).await,
        EvalKind::Planner(p) => planner(p).await,
        EvalKind::Apps(a) => apps(a).await,
        EvalKind::Merge(m) => merge_parts(m),
        EvalKind::Import(i) => super::eval_import::run(i),
    }
}

fn env_err(e: impl std::fmt::Display) -> Failure {
    (Exit::Environment, e.to_string())
}

fn read_pricing(path: Option<&Path>) -> Result<Pricing, Failure> {
    match path {
        Some(p) => Pricing::from_file(p).map_err(|e| (Exit::BadInput, e.to_string())),
        None => Ok(Pricing::default()),
    }
}

/// The raw per-mode results, for `eval merge`.
fn write_results(path: &Path, runs: &[SuiteResult]) -> Result<(), Failure> {
    let json = serde_json::to_string_pretty(runs).map_err(env_err)?;
    std::fs::write(path, json).map_err(|e| {
        (
            Exit::Environment,
            format!("cannot write {}: {e}", path.display()),
        )
    })
}

async fn fixtures(args: FixturesArgs) -> Result<Exit, Failure> {
    let pricing = read_pricing(args.pricing.as_deref())?;
    let tasks = suite::fixture_suite().map_err(env_err)?;
    let modes = match args.mode {
        Modes::Reflex => vec![arc_eval::Mode::Reflex],
        Modes::Cascade => vec![arc_eval::Mode::Cascade],
        Modes::Both => vec![arc_eval::Mode::Reflex, arc_eval::Mode::Cascade],
    };
    let mut runs = Vec::new();
    let mut progress = Reporter::new();
    for mode in modes {
        let opts = RunOptions {
            screenshots: args.suite.report.screenshots,
            shard: args.suite.shard,
            ..RunOptions::new(mode)
        };
        let run = run_suite_with(&tasks, &opts, |p| progress.on(p)).await;
        runs.push(run.map_err(env_err)?);
    }
    progress.finish();
    if let Some(path) = &args.suite.report.results {
        write_results(path, &runs)?;
    }
    write_card(&Scorecard::compare(&runs, pricing), &args.suite.report.out)
}

async fn planner(args: PlannerArgs) -> Result<Exit, Failure> {
    let mut tasks = arc_eval::corpus::load(&arc_eval::corpus::planner_dir()).map_err(env_err)?;
    if let Some(only) = &args.only {
        tasks.retain(|t| t.id.as_str().contains(only.as_str()));
        if tasks.is_empty() {
            return Err((
                Exit::BadInput,
                format!("no corpus subtask id contains {only:?}"),
            ));
        }
    }
    let (mode, model) = chosen(args.policy, &args.model)?;
    let opts = RunOptions {
        screenshots: args.suite.report.screenshots,
        shard: args.suite.shard,
        model,
        ..RunOptions::new(mode)
    };
    let mut progress = Reporter::new();
    let run = run_suite_with(&tasks, &opts, |p| progress.on(p))
        .await
        .map_err(env_err)?;
    progress.finish();
    let runs = [run];
    if let Some(path) = &args.suite.report.results {
        write_results(path, &runs)?;
    }
    write_card(
        &Scorecard::compare(&runs, Pricing::default()),
        &args.suite.report.out,
    )
}

async fn apps(args: AppsArgs) -> Result<Exit, Failure> {
    use arc_eval::apps;
    let mut all = apps::load(&apps::apps_dir()).map_err(env_err)?;
    if let Some(name) = &args.app {
        all.retain(|a| &a.name == name);
        if all.is_empty() {
            return Err((Exit::BadInput, format!("no app is named {name:?}")));
        }
    }
    let (mode, model) = chosen(args.policy, &args.model)?;
    let python = match args.python {
        Some(p) => p,
        None => apps::installed_python().map_err(env_err)?,
    };
    let opts = apps::AppOptions {
        screenshots: args.report.screenshots,
        model,
        reduced: args.reduced,
        ..apps::AppOptions::new(mode, python)
    };
    let mut progress = Reporter::new();
    let run = apps::run_apps_with(&all, &opts, |p| progress.on(p)).await;
    progress.finish();
    let runs = [run];
    if let Some(path) = &args.report.results {
        write_results(path, &runs)?;
    }
    write_card(
        &Scorecard::compare(&runs, Pricing::default()),
        &args.report.out,
    )
}

/// Each file holds one run per mode; the n-th runs of all files are merged together.
fn merge_parts(args: MergeArgs) -> Result<Exit, Failure> {
    let pricing = read_pricing(args.pricing.as_deref())?;
    let mut by_mode: Vec<Vec<(String, SuiteResult)>> = Vec::new();
    let mut first: Option<(String, usize)> = None;
    for path in &args.parts {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| (Exit::BadInput, format!("{origin}: {e}")))?;
        let runs: Vec<SuiteResult> =
            serde_json::from_str(&text).map_err(|e| (Exit::BadInput, format!("{origin}: {e}")))?;
        match &first {
            None => first = Some((origin.clone(), runs.len())),
            Some((f, n)) if *n != runs.len() => {
                return Err((
                    Exit::BadInput,
                    format!(
                        "{origin} holds {} runs, {f} {n}: not shards of one run",
                        runs.len()
                    ),
                ))
            }
            Some(_) => {}
        }
        for (i, run) in runs.into_iter().enumerate() {
            if by_mode.len() <= i {
                by_mode.push(Vec::new());
            }
            by_mode[i].push((origin.clone(), run));
        }
    }
    let merged = by_mode
        .into_iter()
        .map(merge_named)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| (Exit::BadInput, e.to_string()))?;
    if let Some(path) = &args.results {
        write_results(path, &merged)?;
    }
    write_card(&Scorecard::compare(&merged, pricing), &args.out)
}

/// Writes the three report files, prints the Markdown scorecard on stdout and the HTML's
/// path on stderr.
fn write_card(card: &Scorecard, out: &Path) -> Result<Exit, Failure> {
    let written = report::write_all(card, out).map_err(env_err)?;
    crate::out::write(format_args!("{}", report::render_markdown(card)))?;
    eprintln!("report: {}", written.html.display());
    Ok(Exit::Ok)
}

async fn miniwob(args: MiniwobArgs) -> Result<Exit, Failure> {
    let bad = |e: arc_eval::miniwob::MiniwobError| (Exit::BadInput, e.to_string());
    let pricing = read_pricing(args.pricing.as_deref())?;
    let (mode, model) = chosen(args.policy, &args.model)?;
    let mut opts = MiniwobOptions {
        seeds: args.seeds,
        seed_base: args.seed_base,
        policy: mode,
        screenshots: args.screenshots,
        shard: args.shard,
        ..Default::default()
    };
    if let Some(list) = &args.tasks {
        opts.tasks = TaskName::parse_list(list).map_err(bad)?;
    }
    let mut progress = Reporter::new();
    let run = run_miniwob_with(
        &opts,
        mode.as_str(),
        |_| Stack::for_run(mode, model.as_ref()),
        |p| progress.on(p),
    )
    .await;
    progress.finish();
    let run = run.map_err(|e| (Exit::Environment, e.to_string()))?;
    if let Some(path) = &args.results {
        write_results(path, std::slice::from_ref(&run))?;
    }
    let card = Scorecard::compare(std::slice::from_ref(&run), pricing);
    if !args.json {
        return write_card(&card, &args.out);
    }
    let written = report::write_all(&card, &args.out).map_err(env_err)?;
    let summary = MiniwobResult::from_run(&run).ok_or_else(|| env_err("not a MiniWoB++ run"))?;
    let json = serde_json::to_string_pretty(&summary).map_err(env_err)?;
    crate::outln!("{json}")?;
    eprintln!("report: {}", written.html.display());
    Ok(Exit::Ok)
}
