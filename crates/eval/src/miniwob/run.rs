//! The MiniWoB++ runner: for each task and seed, start the episode, plan the utterance
//! into a Subtask, run the executor on the page, then read the page's reward.
//!
//! One browser serves every episode (each episode reloads its task page, which also kills
//! the previous document's timers). Episodes run one after another: the page's reward
//! decays with wall time, so sharing the CPU between episodes would cost reward.

use super::episode::{read_reward, stop_episode, HarnessOptions, MiniwobHost, Started};
use super::error::MiniwobError;
use super::fetch::ensure_pages;
use super::lent::Lent;
use super::planner::plan;
use super::result::{EpisodeRecord, MiniwobResult};
use super::tasks::TaskName;
use super::utterance::Utterance;
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{
    ContractError, Executor, Policy, RuntimeConfig, SettleConfig, Subtask, TerminalKind,
};
use arc_policy::{Cascade, ReflexPolicy};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Which decision tiers run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyMode {
    /// The reflex policy alone.
    #[default]
    Reflex,
    /// Reflex under the monitors and the escalation controller; with no model
    /// configured, escalation hands back NEEDS_AGENT.
    Cascade,
}

impl PolicyMode {
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyMode::Reflex => "reflex",
            PolicyMode::Cascade => "cascade",
        }
    }

    /// A fresh policy for one episode (no memory carried between episodes).
    pub fn policy(self) -> Box<dyn Policy> {
        match self {
            PolicyMode::Reflex => Box::new(ReflexPolicy::new()),
            PolicyMode::Cascade => Box::new(Cascade::new(Box::new(ReflexPolicy::new()))),
        }
    }
}

#[derive(Clone, Debug)]
pub struct MiniwobOptions {
    /// The html root; `None` fetches the pages into the cache if needed.
    pub html_root: Option<PathBuf>,
    pub tasks: Vec<TaskName>,
    /// Episodes per task, seeded `seed_base … seed_base + seeds − 1`.
    pub seeds: u32,
    pub seed_base: u64,
    pub policy: PolicyMode,
    /// Wall-clock bound on one episode's run (the page's own limit applies too, when
    /// shorter).
    pub episode_timeout: Duration,
    pub settle: SettleConfig,
    /// How long the runtime's WAIT lasts (the reflex waits at most twice for a criterion
    /// to come true after acting).
    pub wait: Duration,
    pub browser: BrowserOptions,
    pub harness: HarnessOptions,
}

impl Default for MiniwobOptions {
    fn default() -> Self {
        MiniwobOptions {
            html_root: None,
            tasks: TaskName::registered(),
            seeds: 3,
            seed_base: 0,
            policy: PolicyMode::Reflex,
            episode_timeout: Duration::from_secs(10),
            settle: miniwob_settle(),
            wait: MINIWOB_WAIT,
            browser: BrowserOptions::default(),
            harness: HarnessOptions::default(),
        }
    }
}

/// WAIT on MiniWoB++ pages: a synchronous page that has settled has nothing left to show.
pub const MINIWOB_WAIT: Duration = Duration::from_millis(150);

/// Settling on MiniWoB++ pages: they react synchronously (jQuery UI animations at most
/// ~400 ms), so a shorter quiet window and reaction window than the general defaults.
pub fn miniwob_settle() -> SettleConfig {
    SettleConfig {
        poll: Duration::from_millis(10),
        quiet: Duration::from_millis(60),
        reaction: Duration::from_millis(150),
        cap: Duration::from_secs(2),
    }
}

impl MiniwobOptions {
    /// The seeds each task runs with.
    pub fn seed_list(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.seeds as u64).map(|i| self.seed_base + i)
    }

    fn check(&self) -> Result<(), MiniwobError> {
        if self.tasks.is_empty() {
            return Err(MiniwobError::Options("no tasks".into()));
        }
        if self.seeds == 0 {
            return Err(MiniwobError::Options("seeds must be at least 1".into()));
        }
        if self.seed_base.checked_add(self.seeds as u64).is_none() {
            return Err(MiniwobError::Options("seed range overflows".into()));
        }
        if self.episode_timeout.is_zero() {
            return Err(MiniwobError::Options(
                "episode timeout must be positive".into(),
            ));
        }
        Ok(())
    }
}

/// Runs every task × seed with the policy `opts.policy` names.
pub async fn run_miniwob(opts: &MiniwobOptions) -> Result<MiniwobResult, MiniwobError> {
    let mode = opts.policy;
    run_miniwob_with(opts, mode.as_str(), |_| mode.policy(), |_| {}).await
}

