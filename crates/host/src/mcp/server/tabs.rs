//! The server's tabs: the sessions it holds (the first tab first), the tabs their pages
//! opened as the browser lists them now, and switching the tools to another of them.

use super::{view_options, McpServer};
use crate::grants::{Grants, BLANK};
use crate::host::lock;
use crate::protocol::{
    ErrorCode, HostError, OpenSessionParams, SessionAuth, SessionParams, TargetId, TargetInfo,
    TargetSpec,
};
use arc_browser::backend::origin;
use rmcp::model::CallToolResult;
use serde::Serialize;

/// The tabs the server has sessions on, the first one first; the tools drive `current`.
pub(super) struct Tabs {
    pub(super) list: Vec<Tab>,
    pub(super) current: usize,
}

pub(super) struct Tab {
    pub(super) target: TargetInfo,
    pub(super) auth: SessionAuth,
}

/// A tab in `tabs`: a page of the browser the server may switch to.
#[derive(Serialize)]
pub(super) struct TabLine {
    pub(super) tab: String,
    pub(super) url: String,
    pub(super) title: String,
    pub(super) current: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) opened_by: Option<String>,
}

/// One of the server's tabs as the browser lists it now: shown (redacted) and as it is.
pub(super) struct FamilyTab {
    pub(super) line: TabLine,
    pub(super) url: String,
}

impl McpServer {
    /// The current tab's session.
    pub(super) fn session(&self) -> SessionAuth {
        let tabs = lock(&self.inner.tabs);
        tabs.list[tabs.current].auth.clone()
    }

    /// The browser's pages as it lists them now; a window server has none.
    pub(super) async fn pages(
        &self,
    ) -> Result<Vec<arc_browser::cdp::methods::target::TargetInfo>, HostError> {
        let browser = self
            .inner
            .connection
            .host()
            .browser()
            .await?
            .ok_or_else(|| {
                HostError::new(
                    ErrorCode::UnsupportedOnTarget,
                    "this server drives a desktop window: there are no tabs",
                )
            })?;
        browser.pages().await.map_err(|e| {
            let code = if e.lost().is_some() {
                ErrorCode::BrowserLost
            } else {
                ErrorCode::BackendFailure
            };
            HostError::new(code, format!("cannot list the tabs: {e}"))
        })
    }

    /// The tabs the server may drive, as the browser lists them now: those it has
    /// sessions on (the first one first), then every tab one of them opened, in turn
    /// (Chromium's `openerId`, set for `noopener` tabs too). A tab that closed is gone.
    pub(super) async fn family(&self) -> Result<Vec<FamilyTab>, HostError> {
        let pages = self.pages().await?;
        let (mut ids, current) = {
            let tabs = lock(&self.inner.tabs);
            let ids: Vec<String> = tabs
                .list
                .iter()
                .map(|t| t.target.target_id().0.clone())
                .collect();
            (ids, tabs.list[tabs.current].target.target_id().0.clone())
        };
        ids.retain(|id| pages.iter().any(|p| &p.target_id.0 == id));
        loop {
            let before = ids.len();
            for p in &pages {
                let opened_by_ours = p.opener_id.as_ref().is_some_and(|o| ids.contains(&o.0));
                if opened_by_ours && !ids.contains(&p.target_id.0) {
                    ids.push(p.target_id.0.clone());
                }
            }
            if ids.len() == before {
                break;
            }
        }
        let host = self.inner.connection.host();
        Ok(ids
            .iter()
            .filter_map(|id| pages.iter().find(|p| &p.target_id.0 == id))
            .map(|p| {
                let mut shown = [TargetInfo::Page {
                    target_id: TargetId(p.target_id.0.clone()),
                    url: p.url.clone(),
                    title: p.title.clone(),
                }];
                host.redact_targets(&mut shown);
                let [TargetInfo::Page { url, title, .. }] = shown else {
                    unreachable!("a page stays a page")
                };
                FamilyTab {
                    line: TabLine {
                        tab: p.target_id.0.clone(),
                        url,
                        title,
                        current: p.target_id.0 == current,
                        opened_by: p.opener_id.as_ref().map(|o| o.0.clone()),
                    },
                    url: p.url.clone(),
                }
            })
            .collect())
    }

