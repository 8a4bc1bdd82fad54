//! The policy trait: how the loop asks for the next decision.

use crate::decision::Decision;
use crate::error::PolicyError;
use crate::record::ActionRecord;
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
}

#[async_trait]
pub trait Policy: Send {
    fn name(&self) -> &'static str;

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError>;
}

#[async_trait]
impl<P: Policy + ?Sized> Policy for Box<P> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        (**self).decide(ctx).await
    }
}
