//! The policy trait: how the loop asks for the next decision.

use crate::decision::Decision;
use crate::error::PolicyError;
use crate::judgment::{Claim, Question};
use crate::monitor::{StepSignal, StepVerdict};
use crate::record::{ActionRecord, ExecutionResult};
use crate::recovery::RecoveryPlan;
use crate::snapshot::Snapshot;
use crate::subtask::Subtask;
use async_trait::async_trait;
use std::sync::Arc;

/// Everything a policy may read for one decision. A policy never learns which task,
/// test or benchmark it is in beyond what the subtask itself says.
#[derive(Clone, Copy)]
pub struct DecideContext<'a> {
    pub subtask: &'a Subtask,
    pub snapshot: &'a Arc<Snapshot>,
    pub history: &'a [ActionRecord],
    /// 1-based decision cycle (stale retries count as cycles).
    pub cycle: u32,
    /// The monitors' verdict on the previous cycle's step (acted or stale); None on the
    /// first cycle. Its controller action is the loop's word: ESCALATE, RECOVER_LOCALLY…
    pub verdict: Option<&'a StepVerdict>,
    /// The last steps the monitors saw, oldest first, with their state hashes (stale
    /// attempts included, unlike `history`).
    pub recent: &'a [StepSignal],
}

#[async_trait]
pub trait Policy: Send {
    fn name(&self) -> &'static str;

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError>;

    /// Called once when the run ends, with its result (a cascade stores a completed run
    /// in its selector cache). A wrapper must forward it.
    fn finish(&mut self, _result: &ExecutionResult) {}

    /// The cortex: asked on ESCALATE for a recovery plan for `ctx` (its verdict names
    /// the failure, `recent` the steps with their state hashes). None: this policy
    /// cannot plan (the caller falls back to `decide`). The plan is untrusted: the
    /// caller validates it with [`crate::recovery::compile`]. A wrapper must forward it.
    async fn plan_recovery(
        &mut self,
        _ctx: DecideContext<'_>,
    ) -> Option<Result<RecoveryPlan, PolicyError>> {
        None
    }

    /// The judge: asked, once the work is done, whether each criterion the runtime could
    /// not read holds on `ctx.snapshot`; one claim per question, in order. None: this
    /// policy cannot judge. The claims are untrusted: the caller checks each "holds"
    /// against the cited elements' text. A wrapper must forward it.
    async fn judge(
        &mut self,
        _ctx: DecideContext<'_>,
        _questions: &[Question],
    ) -> Option<Result<Vec<Claim>, PolicyError>> {
        None
    }
}

#[async_trait]
impl<P: Policy + ?Sized> Policy for Box<P> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        (**self).decide(ctx).await
    }
    fn finish(&mut self, result: &ExecutionResult) {
        (**self).finish(result)
    }
    async fn plan_recovery(
        &mut self,
        ctx: DecideContext<'_>,
    ) -> Option<Result<RecoveryPlan, PolicyError>> {
        (**self).plan_recovery(ctx).await
    }
    async fn judge(
        &mut self,
        ctx: DecideContext<'_>,
        questions: &[Question],
    ) -> Option<Result<Vec<Claim>, PolicyError>> {
        (**self).judge(ctx, questions).await
    }
}
