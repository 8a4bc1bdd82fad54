//! Optional screenshots: a backend wrapper that captures the viewport after every
//! observation, so the observation that records a step leaves its picture for the
//! step's event. Off by default: a capture adds ~10–30 ms to each step's latency.

use crate::result::Screenshot;
use arc_browser::backend::BrowserBackend;
use arc_browser::cdp::methods::page::{CaptureScreenshot, ImageFormat};
use arc_browser::PageSession;
use arc_core::{Backend, BackendError, ExecutableAction, SettleSample, Snapshot};
use async_trait::async_trait;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The latest capture, shared with the event callback that files it under its step.
pub(crate) type Latest = Arc<Mutex<Option<Screenshot>>>;

pub(crate) struct Shots {
    pub inner: BrowserBackend,
    /// None: screenshots are off.
    pub latest: Option<Latest>,
}

/// JPEG keeps a report with a dozen steps per task small enough to open.
pub(crate) async fn capture(page: &PageSession) -> Option<Screenshot> {
    let call = page.call(CaptureScreenshot {
        format: Some(ImageFormat::Jpeg),
        quality: Some(70),
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
impl Backend for Shots {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        let snapshot = self.inner.observe().await?;
        if let Some(latest) = &self.latest {
            let shot = capture(self.inner.page()).await;
            *latest.lock().unwrap_or_else(|p| p.into_inner()) = shot;
        }
        Ok(snapshot)
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        self.inner.is_fresh(snapshot, action).await
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<(), BackendError> {
        self.inner.execute(snapshot, action).await
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.inner.settle_probe().await
    }

    fn min_settle_cap(&self) -> Duration {
        self.inner.min_settle_cap()
    }
}
