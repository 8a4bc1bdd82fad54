//! What a suite run records: per task, the runtime's status next to the harness's own
//! verdict, and the raw measurements the scorecard summarizes.

use crate::assert::AssertionOutcome;
use crate::miniwob::{Episode, RunSpec};
use crate::shard::Shard;
use crate::task::{Category, Expectation, TaskId};
use arc_core::{ActionKind, TerminalKind, Termination, Tier};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which policy stack a suite ran under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// `ReflexPolicy` alone.
    Reflex,
    /// `Cascade` over the reflex policy: monitors and the escalation controller, no model
    /// (an escalation hands the step back as NEEDS_AGENT).
    Cascade,
    /// The cascade with a model endpoint (`RunOptions::model`): its steps where the reflex
    /// hands back, its judgments, its recovery plans.
    CascadeModel,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Reflex => "reflex",
            Mode::Cascade => "cascade",
            Mode::CascadeModel => "cascade+model",
        }
    }

    /// How reports title the mode.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Reflex => "reflex-only",
            Mode::Cascade => "cascade (no model)",
            Mode::CascadeModel => "cascade + model",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "reflex" | "reflex-only" => Ok(Mode::Reflex),
            "cascade" => Ok(Mode::Cascade),
            "cascade+model" => Ok(Mode::CascadeModel),
            _ => Err(format!(
                "unknown mode {s:?} (reflex, cascade, cascade+model)"
            )),
        }
    }
}

/// A screenshot as a `data:` URI, ready to embed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Screenshot(pub String);

/// One executed action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepTrace {
    pub step: u32,
    pub action: ActionKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub state_changed: bool,
    /// Execute + settle + the observation after (the record's `elapsed_ms`).
    pub elapsed_ms: u64,
    pub settle_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The tier that made the step's decision (its provenance).
    pub decided_by: Option<Tier>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<Screenshot>,
}

/// Decisions per cascade tier in one task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierTally {
    pub reflex: u32,
    pub cache: u32,
    pub model: u32,
    pub controller: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskResult {
    pub id: TaskId,
    pub category: Category,
    /// Index in the whole suite (before sharding): merged shards sort by it.
    pub position: usize,
    pub expected: Expectation,
    /// The runtime's final status; none when the harness could not run the task.
    pub status: Option<TerminalKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Each criterion as the runtime judged it, with its evidence (the result's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verification: Vec<arc_core::Verdict>,
    /// Why the harness could not run or judge the task (browser, timeout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub status_ok: bool,
    pub assertions: Vec<AssertionOutcome>,
    /// Every assertion passed and the status was one the task expects.
    pub success: bool,
    pub reward: f64,
    pub steps: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_steps: Option<u32>,
    /// Per executed action (ActionRecord.elapsed_ms).
    pub step_latency_ms: Vec<u64>,
    /// Per decision, measured around `Policy::decide` by the harness, in microseconds
    /// (Decision.latency_ms is whole milliseconds: 0 for every reflex decision).
    pub decision_latency_us: Vec<u64>,
    pub stale_retries: u32,
    pub escalations: u32,
    pub local_recoveries: u32,
    pub model_calls: u32,
    pub tokens: Tokens,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiers: Option<TierTally>,
    /// The executor's own elapsed time.
    pub run_ms: u64,
    /// The whole task: browser start, fingerprint, run, assertions.
    pub wall_ms: u64,
    pub trace: Vec<StepTrace>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_screenshot: Option<Screenshot>,
    /// A MiniWoB++ episode's task, seed, utterance and page reward; none for task files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub episode: Option<Episode>,
}

/// What a run went over: task files (one result per task) or MiniWoB++ episodes (one
/// result per task × seed). Shards merge only with shards of the same kind and spec.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuiteKind {
    /// A suite of task files, such as the fixture suite.
    #[default]
    Tasks,
    Miniwob(RunSpec),
}

impl SuiteKind {
    /// How errors and reports name the kind.
    pub fn describe(&self) -> String {
        match self {
            SuiteKind::Tasks => "a task-suite run".into(),
            SuiteKind::Miniwob(spec) => format!("a MiniWoB++ run ({spec})"),
        }
    }
}

/// One mode's run over a suite (or one shard of it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteResult {
    /// Absent in results written before MiniWoB++ runs had one (task suites).
    #[serde(default)]
    pub kind: SuiteKind,
    pub mode: Mode,
    /// Tasks (MiniWoB++: episodes) in the whole run, whichever shard this is.
    pub suite_size: usize,
    /// Which shard this is; none for a whole run or a merge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub tasks: Vec<TaskResult>,
    /// Elapsed time of the run; a merge adds its shards' times.
    pub wall_ms: u64,
}

/// How the runtime's own word compares with the page's verdict: the status is the product
/// (a planner trusts it), the page's verdict only checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// SUBTASK_COMPLETE, and the page succeeded.
    AgreedSuccess,
    /// The page succeeded, but the runtime handed back (a planner would retry or escalate).
    HandBackOnSuccess,
    /// SUBTASK_COMPLETE, but the page did not succeed.
    FalseCompletion,
    /// The page did not succeed, and the runtime handed back.
    AgreedHandBack,
    /// The harness could not run the task to a status.
    NotJudged,
}

impl TaskResult {
    /// The page's own verdict on the goal, whatever the runtime said: a MiniWoB++ episode's
    /// raw reward > 0; a task file's assertions all passing on a task whose goal can be
    /// reached (a negative task's goal cannot: its assertions check the page stayed put).
    pub fn page_success(&self) -> bool {
        if self.episode.is_some() {
            return self.success;
        }
        self.expected.is_positive()
            && self.error.is_none()
            && !self.assertions.is_empty()
            && self.assertions.iter().all(|a| a.passed())
    }

    pub fn agreement(&self) -> Agreement {
        let Some(status) = self.status else {
            return Agreement::NotJudged;
        };
        Agreement::of(self.page_success(), status)
    }
}

impl Agreement {
    /// The page's verdict against the status the runtime returned.
    pub fn of(page_success: bool, status: TerminalKind) -> Agreement {
        match (page_success, status == TerminalKind::SubtaskComplete) {
            (true, true) => Agreement::AgreedSuccess,
            (true, false) => Agreement::HandBackOnSuccess,
            (false, true) => Agreement::FalseCompletion,
            (false, false) => Agreement::AgreedHandBack,
        }
    }
}

impl SuiteResult {
    pub fn passed(&self) -> usize {
        self.tasks.iter().filter(|t| t.success).count()
    }
}
