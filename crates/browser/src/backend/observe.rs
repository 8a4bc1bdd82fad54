//! Observation, freshness and the settle probe.

use super::ax::{build_tree, raw_from_ax, FrameNodes};
use super::layout::Layout;
use super::prune::Pruner;
use super::raw::NodeHandle;
use super::{failed, BrowserBackend};
use crate::cdp::methods::{accessibility, page};
use crate::cdp::{FrameId, LoaderId};
use arc_core::{
    ActionKind, ActionSet, BackendError, Bounds, Element, ElementId, ExecutableAction, Role,
    SettleSample, Snapshot, Source,
};
use futures_util::future::join_all;
use std::time::{SystemTime, UNIX_EPOCH};
use xxhash_rust::xxh3::xxh3_64;

/// The pseudo-document that tabs opened by the page live in, for id purposes.
pub(super) const POPUPS: &str = "popups";

impl BrowserBackend {
    pub(super) async fn observe_page(&mut self) -> Result<Snapshot, BackendError> {
        let dialog = self.shared.lock().dialog.clone();
        if let Some(dialog) = dialog {
            return Ok(self.dialog_snapshot(&dialog));
        }
        let mut opened = self.shared.dialog_opened();
        opened.borrow_and_update();
        let read = tokio::select! {
            r = self.read_page() => r,
            // A dialog blocks the page's renderer: answer with the dialog instead of waiting.
            _ = opened.changed() => return self.observe_dialog_now(),
        };
        let (elements, title, url, viewport) = read?;
        let mut snapshot = Snapshot::new("Chromium", title, elements);
        snapshot.viewport = Some(viewport);
        snapshot.context.insert("url".into(), url.into());
        snapshot.captured_at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .ok()
            .map(|d| d.as_millis() as u64);
        Ok(snapshot)
    }

    fn observe_dialog_now(&mut self) -> Result<Snapshot, BackendError> {
        let dialog = self.shared.lock().dialog.clone();
        match dialog {
            Some(d) => Ok(self.dialog_snapshot(&d)),
            None => Err(failed(
                "a dialog opened and closed during the observation; observe again",
            )),
        }
    }

    /// Frames, their accessibility trees and the DOM snapshot, fetched concurrently.
    async fn read_page(&mut self) -> Result<(Vec<Element>, String, String, Bounds), BackendError> {
        let tree = self
            .page
            .call(page::GetFrameTree {})
            .await
            .map_err(failed)?;
        let frames: Vec<page::Frame> = tree.frame_tree.frames().into_iter().cloned().collect();
        let ax_calls = frames.iter().map(|f| {
            self.page.call(accessibility::GetFullAxTree {
                depth: None,
                frame_id: Some(f.id.clone()),
            })
        });
        let (trees, snap, metrics) = tokio::join!(
            join_all(ax_calls),
            self.page.call(Layout::request()),
            self.page.call(page::GetLayoutMetrics {}),
        );
        let layout = Layout::build(&snap.map_err(failed)?);
        let metrics = metrics.map_err(failed)?;
        let mut per_frame = Vec::with_capacity(frames.len());
        for (f, t) in frames.iter().zip(trees) {
            match t {
                Ok(t) => per_frame.push(FrameNodes {
                    frame: f.id.clone(),
                    nodes: t.nodes,
                }),
                // A frame that went away mid-read is simply not shown.
                Err(e) if !per_frame.is_empty() => {
                    tracing::debug!(frame = %f.id, "frame tree unavailable: {e}")
                }
                Err(e) => return Err(failed(e)),
            }
        }
        self.frames = frames
            .iter()
            .map(|f| (f.id.clone(), f.loader_id.clone()))
            .collect();
        let loaders: std::collections::HashMap<FrameId, LoaderId> =
            self.frames.iter().cloned().collect();
        let raw = build_tree(&per_frame, &layout);
        let ids = &mut self.ids;
        let mut elements = Pruner::new(&raw, |h| {
            ids.id_for(loaders.get(h.frame()).unwrap_or(&LoaderId::default()), h)
        })
        .run();
        elements.extend(self.popup_elements());
        let mut live: Vec<&LoaderId> = self.frames.iter().map(|(_, l)| l).collect();
        let popups = LoaderId(POPUPS.into());
        live.push(&popups);
        self.ids.retain_loaders(&live);
        let title = elements.first().map(|e| e.name.clone()).unwrap_or_default();
        let url = frames.first().map(|f| f.url.clone()).unwrap_or_default();
        let vp = metrics.css_layout_viewport;
        let viewport = Bounds {
            x: 0.0,
            y: 0.0,
            width: vp.client_width,
            height: vp.client_height,
        };
        Ok((elements, title, url, viewport))
    }

