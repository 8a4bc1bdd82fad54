//! WebArena config files into our tasks. Each upstream check is one unit: an approach of
//! `string_match` (`string_match.exact_match`, …), the `url_match`, one `program_html`
//! target (`program_html[1]`), or an unknown eval type. `url_match` and the
//! `program_html` targets read on the final page by selector map; the agent's answer
//! (`string_match`) never does — the runtime ends with a status, not an answer.

mod format;
mod html;
mod url;

pub use format::WebArenaTask;

use super::{
    check_unique, describe, source, task_id, Benchmark, Blocker, MapError, Mapped, MappedCheck,
    Note, Reason, SiteMap, Unsupported,
};
use crate::task::{Category, Expectation, Start, Task};
use arc_core::Subtask;
use format::{Lenient, TaskNumber};
use serde_json::{json, Value};
use std::path::Path;

/// Maps every task of a config file (array or object), a JSONL file, or a directory.
pub fn map_file(path: &Path, sites: &SiteMap) -> Result<Vec<Mapped>, MapError> {
    let mapped = source::read(path)?
        .into_iter()
        .map(|r| map_value(r.value, &r.origin, sites))
        .collect::<Result<Vec<_>, _>>()?;
    check_unique(&mapped)?;
    Ok(mapped)
}

/// Maps one task; `origin` (where it was read) prefixes every error.
pub fn map_value(value: Value, origin: &str, sites: &SiteMap) -> Result<Mapped, MapError> {
    let invalid = |message: String| MapError::Invalid {
        origin: origin.to_owned(),
        message,
    };
    let raw: WebArenaTask =
        serde_json::from_value(value.clone()).map_err(|e| invalid(e.to_string()))?;
    let upstream_id = match &raw.task_id {
        TaskNumber::Number(n) => n.to_string(),
        TaskNumber::Text(s) => s.clone(),
    };
    let origin = format!("{origin} (task_id {upstream_id})");
    let invalid = |message: String| MapError::Invalid {
        origin: origin.clone(),
        message,
    };
    if raw.intent.trim().is_empty() {
        return Err(invalid("`intent` must not be empty".into()));
    }
    let placeholder = |field: &'static str| {
        let origin = origin.clone();
        move |name: String| MapError::Placeholder {
            origin,
            field,
            name,
        }
    };

    let mut blockers = Vec::new();
    let starts = raw
        .start_url
        .split(" |AND| ")
        .map(|u| sites.resolve(u.trim()).map_err(placeholder("start_url")))
        .collect::<Result<Vec<_>, _>>()?;
    if starts.len() > 1 {
        blockers.push(Blocker::SeveralStartPages {
            urls: starts.clone(),
        });
    }
    let start = starts[0].clone();
    if !(start.starts_with("http://") || start.starts_with("https://")) {
        blockers.push(Blocker::StartNotHttp { url: start.clone() });
    }

    let raw_eval = &value["eval"];
    let mut checks = Vec::new();
    let mut unsupported = Vec::new();
    let mut push = |r: Result<MappedCheck, Unsupported>| match r {
        Ok(c) => checks.push(c),
        Err(u) => unsupported.push(u),
    };
    for eval_type in &raw.eval.eval_types {
        match eval_type.as_str() {
            "string_match" => answers(&raw, raw_eval)
                .into_iter()
                .for_each(|u| push(Err(u))),
            "url_match" => {
                push(url_match(&raw, raw_eval, sites).map_err(placeholder("eval.reference_url"))?)
            }
            "program_html" => {
                let targets = raw.eval.program_html.as_deref().unwrap_or_default();
                if targets.is_empty() {
                    push(Err(flag(
                        "program_html",
                        shape("eval.program_html", "a non-empty list of targets"),
                        raw_eval["program_html"].clone(),
                    )));
                }
                for (i, t) in targets.iter().enumerate() {
                    push(html::map(
                        format!("program_html[{i}]"),
                        &raw_eval["program_html"][i],
                        t,
                    ));
                }
            }
            other => push(Err(flag(other, Reason::UnknownType, raw_eval.clone()))),
        }
    }

    let mut notes = Vec::new();
    if let Some(state) = raw.storage_state.as_ref().filter(|s| !s.is_empty()) {
        notes.push(Note::StartsLoggedOut {
            storage_state: state.clone(),
        });
    }
    if let Some(g) = raw.geolocation.as_ref().filter(|g| !g.is_null()) {
        notes.push(Note::Geolocation {
            value: g.to_string(),
        });
    }
    let listed = raw.eval.program_html.as_ref().map_or(0, Vec::len);
    if listed > 0 && !raw.eval.eval_types.iter().any(|t| t == "program_html") {
        notes.push(Note::IgnoredProgramHtml { count: listed });
    }
    if checks.is_empty() {
        blockers.push(Blocker::NothingChecked);
    }

    let id = task_id("webarena", &upstream_id, &origin)?;
    let category = Category::Other(if raw.sites.is_empty() {
        "webarena".to_owned()
    } else {
        format!("webarena/{}", raw.sites.join("+"))
    });
    let task = if blockers.is_empty() {
        let task = Task {
            id: id.clone(),
            category: category.clone(),
            description: Some(describe(
                "WebArena",
                &upstream_id,
                &checks,
                &unsupported,
                &notes,
            )),
            start: Start::Url(start),
            // The intent is all a planner would have: no reference answer leaks into it.
            subtask: Subtask::new(raw.intent.clone(), raw.intent.clone()),
            assertions: checks.iter().flat_map(|c| c.assertions.clone()).collect(),
            expect: Expectation::default(),
            max_actions: None,
            reference_steps: None,
        };
        task.validate().map_err(invalid)?;
        Some(task)
    } else {
        None
    };
    Ok(Mapped {
        benchmark: Benchmark::WebArena,
        upstream_id,
        origin,
        id,
        category,
        goal: raw.intent,
        checks,
        unsupported,
        blockers,
        notes,
        task,
    })
}

