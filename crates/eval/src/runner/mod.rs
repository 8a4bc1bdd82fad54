//! Runs a suite in one mode: a fresh browser per task (pages from one loopback server),
//! a fingerprint before, the executor under a wall-clock bound, then the assertions in
//! the page. Progress goes to a callback, once per task.
//!
//! `drive`, `score`, `shots`, `stack` and `timed` are shared with the MiniWoB++ runner.

mod browser;
pub(crate) mod drive;
pub(crate) mod score;
pub(crate) mod shots;
mod sim;
mod stack;
mod timed;

pub use stack::Stack;

use crate::error::EvalError;
use crate::progress::Progress;
use crate::result::{Mode, SuiteKind, SuiteResult, TaskResult};
use crate::shard::Shard;
use crate::suite;
use crate::task::{Start, Task};
use arc_browser::backend::BrowserOptions;
use arc_browser::StaticServer;
use arc_core::RuntimeConfig;
use score::Measured;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct RunOptions {
    pub mode: Mode,
    /// Served on loopback for `start: {"page": …}` tasks.
    pub site: PathBuf,
    pub browser: BrowserOptions,
    /// The executor's wall-clock bound per task; the whole task (browser start and
    /// assertions included) gets [`TASK_GRACE`] more.
    pub task_timeout: Duration,
    /// Capture the viewport after every step (embedded in the HTML report).
    pub screenshots: bool,
    pub shard: Option<Shard>,
    /// The model endpoint for `Mode::CascadeModel`.
    pub model: Option<arc_policy::ModelConfig>,
}

/// Beyond the executor's bound: browser start, the fingerprint and the assertions.
pub const TASK_GRACE: Duration = Duration::from_secs(15);

impl RunOptions {
    /// The fixture site, default browser, 30 s per task, no screenshots, all tasks.
    pub fn new(mode: Mode) -> RunOptions {
        RunOptions {
            mode,
            site: suite::fixture_site_dir(),
            browser: BrowserOptions::default(),
            task_timeout: Duration::from_secs(30),
            screenshots: false,
            shard: None,
            model: None,
        }
    }
}

/// Runs the tasks (those of `opts.shard` only, when given) in `opts.mode`.
pub async fn run_suite(tasks: &[Task], opts: &RunOptions) -> Result<SuiteResult, EvalError> {
    run_suite_with(tasks, opts, |_| {}).await
}

/// [`run_suite`], telling `on_progress` before the first task and after each.
pub async fn run_suite_with(
    tasks: &[Task],
    opts: &RunOptions,
    mut on_progress: impl FnMut(Progress<'_>),
) -> Result<SuiteResult, EvalError> {
    let origins: Vec<String> = tasks.iter().map(|t| format!("task {}", t.id)).collect();
    suite::check_unique(tasks, &origins)?;
    let started = Instant::now();
    let chosen: Vec<(usize, &Task)> = tasks
        .iter()
        .enumerate()
        .filter(|(i, _)| opts.shard.is_none_or(|s| s.holds(*i)))
        .collect();
    let server = if chosen
        .iter()
        .any(|(_, t)| matches!(t.start, Start::Page(_)))
    {
        let server = StaticServer::start(&opts.site)
            .await
            .map_err(|source| EvalError::Serve {
                root: opts.site.clone(),
                source,
            })?;
        Some(server)
    } else {
        None
    };
    let (mode, total) = (opts.mode, chosen.len());
    on_progress(Progress::Begin { mode, total });
    let mut results = Vec::with_capacity(total);
    for (n, (position, task)) in chosen.iter().enumerate() {
        let result = run_task(task, *position, server.as_ref(), opts).await;
        on_progress(Progress::Finished {
            mode,
            n: n + 1,
            total,
            result: &result,
        });
        results.push(result);
    }
    Ok(SuiteResult {
        kind: SuiteKind::Tasks,
        mode: opts.mode,
        suite_size: tasks.len(),
        shard: opts.shard,
        tasks: results,
        wall_ms: started.elapsed().as_millis() as u64,
    })
}

/// Runs one task to a scored result; every failure on the way is recorded in it.
pub async fn run_task(
    task: &Task,
    position: usize,
    server: Option<&StaticServer>,
    opts: &RunOptions,
) -> TaskResult {
    let started = Instant::now();
    let bound = opts.task_timeout + TASK_GRACE;
    let measured = match tokio::time::timeout(bound, measure(task, server, opts)).await {
        Ok(Ok(m)) => m,
        Ok(Err(why)) => Measured::error(why),
        Err(_) => Measured::error(format!("the task did not finish within {bound:?}")),
    };
    score::score(task, position, measured, started.elapsed())
}

async fn measure(
    task: &Task,
    server: Option<&StaticServer>,
    opts: &RunOptions,
) -> Result<Measured, String> {
    let config = RuntimeConfig {
        timeout: Some(opts.task_timeout),
        ..RuntimeConfig::default()
    };
    let subtask = task.effective_subtask();
    let url = match &task.start {
        Start::Sim(app) => return Ok(sim::measure(*app, task, opts.mode, &subtask, config).await),
        Start::Url(url) => url.clone(),
        Start::Live(_) => return Err("a live-app task runs only under `eval apps`".into()),
        Start::Page(page) => server
            .ok_or("no site is being served for a page task")?
            .url(page),
    };
    browser::measure(&url, task, &subtask, config, opts).await
}
