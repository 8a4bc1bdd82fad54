//! What a MiniWoB++ run produces. Each episode is a shared [`TaskResult`] (so the
//! scorecard, reports, shards and merge are the fixture suite's) carrying an [`Episode`];
//! [`MiniwobResult`] is the compact summary `eval miniwob --json` prints: one record per
//! episode, one row per task, the overall success rate. Success is the page's raw reward
//! above 0, never the runtime's claim; a SUBTASK_COMPLETE the page scored ≤ 0 is flagged
//! `false_complete`.

use super::tasks::{TaskKind, TaskName};
use crate::result::{Agreement, SuiteKind, SuiteResult, TaskResult};
use arc_core::{TerminalKind, Termination};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The MiniWoB++ side of one episode's [`TaskResult`] (whose `reward` is the page's raw
/// reward and `success` raw > 0 with the episode done).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Episode {
    pub task: TaskName,
    pub seed: u64,
    /// The page's instruction; page text, so escaped wherever it is shown.
    pub utterance: String,
    /// The planner's input keys and criteria (literals stay in the utterance).
    pub input_keys: Vec<String>,
    pub verification: Vec<String>,
    /// The page ended the episode (`WOB_DONE_GLOBAL`).
    pub done: bool,
    /// `WOB_REWARD_GLOBAL`: the raw reward decayed by the time taken.
    pub decayed_reward: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward_reason: Option<String>,
}

/// Which MiniWoB++ run a result belongs to: the shards of one run share it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    pub tasks: Vec<TaskName>,
    pub seeds: u32,
    pub seed_base: u64,
    /// The policy's name (`reflex`, `cascade`, or a test's own).
    pub policy: String,
}

impl fmt::Display for RunSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} task{} × {} seed{} from {}, policy {}",
            self.tasks.len(),
            if self.tasks.len() == 1 { "" } else { "s" },
            self.seeds,
            if self.seeds == 1 { "" } else { "s" },
            self.seed_base,
            self.policy
        )
    }
}

/// One episode: what the runtime was told, what it said, what the page scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRecord {
    pub task: TaskName,
    pub seed: u64,
    pub utterance: String,
    /// The planner's input keys and criteria (literals stay in the utterance).
    pub input_keys: Vec<String>,
    pub verification: Vec<String>,
    /// The runtime's terminal status; `None` when the harness failed before or during
    /// the run (`error` says why).
    pub status: Option<TerminalKind>,
    pub termination: Option<Termination>,
    pub reason: Option<String>,
    /// The page ended the episode (`WOB_DONE_GLOBAL`).
    pub done: bool,
    pub raw_reward: f64,
    pub reward: f64,
    pub reward_reason: Option<String>,
    pub success: bool,
    /// SUBTASK_COMPLETE, but the page scored ≤ 0 (or never finished the episode).
    pub false_complete: bool,
    /// The runtime's status against the page's verdict.
    pub agreement: Agreement,
    pub steps: u32,
    /// Decisions dropped because their target changed before the action.
    pub stale_retries: u32,
    /// The runtime's run, from the first observation to its result.
    pub wall_ms: u64,
    pub error: Option<String>,
}

impl EpisodeRecord {
    /// A record with nothing run yet.
    pub fn new(task: &TaskName, seed: u64, utterance: String) -> Self {
        EpisodeRecord {
            task: task.clone(),
            seed,
            utterance,
            input_keys: Vec::new(),
            verification: Vec::new(),
            status: None,
            termination: None,
            reason: None,
            done: false,
            raw_reward: 0.0,
            reward: 0.0,
            reward_reason: None,
            success: false,
            false_complete: false,
            agreement: Agreement::NotJudged,
            steps: 0,
            stale_retries: 0,
            wall_ms: 0,
            error: None,
        }
    }

    /// The record of an episode's result; none for a result that is not an episode.
    pub fn from_result(t: &TaskResult) -> Option<Self> {
        let e = t.episode.as_ref()?;
        Some(EpisodeRecord {
            task: e.task.clone(),
            seed: e.seed,
            utterance: e.utterance.clone(),
            input_keys: e.input_keys.clone(),
            verification: e.verification.clone(),
            status: t.status,
            termination: t.termination,
            reason: t.reason.clone(),
            done: e.done,
            raw_reward: t.reward,
            reward: e.decayed_reward,
            reward_reason: e.reward_reason.clone(),
            success: t.success,
            false_complete: t.agreement() == Agreement::FalseCompletion,
            agreement: t.agreement(),
            steps: t.steps,
            stale_retries: t.stale_retries,
            wall_ms: t.run_ms,
            error: t.error.clone(),
        })
    }