/// [`run_miniwob`] with any policy (`policy` makes a fresh one per episode and gets the
/// episode's index, never its task) and a callback after each episode (progress).
pub async fn run_miniwob_with(
    opts: &MiniwobOptions,
    policy_name: &str,
    mut policy: impl FnMut(usize) -> Box<dyn Policy>,
    mut on_episode: impl FnMut(&EpisodeRecord),
) -> Result<MiniwobResult, MiniwobError> {
    opts.check()?;
    let root = match &opts.html_root {
        Some(root) => root.clone(),
        None => tokio::task::spawn_blocking(ensure_pages)
            .await
            .map_err(|e| MiniwobError::Options(format!("fetch task failed: {e}")))??,
    };
    for task in &opts.tasks {
        task.check_exists(&root)?;
    }
    let host = MiniwobHost::start(&root, opts.harness.clone()).await?;
    let mut backend = BrowserBackend::start(opts.browser.clone(), "about:blank").await?;
    let mut records = Vec::new();
    let mut index = 0;
    for task in &opts.tasks {
        for seed in opts.seed_list() {
            let record = episode(&host, &mut backend, opts, task, seed, policy(index)).await;
            index += 1;
            on_episode(&record);
            records.push(record);
        }
    }
    backend.close().await;
    Ok(MiniwobResult::new(
        policy_name,
        opts.seeds,
        opts.seed_base,
        records,
    ))
}

/// Grace beyond the runtime's own timeout before the harness abandons a run.
const ABANDON_GRACE: Duration = Duration::from_secs(10);

/// Turns an utterance into the runtime's Subtask: [`plan`], or a test's variant of it.
pub type Planner = fn(&Utterance) -> Result<Subtask, ContractError>;

/// One episode with the deterministic planner; harness failures become a record with
/// `error`, never a panic.
pub async fn episode(
    host: &MiniwobHost,
    backend: &mut BrowserBackend,
    opts: &MiniwobOptions,
    task: &TaskName,
    seed: u64,
    policy: Box<dyn Policy>,
) -> EpisodeRecord {
    episode_with(host, backend, opts, task, seed, plan, policy).await
}

/// [`episode`] with another planner (e.g. one that plants a wrong literal).
pub async fn episode_with(
    host: &MiniwobHost,
    backend: &mut BrowserBackend,
    opts: &MiniwobOptions,
    task: &TaskName,
    seed: u64,
    planner: Planner,
    policy: Box<dyn Policy>,
) -> EpisodeRecord {
    let started = match host.begin(backend, task, seed).await {
        Ok(s) => s,
        Err(e) => return EpisodeRecord::failed(task, seed, String::new(), e.to_string()),
    };
    let Started {
        utterance,
        max_time,
        ..
    } = started;
    let fail = |e: String| EpisodeRecord::failed(task, seed, utterance.text.clone(), e);
    let subtask = match planner(&utterance) {
        Ok(s) => s,
        Err(e) => return fail(format!("planner: {e}")),
    };
    let timeout = opts.episode_timeout.min(max_time);
    let config = RuntimeConfig {
        settle: opts.settle,
        timeout: Some(timeout),
        action_timeout: Duration::from_secs(5),
        wait: opts.wait,
        ..RuntimeConfig::default()
    };
    let clock = Instant::now();
    let result = {
        let mut executor = Executor::new(Lent(&mut *backend), policy, config);
        tokio::time::timeout(timeout + ABANDON_GRACE, executor.run(&subtask)).await
    };
    let wall_ms = clock.elapsed().as_millis() as u64;
    // Freeze first, then read: the page's own timer cannot score between the two.
    let page = backend.page();
    let reward = match stop_episode(page).await {
        Ok(_) => read_reward(page).await,
        Err(e) => Err(e),
    };
    let mut record = EpisodeRecord::new(task, seed, utterance.text.clone());
    record.input_keys = subtask.inputs.keys().cloned().collect();
    record.verification = subtask.verification.clone();
    record.wall_ms = wall_ms;
    match result {
        Ok(result) => {
            record.status = Some(result.status);
            record.termination = Some(result.termination);
            record.reason = result.reason.clone();
            record.steps = result.actions_taken;
            record.stale_retries = result.observations.len() as u32;
        }
        Err(_) => {
            record.error = Some(format!(
                "the run did not return within {} ms; abandoned",
                (timeout + ABANDON_GRACE).as_millis()
            ))
        }
    }
    match reward {
        Ok(r) => {
            record.success = r.success();
            record.done = r.done;
            record.raw_reward = r.raw;
            record.reward = r.reward;
            record.reward_reason = r.reason;
        }
        Err(e) => record.error = Some(format!("reading the reward: {e}")),
    }
    record.false_complete = record.status == Some(TerminalKind::SubtaskComplete) && !record.success;
    record
}