    /// The current tab as the browser lists it now (its URL and title change), or as it
    /// was opened (a window; a page the browser no longer lists).
    pub(super) async fn current_target(&self) -> TargetInfo {
        let stored = {
            let tabs = lock(&self.inner.tabs);
            tabs.list[tabs.current].target.clone()
        };
        if !matches!(stored, TargetInfo::Page { .. }) {
            return stored;
        }
        let family = self.family().await.unwrap_or_default();
        match family.into_iter().find(|t| t.line.current) {
            Some(t) => TargetInfo::Page {
                target_id: stored.target_id().clone(),
                url: t.line.url,
                title: t.line.title,
            },
            None => stored,
        }
    }

    /// Makes `tab` the current one: a tab the server has a session on, or one of its
    /// pages opened (a new session with the server's grants, when the tab is on one of
    /// the server's origins or blank). Replies with a fresh observation of it.
    pub(super) async fn switch_to(&self, tab: &str) -> Result<CallToolResult, HostError> {
        let _one = self.inner.switching.lock().await;
        let known = {
            let mut tabs = lock(&self.inner.tabs);
            let at = tabs.list.iter().position(|t| t.target.target_id().0 == tab);
            if let Some(i) = at {
                tabs.current = i;
            }
            at.is_some()
        };
        if known {
            return self.observe_with(view_options()).await;
        }
        let family = self.family().await?;
        let Some(found) = family.iter().find(|t| t.line.tab == tab) else {
            return Err(HostError::new(
                ErrorCode::TargetOutOfScope,
                format!(
                    "{} is not one of this server's tabs (the first one and those its pages opened): tabs lists them",
                    arc_core::clip(tab, 80)
                ),
            ));
        };
        self.within_reach(tab, &found.url)?;
        let opened = self
            .inner
            .connection
            .open_session(OpenSessionParams {
                grants: Grants {
                    allow_launch: false,
                    ..self.inner.grants.clone()
                },
                target: TargetSpec {
                    target_id: Some(TargetId(tab.to_owned())),
                    url: None,
                },
            })
            .await?;
        // Read again once the session listens: a tab that moved on meanwhile is judged
        // where it is now (any later move, its confinement sees).
        let now = match &opened.target {
            TargetInfo::Page { url, .. } => url.clone(),
            TargetInfo::Window { .. } => String::new(),
        };
        if let Err(e) = self.within_reach(tab, &now) {
            let _ = self
                .inner
                .connection
                .stop_session(SessionParams {
                    session: opened.session,
                })
                .await;
            return Err(e);
        }
        {
            let mut tabs = lock(&self.inner.tabs);
            tabs.list.push(Tab {
                target: opened.target,
                auth: opened.session,
            });
            tabs.current = tabs.list.len() - 1;
        }
        self.observe_with(view_options()).await
    }

    /// Refuses a tab at `url` that is off the server's origins (blank is no origin).
    pub(super) fn within_reach(&self, tab: &str, url: &str) -> Result<(), HostError> {
        if url == BLANK || self.inner.reach.allows(url) {
            return Ok(());
        }
        let here = origin(url)
            .unwrap_or_else(|| format!("a {}: page", url.split(':').next().unwrap_or_default()));
        Err(HostError::new(
            ErrorCode::OriginNotAllowed,
            format!(
                "tab {} is on {}, which is not one of this server's origins: it stays out of reach (grant its origin with --allow-navigate)",
                arc_core::clip(tab, 80),
                arc_core::clip(&here, 80)
            ),
        ))
    }
}
