//! The scorecard: per task and per run (mode), the agreement between the runtime's status
//! and the page (agreed successes, hand-backs on success, false completions), the success rate, reward, steps, step
//! efficiency, latency percentiles, stale retries, escalations, model use and cost.
//! Several runs (modes) side by side in one scorecard are what the reports compare. A
//! MiniWoB++ run's card also summarizes each task over its seeds (`groups`).

use crate::miniwob::{TaskKind, TaskName};
use crate::result::{Agreement, Mode, SuiteKind, SuiteResult, TaskResult, Tokens};
use crate::stats::{mean, median, Percentiles};
use serde::{Deserialize, Serialize};

pub use crate::pricing::Pricing;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scorecard {
    pub pricing: Pricing,
    /// One per mode, in the order given.
    pub runs: Vec<RunCard>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunCard {
    #[serde(default)]
    pub kind: SuiteKind,
    pub mode: Mode,
    pub summary: Summary,
    /// MiniWoB++: one per task, over its seeds, in run order; empty for task suites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupCard>,
    /// MiniWoB++: one per task kind present, in `TaskKind::ALL` order (then tasks outside
    /// the registered list); empty for task suites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<KindCard>,
    pub tasks: Vec<TaskCard>,
}

/// The MiniWoB++ episodes of one kind of task (`None`: a task outside the registered list).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindCard {
    pub kind: Option<TaskKind>,
    /// How many tasks of this kind ran.
    pub task_count: usize,
    pub summary: Summary,
}

impl KindCard {
    pub fn label(&self) -> &'static str {
        self.kind.map_or("other", TaskKind::label)
    }
}

/// One MiniWoB++ task over its seeds: its episodes summarized like a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupCard {
    pub task: TaskName,
    pub summary: Summary,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    pub tasks: usize,
    pub passed: usize,
    pub success_rate: f64,
    pub mean_reward: f64,
    /// Tasks that expect SUBTASK_COMPLETE, and how many of them passed.
    pub positive_tasks: usize,
    pub positive_passed: usize,
    /// Tasks that expect a hand-back (BLOCKED, NEEDS_AGENT, …), and how many passed.
    pub negative_tasks: usize,
    pub negative_passed: usize,
    /// The runtime said SUBTASK_COMPLETE and the page succeeded (MiniWoB++'s headline).
    #[serde(default)]
    pub agreed_successes: usize,
    #[serde(default)]
    pub agreed_success_rate: f64,
    /// The page succeeded, the runtime handed back.
    #[serde(default)]
    pub handbacks_on_success: usize,
    /// The runtime said SUBTASK_COMPLETE and the page did not succeed.
    pub false_completions: usize,
    pub mean_steps: f64,
    /// Mean of steps / reference_steps over passed tasks that have a reference.
    pub step_efficiency: Option<f64>,
    pub step_latency_ms: Option<Percentiles>,
    pub decision_latency_us: Option<Percentiles>,
    pub stale_retries: u32,
    pub escalations: u32,
    pub local_recoveries: u32,
    pub model_calls: u32,
    pub tokens: Tokens,
    pub cost_usd: f64,
    /// Sum of the tasks' wall times.
    pub wall_ms: u64,
    /// The median task's runtime run (first observation to result), the lower median.
    #[serde(default)]
    pub median_run_ms: u64,
}

/// One task on the card: its result as the run recorded it, plus only what the card
/// derives from it (a new per-task figure goes into `TaskResult`, and so is here too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskCard {
    pub result: TaskResult,
    /// steps / reference_steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_efficiency: Option<f64>,
    pub step_latency_ms: Option<Percentiles>,
    pub decision_latency_us: Option<Percentiles>,
    /// From the tokens and the wall time at the card's `Pricing`.
    pub cost_usd: f64,
}

impl From<&SuiteResult> for Scorecard {
    fn from(run: &SuiteResult) -> Scorecard {
        Scorecard::compare(std::slice::from_ref(run), Pricing::default())
    }
}

impl Scorecard {
    /// One scorecard over several runs (modes) of the same suite, side by side.
    pub fn compare(runs: &[SuiteResult], pricing: Pricing) -> Scorecard {
        Scorecard {
            pricing,
            runs: runs.iter().map(|r| RunCard::new(r, &pricing)).collect(),
        }
    }

    pub fn run(&self, mode: Mode) -> Option<&RunCard> {
        self.runs.iter().find(|r| r.mode == mode)
    }
}

impl RunCard {
    fn new(run: &SuiteResult, pricing: &Pricing) -> RunCard {
        let tasks: Vec<TaskCard> = run
            .tasks
            .iter()
            .map(|t| TaskCard::new(t, pricing))
            .collect();
        RunCard {
            kind: run.kind.clone(),
            mode: run.mode,
            summary: Summary::new(&tasks),
            groups: groups(&tasks),
            kinds: kinds(&tasks),
            tasks,
        }
    }

