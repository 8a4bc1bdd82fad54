//! The executor loop (DESIGN §2):
//!
//! observe → decide → gate → materialize → risk → freshness → execute → settle →
//! observe → record → limits → loop; a give-up right after an action first looks again
//! (`look_again`).
//!
//! Every await is bounded: policy and observation calls by cancellation and the run's
//! deadline; execute (which must not be torn halfway) by `action_timeout`, cut to end at
//! most `DEADLINE_GRACE` past the run's deadline; settling by its cap. A decision is consumed before its mutation: after a stale failure the loop asks
//! the policy again on a fresh observation and never re-executes the old decision.

use crate::action::Action;
use crate::backend::{Backend, Executed};
use crate::config::RuntimeConfig;
use crate::decision::{Choice, Decision, TerminalKind};
use crate::effect::ExpectedEffect;
use crate::error::BackendError;
use crate::executable::ExecutableAction;
use crate::monitor::{LoopMonitors, StepSignal, StepVerdict};
use crate::policy::{DecideContext, Policy};
use crate::record::{ActionRecord, ExecutionResult, StepEvent, StepOutcome, Termination};
use crate::redact::Redactor;
use crate::risk;
use crate::settle::{self, settle_for, SettleEnd, SettleReport};
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

mod interrupt;
mod stop;
mod streak;
use interrupt::Interrupt;
use stop::{cancelled, dry_run, hand_off, invalid, requested_field, Miss, Stop};
use streak::{no_progress, unchanged_streak};

/// Cancels a run from any thread or task. Cancellation is permanent for the executor it
/// came from; in-flight waits end at once, an in-flight action is finished and recorded.
#[derive(Clone, Debug)]
pub struct CancelHandle(CancellationToken);

impl CancelHandle {
    pub fn cancel(&self) {
        self.0.cancel();
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }
}

pub struct Executor<B, P> {
    backend: B,
    policy: P,
    config: RuntimeConfig,
    cancel: CancellationToken,
    /// Shared with the caller's other sinks (logs) when given; see [`Executor::with_redactor`].
    redactor: Redactor,
}

/// Mutable state of one run.
struct Run<'s> {
    subtask: &'s Subtask,
    started: Instant,
    interrupt: Interrupt,
    cycle: u32,
    history: Vec<ActionRecord>,
    observations: Vec<String>,
    /// Everything the run hands out (records, events, the result) passes through it.
    redactor: Redactor,
    stale_streak: u32,
    monitors: LoopMonitors,
    /// The monitors' verdict on the last step, for the next decision.
    verdict: Option<StepVerdict>,
    /// The page was looked at again after a give-up since the last action.
    looked_again: bool,
}

impl Run<'_> {
    /// The monitor step, the one place the loop runs the monitors: feeds one step, keeps
    /// the verdict for the next decision and returns it for the step's event.
    fn monitor(
        &mut self,
        signal: StepSignal,
        before: &Snapshot,
        after: Option<&Snapshot>,
    ) -> Box<StepVerdict> {
        let mut signal = signal;
        // The signal reaches events, trajectories and model prompts (recent steps).
        if let Some(name) = signal.target_name.as_mut() {
            self.redactor.redact_string(name);
        }
        let verdict = self.monitors.step(signal, before, after);
        self.verdict = Some(verdict.clone());
        Box::new(verdict)
    }
}

impl<B: Backend, P: Policy> Executor<B, P> {
    pub fn new(backend: B, policy: P, config: RuntimeConfig) -> Self {
        Executor {
            backend,
            policy,
            config,
            cancel: CancellationToken::new(),
            redactor: Redactor::default(),
        }
    }

    /// Redacts with `redactor` (plus each subtask's secret inputs), so a clone held by
    /// another sink — the log writer — redacts what the run learns (passwords typed).
    pub fn with_redactor(mut self, redactor: Redactor) -> Self {
        self.redactor = redactor;
        self
    }

    pub fn cancel_handle(&self) -> CancelHandle {
        CancelHandle(self.cancel.clone())
    }

