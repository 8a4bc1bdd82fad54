//! Runtime-owned settling: after a mutation, sample the backend's cheap probe until the
//! UI is quiet, or shows no reaction at all, or the cap is hit. The model never decides
//! timing.
//!
//! Effect-aware: when the action's [`ExpectedEffect`] is known and the backend sees it on
//! the page, nothing is in flight (`busy` false: no request, no loading document) and the
//! probe has not changed for [`EFFECT_QUIET`], settling ends (`SettleEnd::Effect`). Once
//! the effect holds, the probe's `steady` fingerprint is what must stay unchanged: an
//! animation of another element that shows or hides nothing does not hold settling for
//! its whole duration (the backend decides what is cosmetic; see `EffectSample::steady`).
//! A request the page starts in reaction (a validation round trip) keeps it busy, so it
//! is still waited for; an unknown effect waits out the full quiet window as before.

use crate::backend::{Backend, EffectSample, SettleSample};
use crate::config::SettleConfig;
use crate::effect::ExpectedEffect;
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
    /// The action's expected effect was on the page, nothing was in flight and the UI
    /// stayed unchanged for the short effect window.
    Effect,
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

/// How long the probe must stay unchanged and idle once the expected effect is on the page,
/// at most: two polls of the default 20 ms, enough for a handler's follow-up mutation or
/// request to show (a request shows as `busy` at once). See [`effect_quiet`].
pub const EFFECT_QUIET: Duration = Duration::from_millis(40);

/// The effect window under `cfg`: two of its polls (a follow-up shows within one poll of
/// happening), at most [`EFFECT_QUIET`] and the quiet window. MiniWoB++'s 10 ms polls give
/// 20 ms: click/form settle p50 50 → 25 ms (`bench steps --no-fixtures --seeds 3`).
pub fn effect_quiet(cfg: &SettleConfig) -> Duration {
    EFFECT_QUIET.min(cfg.quiet).min(cfg.poll * 2)
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
    settle_for(
        backend,
        before,
        &ExpectedEffect::Unknown,
        cfg,
        cap,
        interrupt,
    )
    .await
}

/// [`settle`], ending early once `effect` is on the page (see the module docs).
pub async fn settle_for<B: Backend + ?Sized>(
    backend: &mut B,
    before: SettleSample,
    effect: &ExpectedEffect,
    cfg: &SettleConfig,
    cap: Duration,
    interrupt: impl Future<Output = ()>,
) -> Result<SettleReport, BackendError> {
    let effect_quiet = effect_quiet(cfg);
    let start = Instant::now();
    let mut last = before;
    let mut last_change = start;
    let mut reacted = false;
    let mut samples = 0u32;
    // The steady fingerprint with `busy` (a request that just ended may still be
    // answered on the page), and when it last changed (its first sample counts as one).
    let mut steady: Option<(u64, bool)> = None;
    let mut steady_change = start;
    tokio::pin!(interrupt);
    let end = loop {
        // The default `settle_probe_for` is `settle_probe`; a landing is only believed
        // for an effect that was asked about.
        let EffectSample {
            sample,
            landed,
            steady: now_steady,
        } = tokio::select! {
            biased;
            _ = &mut interrupt => break SettleEnd::Interrupted,
            s = backend.settle_probe_for(effect) => s?,
        };
        samples += 1;
        let now = Instant::now();
        if sample != last {
            last = sample;
            last_change = now;
        }
        reacted |= sample.fingerprint != before.fingerprint || sample.busy;
        // A reaction is the effect itself: it has landed once the page moved.
        let landed = landed && effect.is_known() && (reacted || !effect.is_reaction());
        if steady != Some((now_steady, sample.busy)) {
            steady = Some((now_steady, sample.busy));
            steady_change = now;
        }
        if !sample.busy {
            if landed && now - steady_change >= effect_quiet {
                break SettleEnd::Effect;
            }
            // The steady fingerprint also moves with what the full one leaves out (an
            // animation of the clicked control's box): the quiet window waits for it too.
            // For an unknown effect the two are the same.
            if reacted && now - last_change.max(steady_change) >= cfg.quiet {
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

/// Waits until the UI is still: the probe unchanged and idle for the effect window
/// ([`effect_quiet`]), at most `cap`. Before re-observing after a press was refused
/// because its target moved or was covered: mid-animation (an accordion's panel sliding
/// open under the link to press) the next observation would only see it move again and
/// the retries run out within the slide. A page already still costs two polls.
pub async fn still<B: Backend + ?Sized>(
    backend: &mut B,
    cfg: &SettleConfig,
    cap: Duration,
    interrupt: impl Future<Output = ()>,
) -> Result<SettleReport, BackendError> {
    let window = effect_quiet(cfg);
    let start = Instant::now();
    let mut last: Option<SettleSample> = None;
    let mut since = start;
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
        if last != Some(sample) {
            last = Some(sample);
            since = now;
        }
        if !sample.busy && now - since >= window {
            break SettleEnd::Quiet;
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
