//! Table cells shared by the Markdown and HTML reports: one wording for both.

use crate::result::SuiteKind;
use crate::result::TaskResult;
use crate::scorecard::{GroupCard, KindCard, RunCard, Scorecard, Summary};
use crate::stats::Percentiles;
use crate::task::TaskId;

/// The report's title and, for MiniWoB++, what was run.
pub(super) fn title(card: &Scorecard) -> (&'static str, Option<String>) {
    match card.runs.first().map(|r| &r.kind) {
        Some(SuiteKind::Miniwob(spec)) => ("arc-cua MiniWoB++ report", Some(spec.to_string())),
        _ => ("arc-cua evaluation report", None),
    }
}

/// A metric row of the side-by-side summary: its label and a cell per run.
pub(super) fn summary_rows(runs: &[RunCard]) -> Vec<(&'static str, Vec<String>)> {
    let row = |label, f: &dyn Fn(&Summary) -> String| {
        (label, runs.iter().map(|r| f(&r.summary)).collect())
    };
    // Without negative tasks (MiniWoB++) the split repeats "tasks passed".
    let split = runs.iter().any(|r| r.summary.negative_tasks > 0);
    // The runtime's word against the page's: agreed first, it is the headline.
    let mut rows = vec![
        row(
            "agreed successes (SUBTASK_COMPLETE and the page succeeded)",
            &agreed,
        ),
        row(
            "hand-backs on success (the page succeeded, the runtime said otherwise)",
            &|s| s.handbacks_on_success.to_string(),
        ),
        row(
            "false completions (SUBTASK_COMPLETE, the page did not succeed)",
            &|s| s.false_completions.to_string(),
        ),
        row("tasks passed", &passed),
    ];
    if split {
        rows.push(row("positive tasks passed", &|s| {
            format!("{}/{}", s.positive_passed, s.positive_tasks)
        }));
        rows.push(row("negative tasks handed back correctly", &|s| {
            format!("{}/{}", s.negative_passed, s.negative_tasks)
        }));
    }
    rows.extend([
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
        row("median run (ms)", &|s| s.median_run_ms.to_string()),
        row("wall time, all tasks (s)", &|s| {
            format!("{:.1}", s.wall_ms as f64 / 1000.0)
        }),
    ]);
    rows
}

/// The columns of the per-task table of a MiniWoB++ run (one row per task over seeds).
pub(super) const GROUP_HEADERS: [&str; 14] = [
    "task",
    "agreed success",
    "hand-backs on success",
    "false completions",
    "page success",
    "mean reward",
    "median run ms",
    "mean steps",
    "step ms p50/p95/p99",
    "decision µs p50/p95/p99",
    "stale retries",
    "escalations / model calls",
    "cost (USD)",
    "statuses",
];

pub(super) fn group_cells(run: &RunCard, g: &GroupCard) -> Vec<String> {
    let s = &g.summary;
    let episodes = run
        .tasks
        .iter()
        .map(|c| &c.result)
        .filter(|t| t.episode.as_ref().is_some_and(|e| e.task == g.task));
    vec![
        g.task.to_string(),
        agreed(s),
        s.handbacks_on_success.to_string(),
        s.false_completions.to_string(),
        passed(s),
        format!("{:.2}", s.mean_reward),
        s.median_run_ms.to_string(),
        format!("{:.1}", s.mean_steps),
        pct(s.step_latency_ms),
        pct(s.decision_latency_us),
        s.stale_retries.to_string(),
        format!("{} / {}", s.escalations, s.model_calls),
        format!("{:.4}", s.cost_usd),
        statuses(episodes),
    ]
}

/// The columns of the per-kind table of a MiniWoB++ run.
pub(super) const KIND_HEADERS: [&str; 7] = [
    "kind",
    "tasks",
    "agreed success",
    "hand-backs on success",
    "false completions",
    "page success",
    "median run ms",
];

pub(super) fn kind_cells(k: &KindCard) -> Vec<String> {
    let s = &k.summary;
    vec![
        k.label().to_owned(),
        k.task_count.to_string(),
        agreed(s),
        s.handbacks_on_success.to_string(),
        s.false_completions.to_string(),
        passed(s),
        s.median_run_ms.to_string(),
    ]
}

/// Agreed successes of all tasks: `3/5 (60 %)`.
fn agreed(s: &Summary) -> String {
    format!(
        "{}/{} ({})",
        s.agreed_successes,
        s.tasks,
        percent(s.agreed_success_rate)
    )
}

/// Tasks passed (the page's verdict) of all tasks: `3/5 (60 %)`.
fn passed(s: &Summary) -> String {
    format!("{}/{} ({})", s.passed, s.tasks, percent(s.success_rate))
}

/// `SUBTASK_COMPLETE 2, NEEDS_AGENT 1`, in first-seen order.
fn statuses<'a>(tasks: impl Iterator<Item = &'a TaskResult>) -> String {
    let mut counts: Vec<(&str, u32)> = Vec::new();
    for t in tasks {
        let key = match (&t.error, t.status) {
            (Some(_), _) | (None, None) => "harness error",
            (None, Some(s)) => s.as_str(),
        };
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => counts.push((key, 1)),
        }
    }
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    parts.join(", ")
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
pub(super) fn outcome(t: &TaskResult) -> String {
    let status = t.status.map(|s| s.as_str()).unwrap_or("no status");
    match &t.episode {
        Some(_) => format!(
            "{status} · reward {:.2} · {} · {} ms",
            t.reward,
            steps(t.steps),
            t.wall_ms
        ),
        None => format!("{status} · {} · {} ms", steps(t.steps), t.wall_ms),
    }
}

pub(super) fn steps(n: u32) -> String {
    if n == 1 {
        "1 step".into()
    } else {
        format!("{n} steps")
    }
}

/// Every task id in run order (the first run's order, then any only later runs have),
/// with the card that first shows it (for its category, expectation or utterance).
pub(super) fn task_rows(runs: &[RunCard]) -> Vec<&TaskResult> {
    let mut rows: Vec<&TaskResult> = Vec::new();
    for r in runs {
        for t in r.tasks.iter().map(|c| &c.result) {
            if !rows.iter().any(|seen| seen.id == t.id) {
                rows.push(t);
            }
        }
    }
    rows
}

pub(super) fn find<'r>(run: &'r RunCard, id: &TaskId) -> Option<&'r TaskResult> {
    run.tasks.iter().map(|c| &c.result).find(|t| &t.id == id)
}
