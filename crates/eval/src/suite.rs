//! A suite: the task files of one directory (`*.json`), in file-name order, ids unique.

use crate::error::EvalError;
use crate::task::Task;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The project's fixture site: `$ARC_CUA_FIXTURES` (a node of an eval cluster, an
/// installed binary), else the checkout this binary was built from (`fixtures/site`).
pub fn fixture_site_dir() -> PathBuf {
    std::env::var_os("ARC_CUA_FIXTURES")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site"))
}

/// The repository's fixture suite (`fixtures/tasks`).
pub fn fixture_tasks_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tasks")
}

/// The fixture suite: one task per synthetic category on the fixture site.
pub fn fixture_suite() -> Result<Vec<Task>, EvalError> {
    load_dir(&fixture_tasks_dir())
}

/// Every `*.json` file of `dir`, sorted by file name (so `01-…` orders a suite).
pub fn load_dir(dir: &Path) -> Result<Vec<Task>, EvalError> {
    let read_err = |source| EvalError::Read {
        path: dir.to_owned(),
        source,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read_err)? {
        let path = entry.map_err(read_err)?.path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() {
            paths.push(path);
        }
    }
    paths.sort();
    let tasks = paths
        .iter()
        .map(|p| Task::from_file(p))
        .collect::<Result<Vec<_>, _>>()?;
    let origins: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    check_unique(&tasks, &origins)?;
    Ok(tasks)
}

/// Ids identify results across modes and shards, so two tasks may not share one.
pub fn check_unique(tasks: &[Task], origins: &[String]) -> Result<(), EvalError> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, t) in tasks.iter().enumerate() {
        if let Some(&first) = seen.get(t.id.as_str()) {
            let name = |i: usize| {
                origins
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("task #{i}"))
            };
            return Err(EvalError::DuplicateId {
                id: t.id.to_string(),
                first: name(first),
                second: name(i),
            });
        }
        seen.insert(t.id.as_str(), i);
    }
    Ok(())
}
