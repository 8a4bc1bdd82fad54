//! `arc-cua bench steps`: where a step's time goes — observe, decide, execute, settle —
//! on the fixture site's tasks and on MiniWoB++ episodes, each run by the executor with
//! the reflex policy as `eval` runs it. A wrapper around the backend clocks its calls and
//! one around the policy clocks decisions; settling is the step record's own figure.

use super::bench::percentile;
use crate::browser_args::BrowserArgs;
use crate::exit::{Exit, Failure};
use arc_browser::backend::BrowserBackend;
use arc_browser::StaticServer;
use arc_core::{
    Backend, BackendError, DecideContext, Decision, EffectSample, ExecutableAction,
    ExecutionResult, Executor, ExpectedEffect, Policy, PolicyError, PressFacts, RuntimeConfig,
    SettleEnd, SettleSample, Snapshot, StepEvent, StepOutcome, Subtask,
};
use arc_eval::miniwob::{self, MiniwobHost, TaskKind, TaskName};
use arc_eval::{suite, Mode, Stack, Start};
use async_trait::async_trait;
use clap::Args;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct StepsBench {
    /// MiniWoB++ tasks (comma-separated; default: the registered tasks of kind
    /// click/form).
    #[arg(long, value_delimiter = ',')]
    tasks: Vec<String>,
    /// Seeds per MiniWoB++ task.
    #[arg(long, default_value_t = 5)]
    seeds: u64,
    /// Skip the fixture site's tasks.
    #[arg(long)]
    no_fixtures: bool,
    /// Skip MiniWoB++.
    #[arg(long)]
    no_miniwob: bool,
    /// Also list the N slowest steps (task, action, target, how settling ended): what
    /// makes the p95.
    #[arg(long, default_value_t = 0)]
    worst: usize,
    /// Print the rows as JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    browser: BrowserArgs,
}

/// Per-step times of one site, milliseconds.
#[derive(Default)]
struct Samples {
    observe: Vec<f64>,
    decide: Vec<f64>,
    execute: Vec<f64>,
    settle: Vec<f64>,
    step: Vec<f64>,
    episode: Vec<f64>,
    ends: BTreeMap<&'static str, usize>,
    /// One line per step, for `--worst`.
    slow: Vec<Slow>,
}

/// One step, for the `--worst` listing.
#[derive(Serialize)]
struct Slow {
    step_ms: f64,
    settle_ms: f64,
    end: &'static str,
    run: String,
    what: String,
}

#[derive(Serialize)]
struct Stat {
    p50: f64,
    p95: f64,
}

fn stat(v: &mut [f64]) -> Stat {
    v.sort_by(f64::total_cmp);
    Stat {
        p50: percentile(v, 0.5),
        p95: percentile(v, 0.95),
    }
}

#[derive(Serialize)]
struct Row {
    site: String,
    episodes: usize,
    steps: usize,
    observe_ms: Stat,
    decide_ms: Stat,
    execute_ms: Stat,
    settle_ms: Stat,
    step_ms: Stat,
    episode_ms: Stat,
    /// How settling ended, per end.
    settle_ends: BTreeMap<&'static str, usize>,
    /// The `--worst` slowest steps, slowest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    slowest: Vec<Slow>,
}

impl Samples {
    fn row(mut self, site: &str, worst: usize) -> Row {
        self.slow.sort_by(|a, b| b.step_ms.total_cmp(&a.step_ms));
        self.slow.truncate(worst);
        Row {
            site: site.to_owned(),
            episodes: self.episode.len(),
            steps: self.step.len(),
            observe_ms: stat(&mut self.observe),
            decide_ms: stat(&mut self.decide),
            execute_ms: stat(&mut self.execute),
            settle_ms: stat(&mut self.settle),
            step_ms: stat(&mut self.step),
            episode_ms: stat(&mut self.episode),
            settle_ends: self.ends,
            slowest: self.slow,
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The backend, clocked: every observation, and per action freshness + press facts +
/// execute together (what the loop spends acting, before settling).
struct Clocked<'a> {
    inner: &'a mut BrowserBackend,
    observe: Vec<f64>,
    execute: Vec<f64>,
    acting: Duration,
}

#[async_trait]
impl Backend for Clocked<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        let t = Instant::now();
        let s = self.inner.observe().await;
        self.observe.push(ms(t.elapsed()));
        s
    }
    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        let t = Instant::now();
        let r = self.inner.is_fresh(snapshot, action).await;
        self.acting += t.elapsed();
        r
    }
    async fn press_facts(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        let t = Instant::now();
        let r = self.inner.press_facts(snapshot, action).await;
        self.acting += t.elapsed();
        r
    }
    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<arc_core::Executed, BackendError> {
        let t = Instant::now();
        let r = self.inner.execute(snapshot, action).await;
        let acting = std::mem::take(&mut self.acting) + t.elapsed();
        self.execute.push(ms(acting));
        r
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.inner.settle_probe().await
    }
    async fn settle_probe_for(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        self.inner.settle_probe_for(effect).await
    }
    fn min_settle_cap(&self) -> Duration {
        self.inner.min_settle_cap()
    }
}

