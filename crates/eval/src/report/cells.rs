//! Table cells shared by the Markdown and HTML reports: one wording for both.

use crate::scorecard::{RunCard, Summary, TaskCard};
use crate::stats::Percentiles;
use crate::task::{Category, Expectation, TaskId};

/// A metric row of the side-by-side summary: its label and a cell per run.
pub(super) fn summary_rows(runs: &[RunCard]) -> Vec<(&'static str, Vec<String>)> {
    let row = |label, f: &dyn Fn(&Summary) -> String| {
        (label, runs.iter().map(|r| f(&r.summary)).collect())
    };
    vec![
        row("tasks passed", &|s| {
            format!("{}/{} ({})", s.passed, s.tasks, percent(s.success_rate))
        }),
        row("positive tasks passed", &|s| {
            format!("{}/{}", s.positive_passed, s.positive_tasks)
        }),
        row("negative tasks handed back correctly", &|s| {
            format!("{}/{}", s.negative_passed, s.negative_tasks)
        }),
        row("false completions", &|s| s.false_completions.to_string()),
        row("mean reward", &|s| format!("{:.3}", s.mean_reward)),
        row("mean steps", &|s| format!("{:.2}", s.mean_steps)),
        row("step efficiency (steps / reference)", &|s| {
            s.step_efficiency.map_or("–".into(), |e| format!("{e:.2}"))
        }),
        row("step latency p50 / p95 / p99 (ms)", &|s| {
            pct(s.step_latency_ms)
        }),
        row("decision latency p50 / p95 / p99 (µs)", &|s| {
            pct(s.decision_latency_us)
        }),
        row("stale retries", &|s| s.stale_retries.to_string()),
        row("escalations", &|s| s.escalations.to_string()),
        row("local recoveries", &|s| s.local_recoveries.to_string()),
        row("model calls", &|s| s.model_calls.to_string()),
        row("tokens in / out", &|s| {
            format!("{} / {}", s.tokens.input, s.tokens.output)
        }),
        row("cost (USD)", &|s| format!("{:.4}", s.cost_usd)),
        row("wall time, all tasks (s)", &|s| {
            format!("{:.1}", s.wall_ms as f64 / 1000.0)
        }),
    ]
}

pub(super) fn percent(r: f64) -> String {
    format!("{:.1} %", r * 100.0)
}

pub(super) fn pct(p: Option<Percentiles>) -> String {
    p.map_or("–".into(), |p| {
        format!("{} / {} / {}", p.p50, p.p95, p.p99)
    })
}

/// One task's outcome in one mode, in a few words.
pub(super) fn outcome(t: &TaskCard) -> String {
    let status = t.status.map(|s| s.as_str()).unwrap_or("no status");
    format!("{status} · {} · {} ms", steps(t.steps), t.wall_ms)
}

pub(super) fn steps(n: u32) -> String {
    if n == 1 {
        "1 step".into()
    } else {
        format!("{n} steps")
    }
}

/// Every task id in run order (the first run's order, then any only later runs have),
/// with its category and expectation.
pub(super) fn task_rows(runs: &[RunCard]) -> Vec<(TaskId, Category, Expectation)> {
    let mut rows: Vec<(TaskId, Category, Expectation)> = Vec::new();
    for r in runs {
        for t in &r.tasks {
            if !rows.iter().any(|(id, ..)| id == &t.id) {
                rows.push((t.id.clone(), t.category.clone(), t.expected.clone()));
            }
        }
    }
    rows
}

pub(super) fn find<'r>(run: &'r RunCard, id: &TaskId) -> Option<&'r TaskCard> {
    run.tasks.iter().find(|t| &t.id == id)
}
