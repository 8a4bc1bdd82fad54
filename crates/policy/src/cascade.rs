//! The cascade: reflex → selector cache → model, under the monitors' and the escalation
//! controller's word.
//!
//! Each decision goes to the fastest tier that can make it: the reflex policy when it
//! grounds the step; the selector cache when the reflex cannot but a finished subtask of
//! the same shape was recorded; the model when neither can (or when the controller
//! escalates). With no model configured, escalation hands the step back to the planner
//! as NEEDS_AGENT with the failure signature (CYCLIC_LOOP, LOCATOR_NOT_FOUND, …).

use crate::cache::{CacheKey, Recorder, Replay, ReplayStep, SelectorCache};
use arc_core::monitor::{
    ControllerAction, EscalationConfig, MilestoneGoals, MonitorSuite, StepSignal,
};
use arc_core::{
    Choice, DecideContext, Decision, ExecutionResult, Policy, PolicyError, Snapshot, TerminalKind,
};
use async_trait::async_trait;
use serde::Serialize;
use std::sync::Arc;

/// Which tier made a decision (also written into the decision's `raw.tier`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Reflex,
    Cache,
    Model,
    /// The controller's own answer (a local recovery, an abort, a hand-back).
    Controller,
}

/// How many decisions each tier made in this cascade's lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TierCounts {
    pub reflex: u32,
    pub cache: u32,
    pub model: u32,
    pub controller: u32,
    pub escalations: u32,
    pub local_recoveries: u32,
}

pub struct Cascade {
    reflex: Box<dyn Policy>,
    model: Option<Box<dyn Policy>>,
    cache: Option<SelectorCache>,
    monitors: Option<MonitorSuite>,
    /// History records already fed to the monitors.
    fed: usize,
    /// The snapshot and decision of the last action handed out, to tell a stale retry
    /// (the history did not grow) from an executed step.
    last: Option<(Arc<Snapshot>, Decision, usize)>,
    key: Option<CacheKey>,
    replay: Option<Replay>,
    recorder: Recorder,
    counts: TierCounts,
    last_tier: Option<Tier>,
}

impl Cascade {
    pub fn new(reflex: Box<dyn Policy>) -> Self {
        Cascade {
            reflex,
            model: None,
            cache: None,
            monitors: None,
            fed: 0,
            last: None,
            key: None,
            replay: None,
            recorder: Recorder::default(),
            counts: TierCounts::default(),
            last_tier: None,
        }
    }

    pub fn with_model(mut self, model: Box<dyn Policy>) -> Self {
        self.model = Some(model);
        self
    }

    pub fn with_cache(mut self, cache: SelectorCache) -> Self {
        self.cache = Some(cache);
        self
    }

    pub fn counts(&self) -> TierCounts {
        self.counts
    }

    /// The tier of the most recent decision.
    pub fn last_tier(&self) -> Option<Tier> {
        self.last_tier
    }

    pub fn cache(&self) -> Option<&SelectorCache> {
        self.cache.as_ref()
    }

    /// After a run: a completed subtask's decisions are stored for replay. Returns the
    /// cache error, if writing the cache failed (the run's result stands either way).
    pub fn learn(&mut self, result: &ExecutionResult) -> Result<bool, crate::cache::CacheError> {
        let recorder = std::mem::take(&mut self.recorder);
        let (Some(cache), Some(key)) = (self.cache.as_mut(), self.key.as_ref()) else {
            return Ok(false);
        };
        if !result.is_complete() {
            return Ok(false);
        }
        match recorder.finish() {
            Some(steps) => cache.store(key, steps).map(|()| true),
            None => Ok(false),
        }
    }

    /// Feeds executed steps (and a stale retry) to the monitors; returns the latest
    /// controller action.
    fn monitor(
        &mut self,
        ctx: &DecideContext<'_>,
    ) -> Option<arc_core::monitor::ControllerDecision> {
        let suite = self.monitors.get_or_insert_with(|| {
            MonitorSuite::new(
                MilestoneGoals::from_subtask(ctx.subtask),
                EscalationConfig::default(),
            )
        });
        let mut latest = None;
        if let Some((before, decision, history_len)) = &self.last {
            if ctx.history.len() == *history_len {
                // The action was not executed: the loop re-observed after a stale target.
                latest = Some(suite.step(
                    &StepSignal::stale(Some(decision), before),
                    Some(before),
                    Some(ctx.snapshot),
                ));
                self.recorder.retract();
            }
        }
        for record in &ctx.history[self.fed.min(ctx.history.len())..] {
            let before = self.last.as_ref().map(|(s, _, _)| s.as_ref());
            latest = Some(suite.step(&StepSignal::from_record(record), before, Some(ctx.snapshot)));
        }
        self.fed = ctx.history.len();
        latest.map(|o| o.decision)
    }