    pub fn config(&self) -> &RuntimeConfig {
        &self.config
    }

    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    pub fn into_parts(self) -> (B, P) {
        (self.backend, self.policy)
    }

    /// Runs the subtask to a terminal status.
    pub async fn run(&mut self, subtask: &Subtask) -> ExecutionResult {
        self.run_with(subtask, |_| {}).await
    }

    /// Runs the subtask, handing each decision cycle's event to `on_event` as it happens.
    /// The last event is always `Finished` and carries the same result as the return.
    pub async fn run_with(
        &mut self,
        subtask: &Subtask,
        mut on_event: impl FnMut(StepEvent) + Send,
    ) -> ExecutionResult {
        let started = Instant::now();
        for secret in subtask.secret_literals() {
            self.redactor.add(&secret);
        }
        let deadline = self.config.timeout.map(|t| started + t);
        let mut run = Run {
            subtask,
            started,
            interrupt: Interrupt {
                cancel: self.cancel.clone(),
                deadline,
                timeout: self.config.timeout,
            },
            cycle: 0,
            history: Vec::new(),
            observations: Vec::new(),
            redactor: self.redactor.clone(),
            stale_streak: 0,
            monitors: LoopMonitors::new(subtask, self.config.escalation),
            verdict: None,
            looked_again: false,
        };
        let (stop, snapshot) = match self.observe_guarded(&run).await {
            Ok(first) => {
                run.monitors.prime(&first);
                let mut snapshot = Arc::new(first);
                loop {
                    match self.cycle(&mut run, &snapshot, &mut on_event).await {
                        Ok(next) => snapshot = next,
                        Err(stop) => break (stop, snapshot),
                    }
                }
            }
            Err(stop) => (stop, Arc::new(Snapshot::empty())),
        };
        let mut decision = stop.decision.as_deref().cloned();
        if let Some(d) = decision.as_mut() {
            run.redactor.decision(d);
        }
        run.redactor.learn(&snapshot);
        let mut result = ExecutionResult {
            status: stop.status,
            actions_taken: run.history.len() as u32,
            reason: Some(stop.reason),
            observations: std::mem::take(&mut run.observations),
            history: std::mem::take(&mut run.history),
            final_snapshot: snapshot.compact(),
            termination: stop.termination,
            elapsed_ms: run.started.elapsed().as_millis() as u64,
            verification: decision
                .as_ref()
                .map(|d| d.verdicts.clone())
                .unwrap_or_default(),
            planned_action: stop.planned.map(|p| *p),
            needs_input: stop.needs_input.map(|f| *f),
            needs_human: stop.needs_human.map(|f| *f),
            downloads: snapshot.facts.downloads.clone(),
        };
        // The one place a result is finished: every path out of the run passes here.
        run.redactor.result(&mut result);
        tracing::debug!(status = %result.status, termination = ?result.termination, "run finished");
        self.policy.finish(&result);
        let mut event = StepEvent {
            cycle: run.cycle,
            snapshot,
            decision,
            outcome: StepOutcome::Finished {
                result: Box::new(result.clone()),
            },
            verdict: None,
        };
        // A run that ended on a step failure is that step's last word for the monitors.
        if let Some(signal) = StepSignal::from_event(&event) {
            event.verdict = Some(run.monitor(signal, &event.snapshot, None));
        }
        on_event(event);
        result
    }