/// The policy, clocked.
struct ClockedPolicy {
    inner: Stack,
    decide: Vec<f64>,
}

#[async_trait]
impl Policy for ClockedPolicy {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let t = Instant::now();
        let d = self.inner.decide(ctx).await;
        self.decide.push(ms(t.elapsed()));
        d
    }
    fn finish(&mut self, result: &ExecutionResult) {
        self.inner.finish(result)
    }
}

fn end_name(end: SettleEnd) -> &'static str {
    match end {
        SettleEnd::Quiet => "quiet",
        SettleEnd::Effect => "effect",
        SettleEnd::NoReaction => "no_reaction",
        SettleEnd::Cap => "cap",
        SettleEnd::Interrupted => "interrupted",
        SettleEnd::Skipped => "skipped",
    }
}

/// The registered MiniWoB++ tasks of kind click/form: what the step split is for.
fn default_tasks() -> Vec<TaskName> {
    TaskName::registered()
        .into_iter()
        .filter(|t| t.kind() == Some(TaskKind::ClickForm))
        .collect()
}

/// One executor run on the page `backend` shows, folded into `into`.
async fn run_one(
    backend: &mut BrowserBackend,
    label: &str,
    subtask: &Subtask,
    config: RuntimeConfig,
    into: &mut Samples,
) {
    let clocked = Clocked {
        inner: backend,
        observe: Vec::new(),
        execute: Vec::new(),
        acting: Duration::ZERO,
    };
    let policy = ClockedPolicy {
        inner: Stack::new(Mode::Reflex),
        decide: Vec::new(),
    };
    let mut executor = Executor::new(clocked, policy, config);
    let started = Instant::now();
    let mut steps = Vec::new();
    executor
        .run_with(subtask, |event: StepEvent| {
            if let StepOutcome::Acted { record } = event.outcome {
                let what = format!(
                    "{} {:?}",
                    record.action.kind(),
                    record.target_name.as_deref().unwrap_or("")
                );
                steps.push((record.elapsed_ms as f64, record.settle, what));
            }
        })
        .await;
    into.episode.push(ms(started.elapsed()));
    let (clocked, policy) = executor.into_parts();
    for (step, settle, what) in steps {
        into.slow.push(Slow {
            step_ms: step,
            settle_ms: settle.elapsed_ms as f64,
            end: end_name(settle.end),
            run: label.to_owned(),
            what,
        });
        into.step.push(step);
        into.settle.push(settle.elapsed_ms as f64);
        *into.ends.entry(end_name(settle.end)).or_default() += 1;
    }
    into.observe.extend(clocked.observe);
    into.execute.extend(clocked.execute);
    into.decide.extend(policy.decide);
}

