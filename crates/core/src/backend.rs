//! The backend trait: how the loop observes and acts on one target.
//!
//! Async so a CDP socket, a D-Bus connection or a simulation all fit; `&mut self` because
//! a backend serves one session, and concurrency comes from many sessions, each with its
//! own backend, on one runtime.

use crate::effect::ExpectedEffect;
use crate::error::BackendError;
use crate::executable::ExecutableAction;
use crate::record::LandedElsewhere;
use crate::risk::PressFacts;
use crate::snapshot::Snapshot;
use async_trait::async_trait;
use std::time::Duration;
use xxhash_rust::xxh3::xxh3_64;

/// One cheap sample of "is the UI still moving?". Equal samples mean no visible change;
/// `busy` means work is known to be pending (in-flight requests, a loading document).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettleSample {
    pub fingerprint: u64,
    pub busy: bool,
}

/// What executing an action did that the page's next observation cannot show: returned
/// by [`Backend::execute`], filled as far as the backend knows, and forwarded as it is by
/// a backend that wraps another one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Executed {
    /// Where a press went when the page confirmed it was not its target.
    pub landed_elsewhere: Option<LandedElsewhere>,
    /// The action had to use physical input (a synthesized pointer or key event)
    /// because no accessibility interface served.
    pub physical_input: bool,
}

/// A settle sample plus whether the action's expected effect is on the page now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EffectSample {
    pub sample: SettleSample,
    /// `false` also when the backend cannot tell: settling then waits as for an unknown
    /// effect.
    pub landed: bool,
    /// The fingerprint without changes that cannot alter what the next observation reads
    /// once the effect holds (a style animation of an element that neither holds the
    /// target nor shows or hides); `sample.fingerprint` when the backend cannot tell.
    /// Only read while `landed`.
    pub steady: u64,
}

impl EffectSample {
    /// A sample whose effect the backend cannot check.
    pub fn unchecked(sample: SettleSample) -> Self {
        EffectSample {
            sample,
            landed: false,
            steady: sample.fingerprint,
        }
    }
}

#[async_trait]
pub trait Backend: Send {
    /// A short name for messages (`cdp`, `atspi`, `sim`).
    fn name(&self) -> &'static str;

    /// Captures the current state.
    async fn observe(&mut self) -> Result<Snapshot, BackendError>;

    /// Whether `action`'s target (and drop destination) still match their guards, and
    /// for untargeted actions whether the context is still the one observed.
    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError>;

    /// Performs the action and says what it did beyond the page ([`Executed`]). Returns
    /// `Stale` if the target changed under it, `Invalid` if the action is illegal here,
    /// `Unsupported` if this backend cannot do it.
    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError>;

    /// What the live page shows about what `action` would press beyond the snapshot's
    /// names (the target's visible text, the form Enter would submit), for the risk gate.
    /// The default: nothing beyond the snapshot.
    async fn press_facts(
        &mut self,
        _snapshot: &Snapshot,
        _action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        Ok(PressFacts::default())
    }

    /// A cheap sample for settling. The default observes and hashes the revision;
    /// backends with a cheaper signal (DOM mutation counters, AT-SPI events) override it.
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        let snapshot = self.observe().await?;
        Ok(SettleSample {
            fingerprint: xxh3_64(snapshot.revision.as_bytes()),
            busy: false,
        })
    }

    /// [`Backend::settle_probe`] plus whether `effect` is on the page, in one sample. The
    /// default cannot tell (`landed: false`), which settles exactly as before.
    async fn settle_probe_for(
        &mut self,
        _effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        Ok(EffectSample::unchecked(self.settle_probe().await?))
    }

    /// The smallest settle cap this backend needs (the runtime uses the larger of this
    /// and its configured cap).
    fn min_settle_cap(&self) -> Duration {
        Duration::ZERO
    }
}

#[async_trait]
impl<B: Backend + ?Sized> Backend for Box<B> {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        (**self).observe().await
    }
    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        (**self).is_fresh(snapshot, action).await
    }
    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        (**self).execute(snapshot, action).await
    }
    async fn press_facts(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        (**self).press_facts(snapshot, action).await
    }
    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        (**self).settle_probe().await
    }
    async fn settle_probe_for(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        (**self).settle_probe_for(effect).await
    }
    fn min_settle_cap(&self) -> Duration {
        (**self).min_settle_cap()
    }
}