    /// One decision cycle on `snapshot`; returns the snapshot the next cycle decides on.
    async fn cycle(
        &mut self,
        run: &mut Run<'_>,
        snapshot: &Arc<Snapshot>,
        on_event: &mut (impl FnMut(StepEvent) + Send),
    ) -> Result<Arc<Snapshot>, Stop> {
        run.interrupt.check()?;
        run.cycle += 1;
        // What the page's password fields hold is a secret of the run from now on.
        run.redactor.learn(snapshot);
        let ctx = DecideContext {
            subtask: run.subtask,
            snapshot,
            history: &run.history,
            cycle: run.cycle,
            verdict: run.verdict.as_ref(),
            recent: run.monitors.recent(),
        };
        let decided = run.interrupt.bound(self.policy.decide(ctx)).await?;
        let decision =
            decided.map_err(|e| Stop::needs_agent(Termination::PolicyError, e.to_string()))?;
        self.gate(&decision)?;
        let action = match &decision.choice {
            Choice::Terminal(kind) => {
                if let Some(later) = self.look_again(run, *kind, snapshot).await {
                    return Ok(later);
                }
                return Err(self.terminal(*kind, &decision, snapshot, run.subtask));
            }
            Choice::Act(action) => action,
        };
        let limit = run.subtask.max_actions;
        if run.history.len() as u32 >= limit {
            return Err(Stop::needs_agent(
                Termination::BudgetExhausted,
                format!(
                    "action budget of {limit} exhausted; the policy still wanted {}",
                    action.kind()
                ),
            )
            .with_decision(&decision));
        }
        let exec = ExecutableAction::materialize(action, snapshot, run.subtask)
            .map_err(|e| invalid(e).with_decision(&decision))?;
        let facts = run
            .interrupt
            .bound(self.backend.press_facts(snapshot, &exec))
            .await?
            .map_err(|e| Stop::backend(e).with_decision(&decision))?;
        if let Err(refusal) = risk::check(&exec, snapshot, run.subtask, &facts) {
            return Err(Stop::needs_agent(Termination::RiskRefused, refusal.reason)
                .with_decision(&decision));
        }
        if self.config.dry_run {
            // Reported as a record's action is: a secret literal is the placeholder.
            let target = exec.target().and_then(|t| snapshot.element(t.as_str()));
            let into_password = target.is_some_and(|t| t.role == crate::role::Role::PasswordField);
            let shown = run.redactor.action(&exec, run.subtask, into_password);
            return Err(dry_run(&decision, &shown, snapshot));
        }
        let started = Instant::now();
        let effect = ExpectedEffect::decided(&decision, &exec, snapshot);
        match self.act(run, snapshot, &exec, &effect).await {
            Ok((next, settle, executed)) => {
                run.stale_streak = 0;
                run.looked_again = false;
                if let Some(l) = &executed.landed_elsewhere {
                    run.observations.push(format!(
                        "cycle {}: the press meant for {} landed on {}",
                        run.cycle, l.intended, l.element.element
                    ));
                }
                let record = self.record(
                    run,
                    snapshot,
                    Some(&next),
                    decision.clone(),
                    &exec,
                    started,
                    settle,
                    executed,
                );
                let last = format!(
                    "{} {}",
                    exec.kind(),
                    exec.target().map(|t| t.as_str()).unwrap_or("")
                );
                let verdict = run.monitor(
                    StepSignal::acted(&record, snapshot, &next),
                    snapshot,
                    Some(&next),
                );
                run.history.push(record.clone());
                on_event(StepEvent {
                    cycle: run.cycle,
                    snapshot: snapshot.clone(),
                    decision: Some(record.decision.clone()),
                    outcome: StepOutcome::Acted {
                        record: Box::new(record),
                    },
                    verdict: Some(verdict),
                });
                if let Some(refusal) = run.history.last().and_then(|r| {
                    let landed = r.landed_elsewhere.as_ref()?;
                    risk::landed_on_risk(landed, run.subtask)
                }) {
                    return Err(Stop::needs_agent(
                        Termination::LandedElsewhere,
                        refusal.reason,
                    ));
                }
                let limit = self.config.no_change_limit;
                let streak = unchanged_streak(&run.history);
                if limit > 0 && no_progress(streak, limit) {
                    return Err(Stop {
                        status: TerminalKind::Blocked,
                        termination: Termination::NoChangeLimit,
                        reason: format!(
                            "{} consecutive actions changed nothing (last: {})",
                            streak.len(),
                            last.trim()
                        ),
                        decision: None,
                        planned: None,
                        needs_input: None,
                        needs_human: None,
                    });
                }
                Ok(next)
            }
            Err(Miss::Stale(detail)) => {
                let detail = run.redactor.redact(&detail).into_owned();
                let mut shown = decision.clone();
                run.redactor.decision(&mut shown);
                run.stale_streak += 1;
                run.observations
                    .push(format!("cycle {}: {detail}; re-observed", run.cycle));
                let verdict =
                    run.monitor(StepSignal::stale(Some(&decision), snapshot), snapshot, None);
                on_event(StepEvent {
                    cycle: run.cycle,
                    snapshot: snapshot.clone(),
                    decision: Some(shown),
                    outcome: StepOutcome::Stale {
                        detail: detail.clone(),
                        stale_retries: run.stale_streak,
                    },
                    verdict: Some(verdict),
                });
                let limit = self.config.stale_retries;
                if run.stale_streak > limit {
                    return Err(Stop::needs_agent(
                        Termination::StaleRetriesExhausted,
                        format!(
                            "state stayed stale after {limit} re-observations (last: {detail})"
                        ),
                    )
                    .with_decision(&decision));
                }
                // Re-observe once the UI is still: a target that moved or was covered is
                // most often mid-animation.
                let cap = self.settle_cap();
                let interrupt = run.interrupt.clone().signalled();
                if let Err(e) =
                    settle::still(&mut self.backend, &self.config.settle, cap, interrupt).await
                {
                    return Err(Stop::backend(e));
                }
                Ok(Arc::new(self.observe_guarded(run).await?))
            }
            Err(Miss::Stop(stop)) => Err(stop.with_decision(&decision)),
            Err(Miss::Unobserved {
                settle,
                executed,
                stop,
            }) => {
                let record = self.record(
                    run,
                    snapshot,
                    None,
                    decision.clone(),
                    &exec,
                    started,
                    settle,
                    executed,
                );
                run.history.push(record.clone());
                // No after-state, so nothing for the monitors: the run ends here.
                on_event(StepEvent {
                    cycle: run.cycle,
                    snapshot: snapshot.clone(),
                    decision: Some(record.decision.clone()),
                    outcome: StepOutcome::Acted {
                        record: Box::new(record),
                    },
                    verdict: None,
                });
                Err(stop.with_decision(&decision))
            }
        }
    }

