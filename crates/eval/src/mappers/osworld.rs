//! OSWorld task files (`evaluation_examples/examples/<app>/<id>.json`) into mapped
//! records. An OSWorld task starts from a VM snapshot prepared by setup steps (download,
//! open, launch, execute, …) and is checked by functions over what getters read from that
//! VM (files, app settings, the browser's tabs): none of it exists here. So every
//! evaluator function is kept verbatim and flagged, one record per function, and no task
//! is built; the instruction, id and category are still mapped for listing.

use super::{
    check_unique, source, task_id, Benchmark, Blocker, MapError, Mapped, Note, Reason, Unsupported,
};
use crate::task::Category;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;

/// One OSWorld task, read leniently (upstream files carry more fields: `trajectory`,
/// `proxy`, `possibility_of_env_change`, …).
#[derive(Debug, Deserialize)]
pub struct OsWorldTask {
    pub id: String,
    #[serde(default)]
    pub snapshot: Option<String>,
    pub instruction: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub config: Vec<Step>,
    #[serde(default)]
    pub related_apps: Vec<String>,
    pub evaluator: Evaluator,
}

/// A setup step: `{"type": "launch", "parameters": {…}}`.
#[derive(Debug, Deserialize)]
pub struct Step {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub parameters: Value,
}

/// One function, or several combined by `conj` (default "and"); `result`, `expected`
/// and `options` are then lists with one entry per function. They stay JSON: they are
/// only ever kept, never read.
#[derive(Debug, Deserialize)]
pub struct Evaluator {
    pub func: Funcs,
    #[serde(default)]
    pub conj: Option<Conj>,
    #[serde(default)]
    pub result: Option<Value>,
    #[serde(default)]
    pub expected: Option<Value>,
    #[serde(default)]
    pub options: Option<Value>,
    #[serde(default)]
    pub postconfig: Vec<Step>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Funcs {
    One(String),
    Many(Vec<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Conj {
    And,
    Or,
}

/// Maps every task of a file (object, array, JSONL) or a directory of them.
pub fn map_file(path: &Path) -> Result<Vec<Mapped>, MapError> {
    let mapped = source::read(path)?
        .into_iter()
        .map(|r| map_value(r.value, &r.origin))
        .collect::<Result<Vec<_>, _>>()?;
    check_unique(&mapped)?;
    Ok(mapped)
}

/// Maps one task; `origin` (where it was read) prefixes every error.
pub fn map_value(value: Value, origin: &str) -> Result<Mapped, MapError> {
    let raw: OsWorldTask =
        serde_json::from_value(value.clone()).map_err(|e| MapError::Invalid {
            origin: origin.to_owned(),
            message: e.to_string(),
        })?;
    let origin = format!("{origin} (id {})", raw.id);
    let invalid = |message: String| MapError::Invalid {
        origin: origin.clone(),
        message,
    };
    if raw.instruction.trim().is_empty() {
        return Err(invalid("`instruction` must not be empty".into()));
    }
    let funcs: Vec<&str> = match &raw.evaluator.func {
        Funcs::One(f) => vec![f.as_str()],
        Funcs::Many(fs) if fs.is_empty() => {
            return Err(invalid("`evaluator.func` is an empty list".into()))
        }
        Funcs::Many(fs) => fs.iter().map(String::as_str).collect(),
    };
    let ev = &raw.evaluator;
    let mut unsupported = Vec::new();
    for (i, func) in funcs.iter().enumerate() {
        let part = |field: &str, v: &Option<Value>| -> Result<Value, MapError> {
            match (&raw.evaluator.func, v) {
                (_, None) => Ok(Value::Null),
                (Funcs::One(_), Some(v)) => Ok(v.clone()),
                (Funcs::Many(_), Some(Value::Array(items))) if items.len() == funcs.len() => {
                    Ok(items[i].clone())
                }
                (Funcs::Many(_), Some(_)) => Err(invalid(format!(
                    "`evaluator.{field}` must list one entry per function ({})",
                    funcs.len()
                ))),
            }
        };
        let (result, expected, options) = (
            part("result", &ev.result)?,
            part("expected", &ev.expected)?,
            part("options", &ev.options)?,
        );
        let getters: Vec<String> = [&result, &expected]
            .iter()
            .filter_map(|v| v.get("type").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        let mut detail = Map::new();
        detail.insert("func".into(), Value::from(*func));
        for (k, v) in [
            ("result", result),
            ("expected", expected),
            ("options", options),
        ] {
            if !v.is_null() {
                detail.insert(k.into(), v);
            }
        }
        for k in ["conj", "postconfig"] {
            if let Some(v) = value["evaluator"].get(k) {
                detail.insert(k.into(), v.clone());
            }
        }
        unsupported.push(Unsupported {
            benchmark: Benchmark::OsWorld,
            kind: (*func).to_owned(),
            reason: if *func == "infeasible" {
                Reason::Infeasible
            } else {
                Reason::Desktop { getters }
            },
            detail: detail.into(),
        });
    }

    let mut notes = Vec::new();
    if funcs.len() > 1 && ev.conj == Some(Conj::Or) {
        notes.push(Note::AnyCheckPasses);
    }
    let blockers = vec![
        Blocker::DesktopSetup {
            snapshot: raw.snapshot.clone().unwrap_or_default(),
            steps: raw.config.iter().map(|s| s.kind.clone()).collect(),
        },
        Blocker::NothingChecked,
    ];
    let app = raw.snapshot.as_ref().or(raw.related_apps.first());
    let category = Category::Other(match app {
        Some(app) => format!("osworld/{app}"),
        None => "osworld".to_owned(),
    });
    Ok(Mapped {
        benchmark: Benchmark::OsWorld,
        id: task_id("osworld", &raw.id, &origin)?,
        upstream_id: raw.id,
        origin,
        category,
        goal: raw.instruction,
        checks: Vec::new(),
        unsupported,
        blockers,
        notes,
        task: None,
    })
}