pub async fn run(args: StepsBench) -> Result<Exit, Failure> {
    if args.seeds == 0 {
        return Err((Exit::BadInput, "--seeds must be at least 1".into()));
    }
    let env = |what: &str, e: &dyn std::fmt::Display| (Exit::Environment, format!("{what}: {e}"));
    let mut backend = BrowserBackend::start(args.browser.options(), "about:blank")
        .await
        .map_err(|e| env("cannot start Chromium", &e))?;
    let mut rows = Vec::new();
    if !args.no_fixtures {
        let tasks = suite::fixture_suite().map_err(|e| env("fixture tasks", &e))?;
        let server = StaticServer::start(suite::fixture_site_dir())
            .await
            .map_err(|e| env("fixture site", &e))?;
        let mut samples = Samples::default();
        for task in &tasks {
            let Start::Page(page) = &task.start else {
                continue;
            };
            eprintln!("[fixtures] {}", task.id.as_str());
            backend
                .goto(&server.url(page))
                .await
                .map_err(|e| env(page, &e))?;
            let config = RuntimeConfig {
                timeout: Some(Duration::from_secs(20)),
                ..RuntimeConfig::default()
            };
            run_one(
                &mut backend,
                task.id.as_str(),
                &task.subtask,
                config,
                &mut samples,
            )
            .await;
        }
        rows.push(samples.row("fixture site (reflex, default settling)", args.worst));
    }
    if !args.no_miniwob {
        let names: Vec<TaskName> = if args.tasks.is_empty() {
            default_tasks()
        } else {
            args.tasks
                .iter()
                .map(|t| TaskName::new(t).map_err(|e| (Exit::BadInput, e.to_string())))
                .collect::<Result<_, _>>()?
        };
        let root = tokio::task::spawn_blocking(miniwob::ensure_pages)
            .await
            .map_err(|e| env("fetching MiniWoB++", &e))?
            .map_err(|e| env("fetching MiniWoB++", &e))?;
        let host = MiniwobHost::start(&root, Default::default())
            .await
            .map_err(|e| env("serving MiniWoB++", &e))?;
        let mut samples = Samples::default();
        for name in &names {
            name.check_exists(&root)
                .map_err(|e| (Exit::BadInput, e.to_string()))?;
            eprintln!("[miniwob] {name} × {}", args.seeds);
            for seed in 0..args.seeds {
                let started = host
                    .begin(&mut backend, name, seed)
                    .await
                    .map_err(|e| env(&format!("{name} seed {seed}"), &e))?;
                let subtask = miniwob::plan(&started.utterance)
                    .map_err(|e| env(&format!("{name} seed {seed}: planner"), &e))?;
                let config = RuntimeConfig {
                    settle: miniwob::miniwob_settle(),
                    wait: miniwob::MINIWOB_WAIT,
                    timeout: Some(started.max_time.min(Duration::from_secs(10))),
                    action_timeout: Duration::from_secs(5),
                    ..RuntimeConfig::default()
                };
                let label = format!("{name} #{seed}");
                run_one(&mut backend, &label, &subtask, config, &mut samples).await;
                let _ = miniwob::episode::stop_episode(backend.page()).await;
            }
        }
        rows.push(samples.row("MiniWoB++ click/form (reflex, eval's settling)", args.worst));
    }
    backend.close().await;
    if args.json {
        crate::out::json_line(&rows)?;
        return Ok(Exit::Ok);
    }
    crate::outln!(
        "{:<48} {:>5} {:>5}  {:>13} {:>13} {:>13} {:>13} {:>13} {:>13}",
        "site",
        "runs",
        "steps",
        "observe",
        "decide",
        "execute",
        "settle",
        "step",
        "episode"
    )?;
    crate::outln!(
        "{:<48} {:>5} {:>5}  {:>13} {:>13} {:>13} {:>13} {:>13} {:>13}",
        "",
        "",
        "",
        "p50 / p95 ms",
        "p50 / p95 ms",
        "p50 / p95 ms",
        "p50 / p95 ms",
        "p50 / p95 ms",
        "p50 / p95 ms"
    )?;
    let cell = |s: &Stat| format!("{:.1} / {:.1}", s.p50, s.p95);
    for r in &rows {
        crate::outln!(
            "{:<48} {:>5} {:>5}  {:>13} {:>13} {:>13} {:>13} {:>13} {:>13}",
            r.site,
            r.episodes,
            r.steps,
            cell(&r.observe_ms),
            cell(&r.decide_ms),
            cell(&r.execute_ms),
            cell(&r.settle_ms),
            cell(&r.step_ms),
            cell(&r.episode_ms)
        )?;
        let ends: Vec<String> = r
            .settle_ends
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        crate::outln!("{:<48} settling ended: {}", "", ends.join(", "))?;
        for w in &r.slowest {
            crate::outln!(
                "  {:>7.1} ms (settle {:>5.0} {:<11}) {:<32} {}",
                w.step_ms,
                w.settle_ms,
                w.end,
                w.run,
                w.what
            )?;
        }
    }
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_default_only_click_form_tasks_are_measured() {
        let names: Vec<String> = default_tasks().iter().map(|t| t.to_string()).collect();
        for t in [
            "click-button",
            "enter-text",
            "choose-date-easy",
            "login-user-popup",
        ] {
            assert!(names.iter().any(|n| n == t), "{t} missing: {names:?}");
        }
        // Reading, widget and reasoning/visual tasks are a model tier's or a widget's
        // work, not the click/form step this bench splits.
        for t in [
            "find-word",
            "use-slider",
            "drag-box",
            "email-inbox",
            "click-pie",
        ] {
            assert!(!names.iter().any(|n| n == t), "{t} measured: {names:?}");
        }
    }
}
