//! Real applications (`fixtures/apps/<app>/app.json`): open-source web apps installed from
//! PyPI by `scripts/fetch-apps.sh` (never vendored), each started fresh from its own launcher
//! with an embedded database, then driven through tasks chained on one live page as a
//! planner chains them. The oracle is the app's own record: the watched tables' row-level
//! difference across each task ([`crate::assert::rows`]), plus any page assertions.
//!
//! `instance` starts and stops an app, `db` reads its tables, `run` drives the tasks.

mod db;
mod instance;
mod run;

pub use run::{run_apps_with, AppOptions};

use crate::assert::{Assertion, RowChange};
use crate::error::EvalError;
use crate::task::{Category, Expectation, Start, Task, TaskId};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The repository's applications.
pub fn apps_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/apps")
}

/// The script that installs the applications and prints the venv's python.
pub fn fetch_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/fetch-apps.sh")
}

/// Runs `scripts/fetch-apps.sh` (idempotent: installs the pinned apps into their venv on
/// first use) and returns the venv's python.
pub fn installed_python() -> Result<PathBuf, String> {
    let script = fetch_script();
    let out = std::process::Command::new(&script)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!("{} failed ({})", script.display(), out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().last() {
        Some(line) if !line.trim().is_empty() => Ok(PathBuf::from(line.trim())),
        _ => Err(format!("{} printed no python", script.display())),
    }
}

/// One application and its chained tasks.
#[derive(Clone, Debug)]
pub struct App {
    pub name: String,
    /// Its directory (the launcher lives there).
    pub dir: PathBuf,
    pub launch: String,
    /// The path the browser opens first (`/admin/`).
    pub start: String,
    /// The database file, relative to the instance directory.
    pub database: String,
    pub watch: Vec<String>,
    /// Columns left out of the record (a login time, a password hash).
    pub ignore: BTreeMap<String, Vec<String>>,
    pub tasks: Vec<AppTask>,
}

/// A task on the live app; its start (`Start::Live`) says the path it opens first, if any.
#[derive(Clone, Debug)]
pub struct AppTask {
    pub task: Task,
    /// Part of the quick subset `eval apps --reduced` runs (the test runs every task).
    pub reduced: bool,
}

impl AppTask {
    /// A path opened before the task (a planner's "go to …"); none: the page the previous
    /// task left.
    pub fn open(&self) -> Option<&str> {
        match &self.task.start {
            Start::Live(path) => path.as_deref(),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AppFile {
    app: String,
    #[allow(dead_code)]
    description: String,
    launch: String,
    start: String,
    database: String,
    watch: Vec<String>,
    #[serde(default)]
    ignore: BTreeMap<String, Vec<String>>,
    tasks: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    goal: String,
    #[serde(default)]
    inputs: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    allowed_risks: Vec<String>,
    #[serde(default)]
    secret_inputs: Vec<String>,
    #[serde(default)]
    constraints: Vec<String>,
    criteria: Vec<String>,
    #[serde(default)]
    expect: Expectation,
    #[serde(default)]
    open: Option<String>,
    /// The rows the task changes (none: a task that must leave the database alone).
    #[serde(default)]
    changes: Vec<RowChange>,
    #[serde(default)]
    assertions: Vec<Assertion>,
    max_actions: u32,
    #[serde(default)]
    reference_steps: Option<u32>,
    #[serde(default)]
    reduced: bool,
}

/// Every `<app>/app.json` under `dir`, sorted by directory name.
pub fn load(dir: &Path) -> Result<Vec<App>, EvalError> {
    let read_err = |path: &Path| {
        let path = path.to_owned();
        move |source| EvalError::Read { path, source }
    };
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_err(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("app.json").is_file())
        .collect();
    dirs.sort();
    let mut apps = Vec::new();
    for d in dirs {
        let path = d.join("app.json");
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(read_err(&path))?;
        let file: AppFile =
            serde_json::from_str(&text).map_err(|e| EvalError::task(&origin, e.to_string()))?;
        apps.push(app(file, d, &origin)?);
    }
    Ok(apps)
}

fn app(file: AppFile, dir: PathBuf, origin: &str) -> Result<App, EvalError> {
    let mut tasks = Vec::new();
    for e in file.tasks {
        tasks.push(task(&file.app, &file.watch, e, origin)?);
    }
    let ids: Vec<String> = tasks.iter().map(|t| t.task.id.to_string()).collect();
    let plain: Vec<Task> = tasks.iter().map(|t| t.task.clone()).collect();
    crate::suite::check_unique(&plain, &ids)?;
    Ok(App {
        name: file.app,
        dir,
        launch: file.launch,
        start: file.start,
        database: file.database,
        watch: file.watch,
        ignore: file.ignore,
        tasks,
    })
}

fn task(app: &str, watch: &[String], e: Entry, origin: &str) -> Result<AppTask, EvalError> {
    let bad = |m: String| EvalError::task(origin, format!("{}: {m}", e.id));
    if let Some(c) = e
        .changes
        .iter()
        .find(|c| !watch.contains(&c.table().to_owned()))
    {
        return Err(bad(format!("{c}: the table is not watched")));
    }
    let subtask = arc_core::Subtask::from_value(serde_json::json!({
        "goal": e.goal,
        "inputs": e.inputs,
        "verification": e.criteria,
        "constraints": e.constraints,
        "allowed_risks": e.allowed_risks,
        "secret_inputs": e.secret_inputs,
        "max_actions": e.max_actions,
    }))
    .map_err(|err| bad(err.to_string()))?;
    let id = TaskId::try_from(format!("{app}.{}", e.id)).map_err(bad)?;
    let mut assertions = e.assertions;
    assertions.push(Assertion::Rows { changes: e.changes });
    let t = Task {
        id,
        category: Category::Other(app.to_owned()),
        description: None,
        start: Start::Live(e.open),
        subtask,
        assertions,
        expect: e.expect,
        max_actions: None,
        reference_steps: e.reference_steps,
    };
    t.validate().map_err(bad)?;
    Ok(AppTask {
        task: t,
        reduced: e.reduced,
    })
}