/// `string_match`: one flagged record per approach (all compare the agent's answer).
fn answers(raw: &WebArenaTask, raw_eval: &Value) -> Vec<Unsupported> {
    let detail = &raw_eval["reference_answers"];
    match &raw.eval.reference_answers {
        Some(Lenient::Typed(a)) if !a.approaches().is_empty() => a
            .approaches()
            .into_iter()
            .map(|(name, v)| {
                let mut one = serde_json::Map::new();
                one.insert(name.to_owned(), v.clone());
                flag(&format!("string_match.{name}"), Reason::Answer, one.into())
            })
            .collect(),
        _ => vec![flag(
            "string_match",
            shape("eval.reference_answers", "an object of approaches"),
            detail.clone(),
        )],
    }
}

/// `url_match`, or the flagged record; `Err` only for a placeholder without a base URL.
fn url_match(
    raw: &WebArenaTask,
    raw_eval: &Value,
    sites: &SiteMap,
) -> Result<Result<MappedCheck, Unsupported>, String> {
    let detail =
        json!({"reference_url": raw_eval["reference_url"], "url_note": raw_eval["url_note"]});
    let not = |reason| Ok(Err(flag("url_match", reason, detail.clone())));
    if let Some(rule) = raw.eval.url_note.as_ref().filter(|r| *r != "GOLD in PRED") {
        return not(Reason::UrlRule { rule: rule.clone() });
    }
    let Some(reference) = raw
        .eval
        .reference_url
        .as_ref()
        .filter(|r| !r.trim().is_empty())
    else {
        return not(shape("eval.reference_url", "a URL"));
    };
    let resolved = sites.resolve(reference)?;
    Ok(match url::assertions(&resolved) {
        Ok(assertions) => Ok(MappedCheck {
            kind: "url_match".into(),
            assertions,
        }),
        Err(why) => Err(flag(
            "url_match",
            Reason::Shape {
                field: "eval.reference_url".into(),
                expected: format!("a URL ({why})"),
            },
            detail,
        )),
    })
}

fn flag(kind: &str, reason: Reason, detail: Value) -> Unsupported {
    Unsupported {
        benchmark: Benchmark::WebArena,
        kind: kind.to_owned(),
        reason,
        detail,
    }
}

fn shape(field: &str, expected: &str) -> Reason {
    Reason::Shape {
        field: field.to_owned(),
        expected: expected.to_owned(),
    }
}
