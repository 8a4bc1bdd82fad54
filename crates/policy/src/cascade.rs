//! The cascade: reflex → selector cache → model, under the word of the loop's monitors
//! (the escalation controller's verdict arrives in the decide context).
//!
//! Each decision goes to the fastest tier that can make it: the reflex policy when it
//! grounds the step; the selector cache when the reflex cannot but a finished subtask of
//! the same shape was recorded; the model when neither can.
//!
//! On ESCALATE the model is asked for a recovery plan (the cortex). The recovery
//! compiler validates it against the current snapshot; a rejected plan hands back
//! NEEDS_AGENT with the compiler's reason and nothing of it runs. A valid plan becomes a
//! [`RecoveryQueue`] handed out one decision per cycle (tier `Recovery`) while the
//! controller says CONTINUE and the UI is the one the plan expected. A model that cannot
//! plan gets an ordinary step request; with no model configured, escalation hands the
//! step back to the planner as NEEDS_AGENT with the failure signature.

use crate::cache::{CacheError, CacheKey, Recorder, Replay, ReplayStep, SelectorCache};
use crate::judging::{judge_unread, vet_completion, Judged};
use crate::recovery_queue::{Next, RecoveryQueue};
use arc_core::monitor::{ControllerAction, StepVerdict};
use arc_core::{
    Choice, DecideContext, Decision, ExecutionResult, Policy, PolicyError, Provenance, Snapshot,
    TerminalKind, Tier,
};
use async_trait::async_trait;
use serde::Serialize;
use std::sync::Arc;

/// How many decisions each tier made in this cascade's lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TierCounts {
    pub reflex: u32,
    pub cache: u32,
    pub model: u32,
    pub controller: u32,
    pub escalations: u32,
    pub local_recoveries: u32,
    /// Decisions taken from validated recovery plans.
    pub recovery: u32,
    /// Recovery plans the compiler refused.
    pub plans_rejected: u32,
    /// Completions made on the model's judgment of criteria the reflex could not read.
    pub judged: u32,
    /// Model claims of "done" (a judgment, a SUBTASK_COMPLETE) the evidence did not show.
    pub claims_refused: u32,
}

pub struct Cascade {
    reflex: Box<dyn Policy>,
    model: Option<Box<dyn Policy>>,
    cache: Option<SelectorCache>,
    key: Option<CacheKey>,
    /// The run's first snapshot: what a judgment's evidence must not already have shown.
    start: Option<Arc<Snapshot>>,
    replay: Option<Replay>,
    /// The rest of a validated recovery plan.
    plan: Option<RecoveryQueue>,
    recorder: Recorder,
    counts: TierCounts,
    last_tier: Option<Tier>,
    /// What `finish` did with the run: stored it (true), skipped it, or failed to write.
    learned: Option<Result<bool, CacheError>>,
}

