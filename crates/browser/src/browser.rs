//! [`Browser`]: a browser-level connection with target helpers; [`PageSession`]: a flat
//! session on one page target.

use std::time::Duration;

use serde::de::DeserializeOwned;
use tokio::sync::mpsc;

use crate::cdp::events::{
    DetachedFromTarget, FrameNavigated, JavascriptDialogOpening, LoadEventFired,
};
use crate::cdp::methods::{browser, inspector, page, runtime, target};
use crate::cdp::{
    Connection, ConnectionOptions, Event, Method, SessionFilter, SessionId, TargetId,
};
use crate::discovery;
use crate::error::{BrowserError, CdpError};

/// Default deadline for [`PageSession::navigate`] to see the load event.
pub const DEFAULT_NAVIGATION_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection to a browser endpoint (launched by [`Chromium`](crate::Chromium) or
/// remote). Cheap to clone; the socket closes when the last clone (and every
/// [`PageSession`] made from it) is dropped.
#[derive(Clone, Debug)]
pub struct Browser {
    conn: Connection,
}

impl Browser {
    /// Connects to a DevTools endpoint: a `ws://…/devtools/browser/…` URL, or an
    /// `http://host:port` debugging address whose `/json/version` names the websocket.
    pub async fn connect(endpoint: &str) -> Result<Browser, BrowserError> {
        Self::connect_with(endpoint, ConnectionOptions::default()).await
    }

    /// [`Browser::connect`] with explicit connection options.
    pub async fn connect_with(
        endpoint: &str,
        options: ConnectionOptions,
    ) -> Result<Browser, BrowserError> {
        let ws_url = discovery::websocket_url(endpoint, options.connect_timeout).await?;
        let conn = Connection::connect_with(&ws_url, options).await?;
        Ok(Browser { conn })
    }

    /// Wraps an existing connection (which must be to a browser-level endpoint for the
    /// target helpers to work).
    pub fn from_connection(conn: Connection) -> Browser {
        Browser { conn }
    }

    /// The underlying connection, for raw calls and event subscriptions.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// A browser-level call (no session).
    pub async fn call<M: Method>(&self, params: M) -> Result<M::Returns, CdpError> {
        self.conn.call(None, params).await
    }

    /// Browser-level events (`Target.*` discovery and attach events).
    pub fn subscribe(&self) -> mpsc::UnboundedReceiver<Event> {
        self.conn.subscribe(SessionFilter::Browser)
    }

    /// `Browser.getVersion`.
    pub async fn version(&self) -> Result<browser::GetVersionReturns, CdpError> {
        self.call(browser::GetVersion {}).await
    }

    /// Every target (pages, iframes, workers, ...).
    pub async fn targets(&self) -> Result<Vec<target::TargetInfo>, CdpError> {
        Ok(self.call(target::GetTargets::default()).await?.target_infos)
    }

    /// The page targets (tabs).
    pub async fn pages(&self) -> Result<Vec<target::TargetInfo>, CdpError> {
        let mut targets = self.targets().await?;
        targets.retain(target::TargetInfo::is_page);
        Ok(targets)
    }

    /// Opens a new tab, attaches a [`PageSession`] and navigates it to `url`, waiting
    /// for the load event (not for `about:blank`).
    pub async fn new_page(&self, url: &str) -> Result<PageSession, BrowserError> {
        self.new_page_with(url, target::CreateTarget::new("about:blank"))
            .await
    }

    /// [`Browser::new_page`] in a window of its own: the page is in front of its window,
    /// so its input is never held back as a background tab's is.
    pub async fn new_window(&self, url: &str) -> Result<PageSession, BrowserError> {
        let create = target::CreateTarget {
            new_window: Some(true),
            ..target::CreateTarget::new("about:blank")
        };
        self.new_page_with(url, create).await
    }

    async fn new_page_with(
        &self,
        url: &str,
        create: target::CreateTarget,
    ) -> Result<PageSession, BrowserError> {
        // Created blank and navigated after attaching, so the load event cannot be
        // missed between creation and attach.
        let created = self.call(create).await?;
        let page = match self.attach(created.target_id.clone()).await {
            Ok(page) => page,
            Err(e) => {
                let target_id = created.target_id;
                let _ = self.call(target::CloseTarget { target_id }).await;
                return Err(e);
            }
        };
        if url != "about:blank" {
            if let Err(e) = page.navigate(url).await {
                // The caller gets no handle to the tab: do not leave it open.
                let _ = page.close().await;
                return Err(e);
            }
        }
        Ok(page)
    }

    /// Attaches a flat session to an existing target and enables the `Page` and
    /// `Inspector` domains.
    pub async fn attach(&self, target_id: TargetId) -> Result<PageSession, BrowserError> {
        let attached = self
            .call(target::AttachToTarget::flat(target_id.clone()))
            .await?;
        let page = PageSession {
            conn: self.conn.clone(),
            session_id: attached.session_id,
            target_id,
            navigation_timeout: DEFAULT_NAVIGATION_TIMEOUT,
        };
        page.call(page::Enable {}).await?;
        // So a renderer crash fails this session's calls at once (the connection watches
        // for `Inspector.targetCrashed`) rather than after their timeouts.
        page.call(inspector::Enable {}).await?;
        Ok(page)
    }

    /// `Browser.close`: asks the browser to exit. For a launched browser prefer
    /// [`Chromium::close`](crate::Chromium::close), which also waits and kills.
    pub async fn close(&self) -> Result<(), CdpError> {
        match self.call(browser::Close {}).await {
            Ok(_) | Err(CdpError::Closed { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }
}

/// A flat session attached to one page target. All calls carry its `sessionId`.
/// Cheap to clone (shares the browser's socket).
#[derive(Clone, Debug)]
pub struct PageSession {
    conn: Connection,
    session_id: SessionId,
    target_id: TargetId,
    navigation_timeout: Duration,
}

impl PageSession {
    pub fn session_id(&self) -> &SessionId {
        &self.session_id
    }

    pub fn target_id(&self) -> &TargetId {
        &self.target_id
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Commands sent and events received for this page so far, over every session of
    /// this socket on it ([`Connection::traffic`]).
    pub fn traffic(&self) -> Option<u64> {
        self.conn.traffic(&self.session_id)
    }

    /// Sets the deadline [`PageSession::navigate`] waits for the load event.
    pub fn set_navigation_timeout(&mut self, timeout: Duration) {
        self.navigation_timeout = timeout;
    }

    /// A call in this session, with the connection's default timeout.
    pub async fn call<M: Method>(&self, params: M) -> Result<M::Returns, CdpError> {
        self.conn.call(Some(&self.session_id), params).await
    }

    /// A call in this session with an explicit timeout.
    pub async fn call_with_timeout<M: Method>(
        &self,
        params: M,
        timeout: Duration,
    ) -> Result<M::Returns, CdpError> {
        self.conn
            .call_with_timeout(Some(&self.session_id), params, timeout)
            .await
    }

    /// This session's events (enable the domains you need first; `Page` is enabled).
    pub fn subscribe(&self) -> mpsc::UnboundedReceiver<Event> {
        self.conn
            .subscribe(SessionFilter::Session(self.session_id.clone()))
    }

    /// Navigates the main frame and waits for the new document's load event (at most
    /// the navigation timeout). Same-document navigations return at once, and so does a
    /// navigation whose load a JavaScript dialog blocks (`alert()` in an inline script):
    /// the dialog is the page's state until someone answers it.
    pub async fn navigate(&self, url: &str) -> Result<page::NavigateReturns, BrowserError> {
        // Subscribe before navigating: the events may arrive before the reply.
        let mut events = self.subscribe();
        let nav = self.call(page::Navigate::new(url)).await?;
        if let Some(error_text) = nav.error_text.as_ref().filter(|t| !t.is_empty()) {
            return Err(BrowserError::Navigation {
                url: url.to_owned(),
                error_text: error_text.clone(),
            });
        }
        // Same-document navigations and downloads have no load event to wait for.
        let Some(loader_id) = nav.loader_id.clone().filter(|_| !nav.is_download) else {
            return Ok(nav);
        };
        let timeout = self.navigation_timeout;
        let wait = async {
            // Only a load after *this* document committed counts.
            let mut committed = false;
            while let Some(event) = events.recv().await {
                if let Some(Ok(e)) = event.parse::<FrameNavigated>() {
                    committed |= e.frame.id == nav.frame_id && e.frame.loader_id == loader_id;
                } else if committed && event.is::<LoadEventFired>() {
                    return Ok(());
                } else if event.is::<JavascriptDialogOpening>() {
                    // The load event waits for the dialog, which nobody here answers.
                    return Ok(());
                }
            }
            Err(CdpError::Closed {
                method: "Page.navigate (waiting for load)".into(),
            })
        };
        match tokio::time::timeout(timeout, wait).await {
            Ok(Ok(())) => Ok(nav),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(BrowserError::NavigationTimeout {
                url: url.to_owned(),
                timeout,
            }),
        }
    }

    /// Evaluates `expression` in the page's main world, awaiting a returned promise,
    /// and returns the result as JSON (`undefined` → `null`). A thrown exception is
    /// [`BrowserError::JavaScript`]. While a JavaScript dialog is open the page cannot
    /// evaluate: the call then ends in the connection's call timeout.
    pub async fn evaluate(&self, expression: &str) -> Result<serde_json::Value, BrowserError> {
        let reply = self.call(runtime::Evaluate::by_value(expression)).await?;
        if let Some(details) = reply.exception_details {
            return Err(BrowserError::JavaScript {
                expression: expression.to_owned(),
                text: details.message(),
            });
        }
        Ok(reply.result.value.unwrap_or(serde_json::Value::Null))
    }

    /// [`PageSession::evaluate`] deserialized into `T`.
    pub async fn evaluate_as<T: DeserializeOwned>(
        &self,
        expression: &str,
    ) -> Result<T, BrowserError> {
        let value = self.evaluate(expression).await?;
        serde_json::from_value(value).map_err(|source| {
            CdpError::Deserialize {
                method: "Runtime.evaluate".into(),
                source,
            }
            .into()
        })
    }

    /// Ends this session (`Target.detachFromTarget`), leaving its target as it is: for a
    /// session attached to a frame or a page the runtime does not own.
    pub async fn detach(&self) -> Result<(), CdpError> {
        self.conn
            .call(
                None,
                target::DetachFromTarget {
                    session_id: self.session_id.clone(),
                },
            )
            .await
            .map(|_| ())
    }

    /// Closes the tab (`Target.closeTarget`) and waits (up to 5 s) until Chromium has
    /// detached this session, so the target is gone from [`Browser::pages`].
    pub async fn close(self) -> Result<(), CdpError> {
        const METHOD: &str = "Target.closeTarget";
        let timeout = Duration::from_secs(5);
        let mut events = self.conn.subscribe(SessionFilter::Browser);
        self.conn
            .call(
                None,
                target::CloseTarget {
                    target_id: self.target_id.clone(),
                },
            )
            .await?;
        let detached = async {
            while let Some(event) = events.recv().await {
                if let Some(Ok(e)) = event.parse::<DetachedFromTarget>() {
                    if e.session_id == self.session_id {
                        return;
                    }
                }
            }
        };
        tokio::time::timeout(timeout, detached)
            .await
            .map_err(|_| CdpError::Timeout {
                method: format!("{METHOD} (waiting for detach)"),
                timeout,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync + 'static>() {}

    #[test]
    fn handles_can_move_across_tasks() {
        assert_send_sync::<Browser>();
        assert_send_sync::<PageSession>();
        assert_send_sync::<Connection>();
        assert_send_sync::<crate::Chromium>();
        assert_send_sync::<crate::StaticServer>();
        assert_send_sync::<BrowserError>();
    }
}