    /// Confidence and margin gating of actions and completions; a handback (BLOCKED,
    /// NEEDS_AGENT, NEEDS_INPUT) already returns to the planner, so it is never gated.
    fn gate(&self, decision: &Decision) -> Result<(), Stop> {
        let what = match &decision.choice {
            Choice::Act(action) => action.kind().to_string(),
            Choice::Terminal(TerminalKind::SubtaskComplete) => "SUBTASK_COMPLETE".to_owned(),
            Choice::Terminal(_) => return Ok(()),
        };
        let checks = [
            (
                "confidence",
                decision.confidence,
                self.config.min_confidence,
            ),
            ("margin", decision.margin, self.config.min_margin),
        ];
        for (name, got, min) in checks {
            if let (Some(min), Some(got)) = (min, got) {
                if got < min {
                    return Err(Stop::needs_agent(
                        Termination::LowConfidence,
                        format!("Decision {name} {got:.2} for {what} is below min_{name} {min:.2}"),
                    )
                    .with_decision(decision));
                }
            }
        }
        Ok(())
    }

    /// The second look ([`RuntimeConfig::late_reaction`]): after a NEEDS_AGENT or
    /// BLOCKED right after an action (not a WAIT), waits and observes once more; the snapshot to decide
    /// on again when the page changed meanwhile (as an action's `state_changed` says), else
    /// None and the give-up stands — also when the wait is interrupted or the observation
    /// fails. Once per action; the dropped give-up is said in the result's observations.
    async fn look_again(
        &mut self,
        run: &mut Run<'_>,
        kind: TerminalKind,
        snapshot: &Snapshot,
    ) -> Option<Arc<Snapshot>> {
        let wait = self.config.late_reaction;
        let give_up = matches!(kind, TerminalKind::NeedsAgent | TerminalKind::Blocked);
        // After a WAIT the policy has just looked again itself: a hand-back there stands
        // (the planner corpus's hand-backs mostly follow the reflex's waits, and a second
        // second look cost them 1 s each: its test ran 11 → 21 min).
        let acted = run
            .history
            .last()
            .is_some_and(|r| r.action.kind() != crate::action::ActionKind::Wait);
        if !give_up || !acted || run.looked_again || wait.is_zero() {
            return None;
        }
        run.looked_again = true;
        run.interrupt.bound(tokio::time::sleep(wait)).await.ok()?;
        let later = run
            .interrupt
            .bound(self.backend.observe())
            .await
            .ok()?
            .ok()?;
        if later.revision == snapshot.revision && later.url() == snapshot.url() {
            return None;
        }
        run.observations.push(format!(
            "cycle {}: {kind} right after an action; the page changed within {} ms, so the policy was asked again",
            run.cycle,
            wait.as_millis()
        ));
        Some(Arc::new(later))
    }

