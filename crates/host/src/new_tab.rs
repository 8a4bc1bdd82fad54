//! A new tab for a session, never left behind by a client that hangs up mid-open: its
//! request is dropped then, at any await, and neither the open nor the tab may go with it.

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::{Browser, BrowserError, PageSession};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long a tab nobody took gets to close.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// Opens `url` in a new tab in a task of its own: if the caller is gone when the tab
/// has loaded, the task closes it.
pub(crate) async fn open(
    browser: Browser,
    url: &str,
    options: BrowserOptions,
) -> Result<BrowserBackend, BrowserError> {
    let (tx, rx) = oneshot::channel();
    let url = url.to_owned();
    tokio::spawn(async move {
        let opened = BrowserBackend::open(browser, &url, options).await;
        if let Err(Ok(backend)) = tx.send(opened) {
            close(backend.page().clone()).await;
        }
    });
    rx.await.unwrap_or_else(|_| {
        Err(BrowserError::Io {
            context: "opening the tab".into(),
            source: std::io::Error::other("its task ended without an answer"),
        })
    })
}

/// A new tab until its session is in the connection's table: dropped unclaimed (the
/// request was dropped), it closes the tab.
pub(crate) struct Unclaimed(Option<PageSession>);

impl Unclaimed {
    pub fn new(page: PageSession) -> Self {
        Unclaimed(Some(page))
    }

    /// The session holds the tab now; it closes it when it stops.
    pub fn claim(mut self) {
        self.0 = None;
    }
}

impl Drop for Unclaimed {
    fn drop(&mut self) {
        if let (Some(page), Ok(rt)) = (self.0.take(), tokio::runtime::Handle::try_current()) {
            rt.spawn(close(page));
        }
    }
}

async fn close(page: PageSession) {
    let _ = tokio::time::timeout(CLOSE_WAIT, page.close()).await;
}
