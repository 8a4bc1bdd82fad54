//! Optional screenshots: a backend wrapper that captures the viewport after every
//! observation, so the observation that records a step leaves its picture for the
//! step's event. Off by default: a capture adds ~10–30 ms to each step's latency.
//!
//! The wrapper owns its browser (a task file's run) or borrows it (MiniWoB++ keeps one
//! browser for every episode while the executor takes its backend by value).

use crate::result::Screenshot;
use arc_browser::backend::BrowserBackend;
use arc_browser::cdp::methods::page::{CaptureScreenshot, ImageFormat, Viewport};
use arc_browser::PageSession;
use arc_core::{
    Backend, BackendError, EffectSample, ExecutableAction, Executed, ExpectedEffect, PressFacts,
    SettleSample, Snapshot,
};
use async_trait::async_trait;
use std::borrow::BorrowMut;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The latest capture, shared with the event callback that files it under its step.
pub(crate) type Latest = Arc<Mutex<Option<Screenshot>>>;

pub(crate) struct Shots<B> {
    inner: B,
    /// None: screenshots are off.
    latest: Option<Latest>,
    /// The part of the page worth a picture; none for the whole viewport.
    clip: Option<Viewport>,
}

impl<B: BorrowMut<BrowserBackend>> Shots<B> {
    pub fn new(inner: B, on: bool) -> Self {
        Shots {
            inner,
            latest: on.then(Latest::default),
            clip: None,
        }
    }

    pub fn clipped(self, clip: Option<Viewport>) -> Self {
        Shots { clip, ..self }
    }

    /// Where the capture after each observation goes; none when screenshots are off.
    pub fn latest(&self) -> Option<Latest> {
        self.latest.clone()
    }

    pub fn browser(&self) -> &BrowserBackend {
        self.inner.borrow()
    }

    fn browser_mut(&mut self) -> &mut BrowserBackend {
        self.inner.borrow_mut()
    }
}

/// JPEG keeps a report with a dozen steps per task small enough to open.
pub(crate) async fn capture(page: &PageSession, clip: Option<Viewport>) -> Option<Screenshot> {
    let call = page.call(CaptureScreenshot {
        format: Some(ImageFormat::Jpeg),
        quality: Some(70),
        clip,
        ..Default::default()
    });
    match tokio::time::timeout(Duration::from_secs(5), call).await {
        Ok(Ok(shot)) => Some(Screenshot(format!("data:image/jpeg;base64,{}", shot.data))),
        Ok(Err(e)) => {
            tracing::debug!("screenshot failed: {e}");
            None
        }
        Err(_) => None,
    }
}

#[async_trait]
impl<B: BorrowMut<BrowserBackend> + Send> Backend for Shots<B> {
    fn name(&self) -> &'static str {
        self.browser().name()
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        let snapshot = self.browser_mut().observe().await?;
        if let Some(latest) = &self.latest {
            let shot = capture(self.browser().page(), self.clip).await;
            *latest.lock().unwrap_or_else(|p| p.into_inner()) = shot;
        }
        Ok(snapshot)
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        self.browser_mut().is_fresh(snapshot, action).await
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        self.browser_mut().execute(snapshot, action).await
    }

    async fn press_facts(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        self.browser_mut().press_facts(snapshot, action).await
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.browser_mut().settle_probe().await
    }

    async fn settle_probe_for(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        self.browser_mut().settle_probe_for(effect).await
    }

    fn min_settle_cap(&self) -> Duration {
        self.browser().min_settle_cap()
    }
}