    /// Tabs the page opened, as elements a policy can switch to.
    pub(super) fn popup_elements(&mut self) -> Vec<Element> {
        let popups = self.shared.lock().popups.clone();
        let loader = LoaderId(POPUPS.into());
        popups
            .into_iter()
            .map(|p| {
                let handle = NodeHandle::Scan {
                    frame: FrameId(p.target_id.0.clone()),
                    key: 0,
                };
                let mut e = Element::new(
                    self.ids.id_for(&loader, &handle),
                    Role::Tab,
                    tab_label(&p.title, &p.url),
                );
                e.actions = ActionSet::from([ActionKind::Click]);
                e.source = Source::Cdp;
                e.metadata.insert("browser_tab".into(), true.into());
                e.metadata.insert("url".into(), p.url.into());
                e
            })
            .collect()
    }

    /// Whether the action's targets still match what was observed.
    pub(super) async fn fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        let dialog = self.shared.lock().dialog.clone();
        let observed_dialog = snapshot.context.get("dialog").and_then(|v| v.as_u64());
        if dialog.as_ref().map(|d| d.serial) != observed_dialog {
            return Ok(false);
        }
        if dialog.is_none() && action.target().is_none() {
            // Untargeted actions act on the page as observed: not after a navigation.
            let url = snapshot
                .context
                .get("url")
                .and_then(|v| v.as_str())
                .unwrap_or("");
            return Ok(self.current_url().await? == url);
        }
        let targets = [
            (action.target(), action.target_guard.as_ref()),
            (
                action.action.secondary_target(),
                action.secondary_target_guard.as_ref(),
            ),
        ];
        for (id, guard) in targets {
            let (Some(id), Some(guard)) = (id, guard) else {
                continue;
            };
            if self.reread_guard(id).await?.as_ref() != Some(guard) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The guard of one element as it is now (`None`: gone).
    async fn reread_guard(
        &mut self,
        id: &ElementId,
    ) -> Result<Option<arc_core::Guard>, BackendError> {
        let Some((loader, handle)) = self.ids.resolve(id).map(|(l, h)| (l.clone(), h.clone()))
        else {
            return Ok(None);
        };
        match &handle {
            NodeHandle::Backend { frame, node } => {
                if !self.frames.iter().any(|(f, l)| f == frame && *l == loader) {
                    return Ok(None);
                }
                let read = self
                    .page
                    .call(accessibility::GetPartialAxTree {
                        node: Some((*node).into()),
                        fetch_relatives: Some(false),
                    })
                    .await;
                let nodes = match read {
                    Ok(r) => r.nodes,
                    Err(crate::CdpError::Protocol { .. }) => return Ok(None),
                    Err(e) => return Err(failed(e)),
                };
                let n = nodes
                    .iter()
                    .find(|n| n.backend_dom_node_id == Some(*node))
                    .or(nodes.first());
                Ok(n.map(|n| raw_from_ax(n, frame, None).guard))
            }
            // Dialog parts and tabs: the element is what it was while its dialog or tab lives.
            NodeHandle::Scan { .. } => Ok(self.synthetic_guard(&loader, &handle)),
        }
    }

    async fn current_url(&mut self) -> Result<String, BackendError> {
        let tree = self
            .page
            .call(page::GetFrameTree {})
            .await
            .map_err(failed)?;
        Ok(tree.frame_tree.frame.url)
    }

    /// One cheap sample: URL, readyState, DOM mutation count, focus and scroll from the
    /// page helpers, plus in-flight requests started since the action.
    pub(super) async fn probe(&mut self) -> Result<SettleSample, BackendError> {
        if let Some(d) = self.shared.lock().dialog.clone() {
            return Ok(SettleSample {
                fingerprint: d.serial,
                busy: false,
            });
        }
        let (frame, loader) = match self.main_frame() {
            Some(f) => f.clone(),
            None => {
                let tree = self
                    .page
                    .call(page::GetFrameTree {})
                    .await
                    .map_err(failed)?;
                (tree.frame_tree.frame.id, tree.frame_tree.frame.loader_id)
            }
        };
        let mut opened = self.shared.dialog_opened();
        opened.borrow_and_update();
        let sample = tokio::select! {
            r = self.worlds.eval::<serde_json::Value>(&self.page, &frame, &loader, "__arc.probe()") => r,
            _ = opened.changed() => return Ok(SettleSample { fingerprint: 0, busy: false }),
        };
        let busy_network = self.shared.lock().busy();
        match sample {
            Ok(v) => {
                let loading = v.get(1).and_then(|s| s.as_str()) != Some("complete");
                let text = v.to_string();
                Ok(SettleSample {
                    fingerprint: xxh3_64(text.as_bytes()),
                    busy: busy_network || loading,
                })
            }
            // Mid-navigation the document (and our world in it) is being replaced: moving.
            Err(crate::BrowserError::Cdp(crate::CdpError::Closed { method })) => Err(failed(
                format!("the browser connection closed during {method}"),
            )),
            Err(e) => {
                tracing::debug!("probe failed mid-change: {e}");
                let jitter = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                Ok(SettleSample {
                    fingerprint: jitter,
                    busy: true,
                })
            }
        }
    }
}

fn tab_label(title: &str, url: &str) -> String {
    if title.is_empty() || title == url {
        format!("New tab: {url}")
    } else {
        format!("New tab: {title} ({url})")
    }
}