    /// A row for an episode the harness could not run.
    pub fn failed(task: &TaskName, seed: u64, utterance: String, error: String) -> Self {
        EpisodeRecord {
            error: Some(error),
            ..EpisodeRecord::new(task, seed, utterance)
        }
    }
}

/// One task over all its seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRow {
    pub task: TaskName,
    pub kind: Option<TaskKind>,
    pub episodes: u32,
    /// SUBTASK_COMPLETE and the page succeeded.
    pub agreed: u32,
    /// The page succeeded, the runtime handed back.
    pub handbacks_on_success: u32,
    pub successes: u32,
    pub success_rate: f64,
    pub mean_raw_reward: f64,
    pub median_wall_ms: u64,
    pub mean_steps: f64,
    pub false_completes: u32,
    pub errors: u32,
    /// Episodes per terminal status (`SUBTASK_COMPLETE`, `NEEDS_AGENT`, …, `ERROR`).
    pub statuses: BTreeMap<String, u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MiniwobResult {
    pub policy: String,
    pub seeds: u32,
    pub seed_base: u64,
    pub episodes: u32,
    /// SUBTASK_COMPLETE and the page succeeded: the headline.
    pub agreed: u32,
    pub agreed_rate: f64,
    pub handbacks_on_success: u32,
    pub successes: u32,
    /// Page successes over all episodes of all tasks.
    pub success_rate: f64,
    pub false_completes: u32,
    pub median_wall_ms: u64,
    /// One row per task, in the order run.
    pub tasks: Vec<TaskRow>,
    pub records: Vec<EpisodeRecord>,
}

impl MiniwobResult {
    /// The summary of a MiniWoB++ run (or a merge of its shards); none for a task-suite run.
    pub fn from_run(run: &SuiteResult) -> Option<Self> {
        let SuiteKind::Miniwob(spec) = &run.kind else {
            return None;
        };
        let records = run.tasks.iter().filter_map(EpisodeRecord::from_result);
        Some(MiniwobResult::new(
            &spec.policy,
            spec.seeds,
            spec.seed_base,
            records.collect(),
        ))
    }

    pub fn new(policy: &str, seeds: u32, seed_base: u64, records: Vec<EpisodeRecord>) -> Self {
        let mut order: Vec<&TaskName> = Vec::new();
        for r in &records {
            if !order.contains(&&r.task) {
                order.push(&r.task);
            }
        }
        let tasks: Vec<TaskRow> = order
            .iter()
            .map(|t| row(t, records.iter().filter(|r| &r.task == *t)))
            .collect();
        let successes = records.iter().filter(|r| r.success).count() as u32;
        let episodes = records.len() as u32;
        let agreed = count(records.iter(), Agreement::AgreedSuccess);
        MiniwobResult {
            agreed,
            agreed_rate: ratio(agreed, episodes),
            handbacks_on_success: count(records.iter(), Agreement::HandBackOnSuccess),
            policy: policy.to_owned(),
            seeds,
            seed_base,
            episodes,
            successes,
            success_rate: ratio(successes, episodes),
            false_completes: records.iter().filter(|r| r.false_complete).count() as u32,
            median_wall_ms: median(records.iter().map(|r| r.wall_ms).collect()),
            tasks,
            records,
        }
    }