    /// The card of a MiniWoB++ task, if this run has one.
    pub fn group(&self, task: &TaskName) -> Option<&GroupCard> {
        self.groups.iter().find(|g| &g.task == task)
    }
}

/// Episodes grouped by their task's kind.
fn kinds(cards: &[TaskCard]) -> Vec<KindCard> {
    let kind_of = |c: &TaskCard| c.result.episode.as_ref().map(|e| e.task.kind());
    let wanted = TaskKind::ALL.into_iter().map(Some).chain([None]);
    wanted
        .filter_map(|k| {
            let c: Vec<TaskCard> = cards
                .iter()
                .filter(|c| kind_of(c) == Some(k))
                .cloned()
                .collect();
            if c.is_empty() {
                return None;
            }
            let mut names: Vec<&TaskName> = c
                .iter()
                .filter_map(|c| c.result.episode.as_ref().map(|e| &e.task))
                .collect();
            names.sort();
            names.dedup();
            Some(KindCard {
                kind: k,
                task_count: names.len(),
                summary: Summary::new(&c),
            })
        })
        .collect()
}

/// Episodes grouped by their MiniWoB++ task, in first-seen order.
fn groups(cards: &[TaskCard]) -> Vec<GroupCard> {
    let mut order: Vec<&TaskName> = Vec::new();
    for e in cards.iter().filter_map(|c| c.result.episode.as_ref()) {
        if !order.contains(&&e.task) {
            order.push(&e.task);
        }
    }
    order
        .into_iter()
        .map(|task| {
            let c: Vec<TaskCard> = cards
                .iter()
                .filter(|c| c.result.episode.as_ref().is_some_and(|e| &e.task == task))
                .cloned()
                .collect();
            GroupCard {
                task: task.clone(),
                summary: Summary::new(&c),
            }
        })
        .collect()
}

impl Summary {
    fn new(cards: &[TaskCard]) -> Summary {
        let results = || cards.iter().map(|c| &c.result);
        let n = cards.len();
        let passed = results().filter(|t| t.success).count();
        let positive = |t: &&TaskResult| t.expected.is_positive();
        let all_steps: Vec<u64> = results().flat_map(|t| t.step_latency_ms.clone()).collect();
        let all_decisions: Vec<u64> = results()
            .flat_map(|t| t.decision_latency_us.clone())
            .collect();
        let tokens = results().fold(Tokens::default(), |a, t| Tokens {
            input: a.input + t.tokens.input,
            output: a.output + t.tokens.output,
        });
        let sum = |f: fn(&TaskResult) -> u32| results().map(f).sum::<u32>();
        let agreed = |a: Agreement| results().filter(|t| t.agreement() == a).count();
        Summary {
            tasks: n,
            passed,
            success_rate: ratio(passed, n),
            mean_reward: mean(results().map(|t| t.reward)).unwrap_or(0.0),
            positive_tasks: results().filter(positive).count(),
            positive_passed: results().filter(positive).filter(|t| t.success).count(),
            negative_tasks: results().filter(|t| !positive(t)).count(),
            negative_passed: results()
                .filter(|t| !positive(t))
                .filter(|t| t.success)
                .count(),
            agreed_successes: agreed(Agreement::AgreedSuccess),
            agreed_success_rate: ratio(agreed(Agreement::AgreedSuccess), n),
            handbacks_on_success: agreed(Agreement::HandBackOnSuccess),
            false_completions: agreed(Agreement::FalseCompletion),
            mean_steps: mean(results().map(|t| t.steps as f64)).unwrap_or(0.0),
            step_efficiency: mean(
                cards
                    .iter()
                    .filter(|c| c.result.success)
                    .filter_map(|c| c.step_efficiency),
            ),
            step_latency_ms: Percentiles::of(&all_steps),
            decision_latency_us: Percentiles::of(&all_decisions),
            stale_retries: sum(|t| t.stale_retries),
            escalations: sum(|t| t.escalations),
            local_recoveries: sum(|t| t.local_recoveries),
            model_calls: sum(|t| t.model_calls),
            tokens,
            cost_usd: cards.iter().map(|c| c.cost_usd).sum(),
            wall_ms: results().map(|t| t.wall_ms).sum(),
            median_run_ms: median(results().map(|t| t.run_ms)).unwrap_or(0),
        }
    }
}

fn ratio(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        k as f64 / n as f64
    }
}

impl TaskCard {
    fn new(t: &TaskResult, pricing: &Pricing) -> TaskCard {
        TaskCard {
            step_efficiency: t.reference_steps.map(|r| t.steps as f64 / r as f64),
            step_latency_ms: Percentiles::of(&t.step_latency_ms),
            decision_latency_us: Percentiles::of(&t.decision_latency_us),
            cost_usd: pricing.cost(t.tokens, t.wall_ms),
            result: t.clone(),
        }
    }
}
