//! The MiniWoB++ runner: for each task and seed, start the episode, plan the utterance
//! into a Subtask, run the executor on the page (the task-file runner's `drive`, so the
//! same trace, latencies, stale retries and tier counts), then read the page's reward.
//!
//! One browser serves every episode (each episode reloads its task page, which also kills
//! the previous document's timers). Episodes run one after another: the page's reward
//! decays with wall time, so sharing the CPU between episodes would cost reward.

use super::episode::{read_reward, stop_episode, task_area, MiniwobHost};
use super::error::MiniwobError;
use super::fetch::ensure_pages;
use super::options::{MiniwobOptions, Slot};
use super::planner::plan;
use super::result::{Episode, RunSpec};
use super::score::{judge, not_run};
use super::utterance::Utterance;
use crate::progress::Progress;
use crate::result::{SuiteKind, SuiteResult, TaskResult};
use crate::runner::drive::drive;
use crate::runner::score::Measured;
use crate::runner::shots::{capture, Shots};
use crate::runner::Stack;
use arc_browser::backend::BrowserBackend;
use arc_core::{ContractError, RuntimeConfig, Subtask};
use std::time::{Duration, Instant};

/// Runs every task × seed (those of `opts.shard`) with the stack `opts.policy` names.
pub async fn run_miniwob(opts: &MiniwobOptions) -> Result<SuiteResult, MiniwobError> {
    let mode = opts.policy;
    run_miniwob_with(opts, mode.as_str(), |_| Stack::new(mode), |_| {}).await
}

/// [`run_miniwob`] with any policy stack (`stack` makes a fresh one per episode and gets
/// the episode's position, never its task), named `policy_name` in the result, and a
/// callback before the first episode and after each (progress).
pub async fn run_miniwob_with(
    opts: &MiniwobOptions,
    policy_name: &str,
    mut stack: impl FnMut(usize) -> Stack,
    mut on_progress: impl FnMut(Progress<'_>),
) -> Result<SuiteResult, MiniwobError> {
    opts.check()?;
    let started = Instant::now();
    let root = match &opts.html_root {
        Some(root) => root.clone(),
        None => tokio::task::spawn_blocking(ensure_pages)
            .await
            .map_err(|e| MiniwobError::Options(format!("fetch task failed: {e}")))??,
    };
    for task in &opts.tasks {
        task.check_exists(&root)?;
    }
    let slots = opts.chosen_slots();
    let (mode, total) = (opts.policy, slots.len());
    on_progress(Progress::Begin { mode, total });
    let host = MiniwobHost::start(&root, opts.harness.clone()).await?;
    let mut backend = BrowserBackend::start(opts.browser.clone(), "about:blank").await?;
    let mut results = Vec::with_capacity(total);
    for (n, slot) in slots.iter().enumerate() {
        let policy = stack(slot.position);
        let result = episode(&host, &mut backend, opts, slot, policy).await;
        on_progress(Progress::Finished {
            mode,
            n: n + 1,
            total,
            result: &result,
        });
        results.push(result);
    }
    backend.close().await;
    let spec = RunSpec {
        tasks: opts.tasks.clone(),
        seeds: opts.seeds,
        seed_base: opts.seed_base,
        policy: policy_name.to_owned(),
    };
    Ok(SuiteResult {
        kind: SuiteKind::Miniwob(spec),
        mode,
        suite_size: opts.slots().len(),
        shard: opts.shard,
        tasks: results,
        wall_ms: started.elapsed().as_millis() as u64,
    })
}

/// Grace beyond the runtime's own timeout before the harness abandons a run.
const ABANDON_GRACE: Duration = Duration::from_secs(10);

/// Turns an utterance into the runtime's Subtask: [`plan`], or a test's variant of it.
pub type Planner = fn(&Utterance) -> Result<Subtask, ContractError>;

/// One episode with the deterministic planner; harness failures become a result with
/// `error`, never a panic.
pub async fn episode(
    host: &MiniwobHost,
    backend: &mut BrowserBackend,
    opts: &MiniwobOptions,
    slot: &Slot,
    stack: Stack,
) -> TaskResult {
    episode_with(host, backend, opts, slot, plan, stack).await
}

/// [`episode`] with another planner (e.g. one that plants a wrong literal).
pub async fn episode_with(
    host: &MiniwobHost,
    backend: &mut BrowserBackend,
    opts: &MiniwobOptions,
    slot: &Slot,
    planner: Planner,
    stack: Stack,
) -> TaskResult {
    let clock = Instant::now();
    let mut info = Episode::new(slot);
    let started = match host.begin(backend, &slot.task, slot.seed).await {
        Ok(s) => s,
        Err(e) => return not_run(slot, info, e.to_string(), clock.elapsed()),
    };
    info.utterance = started.utterance.text.clone();
    let subtask = match planner(&started.utterance) {
        Ok(s) => s,
        Err(e) => return not_run(slot, info, format!("planner: {e}"), clock.elapsed()),
    };
    info.input_keys = subtask.inputs.keys().cloned().collect();
    // The report shows the utterance and criteria: a password they quote goes.
    let redactor = arc_core::Redactor::for_subtask(&subtask);
    redactor.redact_string(&mut info.utterance);
    info.verification = subtask
        .verification
        .iter()
        .map(|c| c.text().into_owned())
        .collect();
    info.verification
        .iter_mut()
        .for_each(|c| redactor.redact_string(c));
    let (start_screenshot, clip) = match opts.screenshots {
        true => {
            let clip = task_area(backend.page()).await;
            (capture(backend.page(), clip).await, clip)
        }
        false => (None, None),
    };
    let timeout = opts.episode_timeout.min(started.max_time);
    let config = RuntimeConfig {
        settle: opts.settle,
        timeout: Some(timeout),
        action_timeout: Duration::from_secs(5),
        wait: opts.wait,
        ..RuntimeConfig::default()
    };
    let run_clock = Instant::now();
    let shots = Shots::new(&mut *backend, opts.screenshots).clipped(clip);
    let latest = shots.latest();
    let bound = timeout + ABANDON_GRACE;
    let run = drive(shots, stack, &subtask, config, latest);
    let measured = match tokio::time::timeout(bound, run).await {
        Ok(driven) => Measured::from_driven(&driven, Vec::new(), start_screenshot),
        Err(_) => Measured::error(format!(
            "the run did not return within {} ms; abandoned",
            bound.as_millis()
        )),
    };
    let run_ms = run_clock.elapsed().as_millis() as u64;
    // Freeze first, then read: the page's own timer cannot score between the two.
    let page = backend.page();
    let reward = match stop_episode(page).await {
        Ok(_) => read_reward(page).await,
        Err(e) => Err(e),
    };
    judge(slot, info, measured, reward, run_ms, clock.elapsed())
}