    /// The per-task table in Markdown (agreed successes, hand-backs on success, page
    /// successes, median wall time, mean steps, statuses).
    pub fn to_markdown(&self) -> String {
        let mut out = String::from(
            "| task | agreed | hand-backs on success | page success | median wall ms | mean steps | statuses |\n|---|---:|---:|---:|---:|---:|---|\n",
        );
        for t in &self.tasks {
            let statuses: Vec<String> =
                t.statuses.iter().map(|(k, v)| format!("{k} {v}")).collect();
            out.push_str(&format!(
                "| {} | {}/{} | {} | {}/{} ({:.0} %) | {} | {:.1} | {} |\n",
                t.task,
                t.agreed,
                t.episodes,
                t.handbacks_on_success,
                t.successes,
                t.episodes,
                100.0 * t.success_rate,
                t.median_wall_ms,
                t.mean_steps,
                statuses.join(", ")
            ));
        }
        out.push_str(&format!(
            "| **all** | {}/{} ({:.1} %) | {} | {}/{} ({:.1} %) | {} | | false completes: {} |\n",
            self.agreed,
            self.episodes,
            100.0 * self.agreed_rate,
            self.handbacks_on_success,
            self.successes,
            self.episodes,
            100.0 * self.success_rate,
            self.median_wall_ms,
            self.false_completes
        ));
        out
    }
}

fn row<'a>(task: &TaskName, records: impl Iterator<Item = &'a EpisodeRecord>) -> TaskRow {
    let records: Vec<&EpisodeRecord> = records.collect();
    let n = records.len() as u32;
    let successes = records.iter().filter(|r| r.success).count() as u32;
    let mut statuses = BTreeMap::new();
    for r in &records {
        let key = r
            .status
            .map(|s| s.as_str().to_owned())
            .unwrap_or_else(|| "ERROR".into());
        *statuses.entry(key).or_insert(0) += 1;
    }
    let mean = |f: &dyn Fn(&EpisodeRecord) -> f64| {
        if n == 0 {
            0.0
        } else {
            records.iter().map(|r| f(r)).sum::<f64>() / n as f64
        }
    };
    TaskRow {
        task: task.clone(),
        kind: task.kind(),
        episodes: n,
        agreed: count(records.iter().copied(), Agreement::AgreedSuccess),
        handbacks_on_success: count(records.iter().copied(), Agreement::HandBackOnSuccess),
        successes,
        success_rate: ratio(successes, n),
        mean_raw_reward: mean(&|r| r.raw_reward),
        median_wall_ms: median(records.iter().map(|r| r.wall_ms).collect()),
        mean_steps: mean(&|r| r.steps as f64),
        false_completes: records.iter().filter(|r| r.false_complete).count() as u32,
        errors: records.iter().filter(|r| r.error.is_some()).count() as u32,
        statuses,
    }
}

fn count<'a>(records: impl Iterator<Item = &'a EpisodeRecord>, a: Agreement) -> u32 {
    records.filter(|r| r.agreement == a).count() as u32
}

fn ratio(a: u32, b: u32) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The lower median (an observed value, not an average of two); 0 for none.
fn median(v: Vec<u64>) -> u64 {
    crate::stats::median(v).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(task: &str, success: bool, status: TerminalKind, wall: u64) -> EpisodeRecord {
        let mut r = EpisodeRecord::new(&TaskName::new(task).unwrap(), 0, String::new());
        r.status = Some(status);
        r.success = success;
        r.done = true;
        r.raw_reward = if success { 1.0 } else { -1.0 };
        r.false_complete = status == TerminalKind::SubtaskComplete && !success;
        r.agreement = Agreement::of(success, status);
        r.wall_ms = wall;
        r.steps = 2;
        r
    }

    #[test]
    fn rows_and_totals_aggregate_per_task() {
        let res = MiniwobResult::new(
            "reflex",
            2,
            0,
            vec![
                rec("a", true, TerminalKind::SubtaskComplete, 100),
                rec("a", false, TerminalKind::SubtaskComplete, 300),
                rec("b", false, TerminalKind::NeedsAgent, 50),
                rec("b", false, TerminalKind::Blocked, 70),
            ],
        );
        assert_eq!(res.episodes, 4);
        assert_eq!(res.successes, 1);
        assert_eq!(res.success_rate, 0.25);
        assert_eq!(res.false_completes, 1);
        assert_eq!(res.tasks.len(), 2);
        assert_eq!(res.tasks[0].median_wall_ms, 100);
        assert_eq!(res.tasks[0].success_rate, 0.5);
        assert_eq!(res.tasks[1].statuses.get("BLOCKED"), Some(&1));
        assert_eq!(res.agreed, 1);
        assert_eq!(res.handbacks_on_success, 0);
        assert!(res
            .to_markdown()
            .contains("| a | 1/2 | 0 | 1/2 (50 %) | 100 | 2.0 |"));
    }
}