impl Cascade {
    pub fn new(reflex: Box<dyn Policy>) -> Self {
        Cascade {
            reflex,
            model: None,
            cache: None,
            key: None,
            start: None,
            replay: None,
            plan: None,
            recorder: Recorder::default(),
            counts: TierCounts::default(),
            last_tier: None,
            learned: None,
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

    /// What the end of the last run did with the selector cache: `Ok(true)` when the
    /// completed run was stored, `Ok(false)` when there was nothing to store, the error
    /// when writing failed (the run's result stands either way). None before a run ends.
    pub fn learned(&self) -> Option<&Result<bool, CacheError>> {
        self.learned.as_ref()
    }

    /// A completed subtask's decisions, stored for replay.
    fn learn(&mut self, result: &ExecutionResult) -> Result<bool, CacheError> {
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

    /// A step from the model. Its SUBTASK_COMPLETE stands only on the criteria the reflex
    /// judged on this snapshot (`reflex`); with none judged, it hands back.
    async fn ask_model(
        &mut self,
        ctx: DecideContext<'_>,
        why: &str,
        reflex: Option<&Decision>,
    ) -> Result<(Decision, Tier), PolicyError> {
        match self.model.as_mut() {
            Some(model) => {
                let said = model.decide(ctx).await?;
                let claimed = said.choice == Choice::Terminal(TerminalKind::SubtaskComplete);
                let vetted = vet_completion(said, reflex);
                if claimed && vetted.choice != Choice::Terminal(TerminalKind::SubtaskComplete) {
                    self.counts.claims_refused += 1;
                }
                Ok((vetted, Tier::Model))
            }
            None => Ok((
                Decision::terminal(TerminalKind::NeedsAgent)
                    .with_reason(format!("{why}; no model is configured to escalate to")),
                Tier::Controller,
            )),
        }
    }

    /// ESCALATE: a recovery plan from the model, validated before any of it runs.
    async fn escalate(
        &mut self,
        ctx: DecideContext<'_>,
        why: &str,
    ) -> Result<(Decision, Tier), PolicyError> {
        let Some(model) = self.model.as_mut() else {
            return self.ask_model(ctx, why, None).await;
        };
        let plan = match model.plan_recovery(ctx).await {
            None => return self.ask_model(ctx, why, None).await,
            Some(Ok(plan)) => plan,
            Some(Err(e)) => return Ok(hand_back(format!("{why}; no recovery plan: {e}"))),
        };
        match arc_core::recovery::compile(&plan, ctx.snapshot, ctx.subtask) {
            Err(e) => {
                self.counts.plans_rejected += 1;
                Ok(hand_back(format!("{why}; {e}")))
            }
            Ok(compiled) => {
                self.plan = Some(RecoveryQueue::new(compiled));
                match self.next_planned(&ctx) {
                    Some(d) => Ok((d, Tier::Recovery)),
                    // Only checks, and they failed at once: nothing to run.
                    None => Ok(hand_back(format!(
                        "{why}; the recovery plan had nothing to run here"
                    ))),
                }
            }
        }
    }

    /// The plan's next decision, if it has one and the UI still matches it.
    fn next_planned(&mut self, ctx: &DecideContext<'_>) -> Option<Decision> {
        let plan = self.plan.as_mut()?;
        match plan.next(ctx) {
            Next::Decision(d) => Some(d),
            Next::Done => {
                self.plan = None;
                None
            }
            Next::Dropped(why) => {
                tracing::debug!("{why}");
                self.plan = None;
                None
            }
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

/// Back to the planner, by the controller's word.
fn hand_back(reason: String) -> (Decision, Tier) {
    (
        Decision::terminal(TerminalKind::NeedsAgent).with_reason(reason),
        Tier::Controller,
    )
}

/// A hand-back the next tiers may take over; not one to a person (a password, a code, a
/// CAPTCHA): no model may answer that.
fn gave_up(d: &Decision) -> bool {
    matches!(
        d.choice,
        Choice::Terminal(TerminalKind::NeedsAgent | TerminalKind::Blocked)
    ) && d.hands_off.is_none()
}

#[async_trait]
impl Policy for Cascade {
    fn name(&self) -> &'static str {
        "cascade"
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        if self.key.is_none() {
            self.key = Some(CacheKey::of(ctx.subtask, ctx.snapshot));
            self.start = Some(ctx.snapshot.clone());
        }
        if ctx.verdict.is_some_and(StepVerdict::stale) {
            // The last decision handed out was never executed.
            self.recorder.retract();
        }
        let verdict = ctx.verdict.map(|v| v.controller);
        // A plan runs only while the controller says CONTINUE; any other word ends it.
        let planned = match verdict.map(|v| v.action) {
            None | Some(ControllerAction::Continue) => self.next_planned(&ctx),
            Some(_) => {
                self.plan = None;
                None
            }
        };
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
                self.escalate(ctx, &format!("stuck: {}{}", v.reason, signature(&v)))
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
            _ if planned.is_some() => (planned.expect("checked"), Tier::Recovery),
            _ => {
                let reflex = self.reflex.decide(ctx).await?;
                let judged = match (&mut self.model, &self.start) {
                    (Some(model), Some(start)) if gave_up(&reflex) => {
                        judge_unread(model.as_mut(), ctx, start, &reflex).await?
                    }
                    _ => Judged::Nothing,
                };
                if !gave_up(&reflex) {
                    (reflex, Tier::Reflex)
                } else if let Judged::Complete(d) = judged {
                    self.counts.judged += 1;
                    (d, Tier::Model)
                } else if let Judged::Refused(d) = judged {
                    self.counts.claims_refused += 1;
                    (d, Tier::Controller)
                } else if let Some(cached) = self.replay_cache(&ctx) {
                    (cached, Tier::Cache)
                } else if self.model.is_some() {
                    match self.ask_model(ctx, "", Some(&reflex)).await {
                        Ok(asked) => asked,
                        // The reflex's hand-back stands, with its verdicts, and says why
                        // the model did not take over.
                        Err(e) => {
                            let why = reflex.reason.clone().unwrap_or_default();
                            (
                                reflex.with_reason(format!(
                                    "{why}; the model could not be asked: {e}"
                                )),
                                Tier::Reflex,
                            )
                        }
                    }
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
            Tier::Recovery => self.counts.recovery += 1,
            Tier::Script => {}
        }
        self.last_tier = Some(tier);
        // The tier is the slot the cascade used; the policy is whoever filled it.
        let mut decision = decision;
        let policy = match decision.provenance.take() {
            Some(p) if tier != Tier::Cache && tier != Tier::Controller => p.policy,
            _ => self.name().into(),
        };
        decision.provenance = Some(Provenance { tier, policy });
        self.recorder.record(&decision, ctx.snapshot);
        Ok(decision)
    }

    fn finish(&mut self, result: &ExecutionResult) {
        let learned = self.learn(result);
        if let Err(e) = &learned {
            tracing::warn!("selector cache: {e}");
        }
        self.learned = Some(learned);
        // The next run starts over (its own key, replay and monitors' word).
        self.key = None;
        self.start = None;
        self.replay = None;
        self.plan = None;
    }
}

fn signature(v: &arc_core::monitor::ControllerDecision) -> String {
    v.signature
        .map(|s| format!(" [{}]", s.as_str()))
        .unwrap_or_default()
}