    fn terminal(
        &self,
        kind: TerminalKind,
        decision: &Decision,
        snapshot: &Snapshot,
        subtask: &Subtask,
    ) -> Stop {
        if kind == TerminalKind::SubtaskComplete {
            if let Some(verify) = &self.config.verify {
                if !verify(snapshot, subtask) {
                    return Stop::needs_agent(
                        Termination::VerifyRejected,
                        "Verification callback rejected SUBTASK_COMPLETE.",
                    )
                    .with_decision(decision);
                }
            }
        }
        let needs_human = hand_off(kind, decision, snapshot);
        Stop {
            status: kind,
            termination: if needs_human.is_some() {
                Termination::NeedsHuman
            } else {
                Termination::TerminalDecision
            },
            reason: decision
                .reason
                .clone()
                .unwrap_or_else(|| format!("policy returned {kind}")),
            decision: Some(Box::new(decision.clone())),
            planned: None,
            needs_input: requested_field(kind, decision, snapshot).map(Box::new),
            needs_human: needs_human.map(Box::new),
        }
    }

    /// Freshness → execute → settle → observe. Once execute has started, the action is
    /// always carried through to an observation so it is recorded, even if the run was
    /// cancelled meanwhile.
    async fn act(
        &mut self,
        run: &Run<'_>,
        snapshot: &Arc<Snapshot>,
        exec: &ExecutableAction,
        effect: &ExpectedEffect,
    ) -> Result<(Arc<Snapshot>, SettleReport, Executed), Miss> {
        if let Action::Wait = exec.action {
            let slept = run
                .interrupt
                .bound(tokio::time::sleep(self.config.wait))
                .await;
            let end = if slept.is_ok() {
                SettleEnd::Skipped
            } else {
                SettleEnd::Interrupted
            };
            let report = SettleReport {
                end,
                elapsed_ms: self.config.wait.as_millis() as u64,
                samples: 0,
            };
            return self
                .observe_after(&run.interrupt, report, Executed::default())
                .await;
        }
        let fresh = run
            .interrupt
            .bound(self.backend.is_fresh(snapshot, exec))
            .await
            .map_err(Miss::Stop)?;
        match fresh {
            Ok(true) => {}
            Ok(false) => return Err(Miss::Stale(stale_detail(exec))),
            Err(BackendError::Stale { detail, .. }) => return Err(Miss::Stale(detail)),
            Err(e) => return Err(Miss::Stop(Stop::backend(e))),
        }
        let before = run
            .interrupt
            .bound(self.backend.settle_probe())
            .await
            .map_err(Miss::Stop)?
            .map_err(|e| Miss::Stop(Stop::backend(e)))?;
        let limit = run.interrupt.cap(self.config.action_timeout);
        let executed = match tokio::time::timeout(limit, self.backend.execute(snapshot, exec)).await
        {
            Ok(Ok(executed)) => executed,
            Ok(Err(BackendError::Stale { target, detail })) => {
                let on = target.map(|t| format!(" on {t}")).unwrap_or_default();
                return Err(Miss::Stale(format!(
                    "execute reported stale state{on}: {detail}"
                )));
            }
            Ok(Err(e)) => return Err(Miss::Stop(Stop::backend(e))),
            Err(_) => {
                return Err(Miss::Stop(run.interrupt.overran(format!(
                    "{} did not finish within {} ms; it may have partly landed",
                    exec.kind(),
                    limit.as_millis()
                ))))
            }
        };
        let cap = self.settle_cap();
        let interrupt = run.interrupt.clone().signalled();
        let report = settle_for(
            &mut self.backend,
            before,
            effect,
            &self.config.settle,
            cap,
            interrupt,
        )
        .await
        .map_err(|e| Miss::Stop(Stop::backend(e)))?;
        self.observe_after(&run.interrupt, report, executed).await
    }

