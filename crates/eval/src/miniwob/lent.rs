//! A backend lent to one executor run: the harness keeps one browser for every episode,
//! while `Executor` takes its backend by value.

use arc_core::{Backend, BackendError, ExecutableAction, SettleSample, Snapshot};
use async_trait::async_trait;
use std::time::Duration;

pub struct Lent<'a, B: ?Sized>(pub &'a mut B);

#[async_trait]
impl<B: Backend + ?Sized> Backend for Lent<'_, B> {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        self.0.observe().await
    }
    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        self.0.is_fresh(snapshot, action).await
    }
    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<(), BackendError> {
        self.0.execute(snapshot, action).await
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.0.settle_probe().await
    }
    fn min_settle_cap(&self) -> Duration {
        self.0.min_settle_cap()
    }
}
