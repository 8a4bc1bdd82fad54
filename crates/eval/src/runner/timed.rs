//! A policy wrapper that times every decision, so reflex decisions (tens of microseconds,
//! which `Decision.latency_ms` rounds to 0) are measured too.

use arc_core::{DecideContext, Decision, ExecutionResult, Policy, PolicyError};
use async_trait::async_trait;
use std::time::Instant;

pub(crate) struct Timed<P> {
    pub inner: P,
    pub latencies_us: Vec<u64>,
}

impl<P> Timed<P> {
    pub fn new(inner: P) -> Self {
        Timed {
            inner,
            latencies_us: Vec::new(),
        }
    }
}

#[async_trait]
impl<P: Policy> Policy for Timed<P> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        let started = Instant::now();
        let decision = self.inner.decide(ctx).await;
        self.latencies_us
            .push(started.elapsed().as_micros().min(u64::MAX as u128) as u64);
        decision
    }

    fn finish(&mut self, result: &ExecutionResult) {
        self.inner.finish(result)
    }
}
