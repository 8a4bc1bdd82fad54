//! The planner corpus (`fixtures/planner/`): subtasks an LLM planner would write on pages
//! of our own, each criterion in three styles (terse, verbose, outcome-only), written apart
//! from the reader they test (fixtures/planner/README.md). Each subtask becomes one
//! [`Task`] per style, `<page>.<id>.<style>`, whose category is the style; the page's own
//! record (`assertions`) judges.

use crate::assert::Assertion;
use crate::error::EvalError;
use crate::task::{Category, Expectation, Start, Task, TaskId};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The repository's corpus.
pub fn planner_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/planner")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PageFile {
    page: String,
    #[allow(dead_code)]
    description: String,
    subtasks: Vec<Entry>,
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
    criteria: Styles,
    #[serde(default)]
    expect: Expectation,
    assertions: Vec<Assertion>,
    max_actions: u32,
    #[serde(default)]
    reference_steps: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Styles {
    terse: Vec<String>,
    verbose: Vec<String>,
    outcome: Vec<String>,
}

/// The three ways a planner phrases one subtask's criteria.
pub const STYLES: [&str; 3] = ["terse", "verbose", "outcome"];

/// Every page file of `dir` (sorted), each subtask in each style.
pub fn load(dir: &Path) -> Result<Vec<Task>, EvalError> {
    let read_err = |source| EvalError::Read {
        path: dir.to_owned(),
        source,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_err)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut tasks = Vec::new();
    for path in &paths {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
            path: path.clone(),
            source,
        })?;
        let file: PageFile =
            serde_json::from_str(&text).map_err(|e| EvalError::task(&origin, e.to_string()))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for e in &file.subtasks {
            for style in STYLES {
                tasks.push(task(&file.page, &stem, e, style, &origin)?);
            }
        }
    }
    let origins: Vec<String> = tasks.iter().map(|t| t.id.to_string()).collect();
    crate::suite::check_unique(&tasks, &origins)?;
    Ok(tasks)
}

fn task(page: &str, stem: &str, e: &Entry, style: &str, origin: &str) -> Result<Task, EvalError> {
    let bad = |m: String| EvalError::task(origin, format!("{}: {m}", e.id));
    let verification = match style {
        "terse" => &e.criteria.terse,
        "verbose" => &e.criteria.verbose,
        _ => &e.criteria.outcome,
    };
    let subtask = arc_core::Subtask::from_value(serde_json::json!({
        "goal": e.goal,
        "inputs": e.inputs,
        "verification": verification,
        "constraints": e.constraints,
        "allowed_risks": e.allowed_risks,
        "secret_inputs": e.secret_inputs,
        "max_actions": e.max_actions,
    }))
    .map_err(|err| bad(err.to_string()))?;
    let id = TaskId::try_from(format!("{stem}.{}.{style}", e.id)).map_err(bad)?;
    let t = Task {
        id,
        category: Category::Other(style.to_owned()),
        description: None,
        start: Start::Page(page.to_owned()),
        subtask,
        assertions: e.assertions.clone(),
        expect: e.expect.clone(),
        max_actions: None,
        reference_steps: e.reference_steps,
    };
    t.validate().map_err(bad)?;
    Ok(t)
}