    async fn ask_model(
        &mut self,
        ctx: DecideContext<'_>,
        why: &str,
    ) -> Result<(Decision, Tier), PolicyError> {
        match self.model.as_mut() {
            Some(model) => Ok((model.decide(ctx).await?, Tier::Model)),
            None => Ok((
                Decision::terminal(TerminalKind::NeedsAgent)
                    .with_reason(format!("{why}; no model is configured to escalate to")),
                Tier::Controller,
            )),
        }
    }

    /// The cache's next step for this position in the run, if it has one.
    fn replay_cache(&mut self, ctx: &DecideContext<'_>) -> Option<Decision> {
        let cache = self.cache.as_mut()?;
        let key = self.key.as_ref()?;
        if self.replay.is_none() {
            let entry = cache.get(key)?;
            let done = ctx.history.len();
            let steps = entry.steps.iter().filter(|s| s.terminal.is_none()).count();
            if done > steps {
                return None;
            }
            // Resume where the run is: the cached steps after those already taken.
            let remaining: Vec<_> = entry.steps.iter().skip(done).cloned().collect();
            self.replay = Some(Replay::new(key.clone(), remaining));
        }
        let replay = self.replay.as_mut()?;
        match replay.next(ctx.snapshot) {
            ReplayStep::Decision(d) => Some(d),
            ReplayStep::Done => {
                self.replay = None;
                None
            }
            ReplayStep::Miss(why) => {
                tracing::debug!("selector cache miss: {why}");
                self.replay = None;
                if let Err(e) = cache.failed(key) {
                    tracing::warn!("{e}");
                }
                None
            }
        }
    }
}

fn gave_up(d: &Decision) -> bool {
    matches!(
        d.choice,
        Choice::Terminal(TerminalKind::NeedsAgent | TerminalKind::Blocked)
    )
}

#[async_trait]
impl Policy for Cascade {
    fn name(&self) -> &'static str {
        "cascade"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        if self.key.is_none() {
            self.key = Some(CacheKey::of(ctx.subtask, ctx.snapshot));
        }
        let verdict = self.monitor(&ctx);
        let (decision, tier) = match verdict.map(|v| (v.action, v)) {
            Some((ControllerAction::Abort, v)) => (
                Decision::terminal(TerminalKind::NeedsAgent).with_reason(format!(
                    "the escalation controller aborted: {}{}",
                    v.reason,
                    signature(&v)
                )),
                Tier::Controller,
            ),
            Some((ControllerAction::Escalate, v)) => {
                self.counts.escalations += 1;
                self.ask_model(ctx, &format!("stuck: {}{}", v.reason, signature(&v)))
                    .await?
            }
            Some((ControllerAction::RecoverLocally, _)) => {
                // The local recovery the runtime can always afford: let the UI catch up.
                self.counts.local_recoveries += 1;
                (
                    Decision::act(arc_core::Action::Wait)
                        .with_reason("local recovery: wait for the UI"),
                    Tier::Controller,
                )
            }
            _ => {
                let reflex = self.reflex.decide(ctx).await?;
                if !gave_up(&reflex) {
                    (reflex, Tier::Reflex)
                } else if let Some(cached) = self.replay_cache(&ctx) {
                    (cached, Tier::Cache)
                } else if self.model.is_some() {
                    self.ask_model(ctx, "").await?
                } else {
                    (reflex, Tier::Reflex)
                }
            }
        };
        match tier {
            Tier::Reflex => self.counts.reflex += 1,
            Tier::Cache => self.counts.cache += 1,
            Tier::Model => self.counts.model += 1,
            Tier::Controller => self.counts.controller += 1,
        }
        self.last_tier = Some(tier);
        // Carried into the action record, so results and logs say which tier decided.
        let mut decision = decision;
        let tag = serde_json::json!(tier);
        match decision.raw.as_mut() {
            Some(serde_json::Value::Object(raw)) => {
                raw.insert("tier".into(), tag);
            }
            Some(other) => {
                decision.raw = Some(serde_json::json!({ "tier": tag, "policy": other.take() }))
            }
            None => decision.raw = Some(serde_json::json!({ "tier": tag })),
        }
        self.recorder.record(&decision, ctx.snapshot);
        self.last = match &decision.choice {
            Choice::Act(_) => Some((ctx.snapshot.clone(), decision.clone(), ctx.history.len())),
            Choice::Terminal(_) => None,
        };
        Ok(decision)
    }
}

fn signature(v: &arc_core::monitor::ControllerDecision) -> String {
    v.signature
        .map(|s| format!(" [{}]", s.as_str()))
        .unwrap_or_default()
}
