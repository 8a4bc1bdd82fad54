//! Runtime-owned settling: after a mutation, sample the backend's cheap probe until the
//! UI is quiet, or shows no reaction at all, or the cap is hit. The model never decides
//! timing.

use crate::backend::{Backend, SettleSample};
use crate::config::SettleConfig;
use crate::error::BackendError;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettleEnd {
    /// The UI reacted, then stayed unchanged and idle for the quiet window.
    Quiet,
    /// Nothing changed within the reaction window.
    NoReaction,
    /// Still changing or busy at the cap.
    Cap,
    /// Cut short by cancellation or the run's deadline.
    Interrupted,
    /// The action has no effect to wait for (WAIT).
    Skipped,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettleReport {
    pub end: SettleEnd,
    pub elapsed_ms: u64,
    pub samples: u32,
}

/// Samples `backend` from `before` (taken just before the action) until settled.
/// `interrupt` resolves when the run is cancelled or out of time.
pub async fn settle<B: Backend + ?Sized>(
    backend: &mut B,
    before: SettleSample,
    cfg: &SettleConfig,
    cap: Duration,
    interrupt: impl Future<Output = ()>,
) -> Result<SettleReport, BackendError> {
    let start = Instant::now();
    let mut last = before;
    let mut last_change = start;
    let mut reacted = false;
    let mut samples = 0u32;
    tokio::pin!(interrupt);
    let end = loop {
        let sample = tokio::select! {
            biased;
            _ = &mut interrupt => break SettleEnd::Interrupted,
            s = backend.settle_probe() => s?,
        };
        samples += 1;
        let now = Instant::now();
        if sample != last {
            last = sample;
            last_change = now;
        }
        reacted |= sample.fingerprint != before.fingerprint || sample.busy;
        if !sample.busy {
            if reacted && now - last_change >= cfg.quiet {
                break SettleEnd::Quiet;
            }
            if !reacted && now - start >= cfg.reaction {
                break SettleEnd::NoReaction;
            }
        }
        if now - start >= cap {
            break SettleEnd::Cap;
        }
        tokio::select! {
            biased;
            _ = &mut interrupt => break SettleEnd::Interrupted,
            _ = tokio::time::sleep(cfg.poll) => {}
        }
    };
    Ok(SettleReport {
        end,
        elapsed_ms: start.elapsed().as_millis() as u64,
        samples,
    })
}