    /// The observation that records an executed action: bounded by `action_timeout` (and
    /// the run's deadline plus a grace), not by cancellation, so an action that ran is
    /// never left unrecorded. On failure the action is still recorded
    /// (`Miss::Unobserved`, with its settle report and what executing did) and the run
    /// ends with `stop`.
    async fn observe_after(
        &mut self,
        interrupt: &Interrupt,
        settle: SettleReport,
        executed: Executed,
    ) -> Result<(Arc<Snapshot>, SettleReport, Executed), Miss> {
        let limit = interrupt.cap(self.config.action_timeout);
        let stop = match tokio::time::timeout(limit, self.backend.observe()).await {
            Ok(Ok(s)) => return Ok((Arc::new(s), settle, executed)),
            Ok(Err(e)) => Stop::needs_agent(
                Termination::BackendError,
                format!("the action ran but the observation after it failed: {e}"),
            ),
            Err(_) => interrupt.overran(format!(
                "the action ran but observing its effect took over {} ms",
                limit.as_millis()
            )),
        };
        Err(Miss::Unobserved {
            settle,
            executed,
            stop,
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        run: &Run<'_>,
        before: &Snapshot,
        after: Option<&Snapshot>,
        decision: Decision,
        exec: &ExecutableAction,
        started: Instant,
        settle: SettleReport,
        executed: Executed,
    ) -> ActionRecord {
        let target = exec.target().and_then(|t| before.element(t.as_str()));
        let into_password = target.is_some_and(|t| t.role == crate::role::Role::PasswordField);
        let mut record = ActionRecord {
            step: run.history.len() as u32 + 1,
            decision,
            action: run.redactor.action(exec, run.subtask, into_password),
            target_name: target.map(|t| t.name.clone()),
            target_source: target.map(|t| t.source.clone()),
            target_bounds: target.and_then(|t| t.bounds),
            before_revision: before.revision.clone(),
            after_revision: after.map(|a| a.revision.clone()).unwrap_or_default(),
            // A backend may keep the URL out of the revision; a navigation is a change,
            // and so is a file saved.
            state_changed: after.is_some_and(|a| {
                before.revision != a.revision
                    || before.url() != a.url()
                    || before.facts.downloads.len() != a.facts.downloads.len()
            }),
            after_observed: after.is_some(),
            elapsed_ms: started.elapsed().as_millis() as u64,
            settle,
            landed_elsewhere: executed.landed_elsewhere,
            physical_input: executed.physical_input,
            downloads: after
                .map(|a| {
                    let done = before.facts.downloads.len();
                    a.facts.downloads.get(done..).unwrap_or_default().to_vec()
                })
                .unwrap_or_default(),
        };
        run.redactor.record(&mut record);
        record
    }

    /// The bound on one settling: the configured cap, or more when the backend needs it.
    fn settle_cap(&self) -> Duration {
        self.config.settle.cap.max(self.backend.min_settle_cap())
    }

    async fn observe_guarded(&mut self, run: &Run<'_>) -> Result<Snapshot, Stop> {
        let observed = run.interrupt.bound(self.backend.observe()).await?;
        observed.map_err(|e| {
            Stop::needs_agent(Termination::BackendError, format!("observe failed: {e}"))
        })
    }
}

fn stale_detail(exec: &ExecutableAction) -> String {
    match exec.target() {
        Some(t) => format!("{t} no longer matches its guard"),
        None => format!("the context changed before {}", exec.kind()),
    }
}
