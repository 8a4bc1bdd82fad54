//! Drives each app's tasks in order on one browser: start the app, open its start page,
//! then per task: open its path (if it names one), read the watched tables, run the
//! executor, read them again and judge the row-level difference and the page assertions.

use super::db;
use super::instance::Instance;
use super::{App, AppTask};
use crate::assert::{self, rows, Assertion, AssertionOutcome};
use crate::progress::Progress;
use crate::result::{Mode, SuiteKind, SuiteResult, TaskResult};
use crate::runner::drive::drive;
use crate::runner::score::{self, Measured};
use crate::runner::shots::{self, Shots};
use crate::runner::{Stack, TASK_GRACE};
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::RuntimeConfig;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct AppOptions {
    pub mode: Mode,
    pub browser: BrowserOptions,
    /// The executor's bound per task.
    pub task_timeout: Duration,
    pub screenshots: bool,
    pub model: Option<arc_policy::ModelConfig>,
    /// The apps venv's python (`scripts/fetch-apps.sh` prints it).
    pub python: PathBuf,
    /// Only the tasks marked `reduced` (each app's chain still runs in order).
    pub reduced: bool,
}

impl AppOptions {
    pub fn new(mode: Mode, python: PathBuf) -> AppOptions {
        AppOptions {
            mode,
            browser: BrowserOptions::default(),
            task_timeout: Duration::from_secs(60),
            screenshots: false,
            model: None,
            python,
            reduced: false,
        }
    }
}

/// Runs every app's tasks; an app that cannot start fails each of its tasks with why.
pub async fn run_apps_with(
    apps: &[App],
    opts: &AppOptions,
    mut on_progress: impl FnMut(Progress<'_>),
) -> SuiteResult {
    let started = Instant::now();
    let chosen: Vec<(&App, Vec<&AppTask>)> = apps
        .iter()
        .map(|a| {
            let tasks = a.tasks.iter().filter(|t| t.reduced || !opts.reduced);
            (a, tasks.collect())
        })
        .collect();
    let total = chosen.iter().map(|(_, t)| t.len()).sum();
    let mode = opts.mode;
    on_progress(Progress::Begin { mode, total });
    let mut results: Vec<TaskResult> = Vec::with_capacity(total);
    for (app, tasks) in chosen {
        let mut live = Live::start(app, opts).await;
        for t in tasks {
            let position = results.len();
            let task_started = Instant::now();
            let measured = match &mut live {
                Ok(live) => {
                    let bound = opts.task_timeout + TASK_GRACE;
                    match tokio::time::timeout(bound, live.measure(app, t, opts)).await {
                        Ok(Ok(m)) => m,
                        Ok(Err(why)) => Measured::error(why),
                        Err(_) => {
                            Measured::error(format!("the task did not finish within {bound:?}"))
                        }
                    }
                }
                Err(why) => Measured::error(why.clone()),
            };
            let result = score::score(&t.task, position, measured, task_started.elapsed());
            on_progress(Progress::Finished {
                mode,
                n: position + 1,
                total,
                result: &result,
            });
            results.push(result);
        }
    }
    SuiteResult {
        kind: SuiteKind::Tasks,
        mode,
        suite_size: apps.iter().map(|a| a.tasks.len()).sum(),
        shard: None,
        tasks: results,
        wall_ms: started.elapsed().as_millis() as u64,
    }
}

/// A running app and the one browser its tasks share.
struct Live {
    instance: Instance,
    backend: BrowserBackend,
}

impl Live {
    async fn start(app: &App, opts: &AppOptions) -> Result<Live, String> {
        let instance = Instance::start(app, &opts.python).await?;
        let url = format!("{}{}", instance.base(), app.start);
        let backend = BrowserBackend::start(opts.browser.clone(), &url)
            .await
            .map_err(|e| format!("cannot open {url} in Chromium: {e}"))?;
        Ok(Live { instance, backend })
    }

    async fn measure(
        &mut self,
        app: &App,
        t: &AppTask,
        opts: &AppOptions,
    ) -> Result<Measured, String> {
        if let Some(path) = t.open() {
            let url = format!("{}{path}", self.instance.base());
            self.backend
                .goto(&url)
                .await
                .map_err(|e| format!("cannot open {url}: {e}"))?;
        }
        let database = self.instance.path(&app.database);
        let tables_before = db::read(&database, &app.watch, &app.ignore)?;
        let page_before = assert::page::fingerprint(self.backend.page()).await;
        let start_screenshot = if opts.screenshots {
            shots::capture(self.backend.page(), None).await
        } else {
            None
        };
        let config = RuntimeConfig {
            timeout: Some(opts.task_timeout),
            ..RuntimeConfig::default()
        };
        let subtask = t.task.effective_subtask();
        let shots = Shots::new(&mut self.backend, opts.screenshots);
        let latest = shots.latest();
        let stack = Stack::for_run(opts.mode, opts.model.as_ref());
        let driven = drive(shots, stack, &subtask, config, latest).await;
        let tables_after = db::read(&database, &app.watch, &app.ignore);
        let page = driven.backend.browser().page();
        let mut outcomes = Vec::with_capacity(t.task.assertions.len());
        for a in &t.task.assertions {
            outcomes.push(match a {
                Assertion::Rows { changes } => match &tables_after {
                    Ok(after) => {
                        let (ok, why) = rows::judge(changes, &rows::diff(&tables_before, after));
                        AssertionOutcome::judge(a, ok, why)
                    }
                    Err(why) => AssertionOutcome::fail(a, format!("could not read: {why}")),
                },
                _ => assert::page::check(page, a, page_before.as_ref().ok()).await,
            });
        }
        Ok(Measured::from_driven(&driven, outcomes, start_screenshot))
    }
}
