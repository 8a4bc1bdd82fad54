//! Frames the scan's world cannot enter — a cross-origin iframe, in the page's renderer
//! or (cross-site, under site isolation) in a renderer of its own — scanned in a world of
//! ours inside each and grafted under their `<iframe>`, so their elements are observed
//! and acted on like the rest of the page. A frame of another renderer is read through its
//! own target, kept attached while observations show it: its world, and so its elements'
//! ids, live as long as that session. Presses into such frames are judged by the risk
//! gate through `doc.rs`, as before.

use super::doc::MAX_FRAME_DEPTH;
use super::ids::Origin;
use super::raw::RawTree;
use super::scan::{scan, OpaqueFrame, ScanOptions, ScanResult};
use super::{failed, BrowserBackend};
use crate::cdp::methods::dom::{DescribeNode, GetBoxModel, NodeRef};
use crate::cdp::methods::page;
use crate::cdp::{BackendNodeId, FrameId, LoaderId, TargetId};
use crate::PageSession;
use arc_core::BackendError;
use std::collections::HashMap;

/// The most frames one observation enters (a page of ad frames is read, not crawled).
const MAX_FRAMES: usize = 32;

/// A frame entered apart from the main frame's world.
struct Entered {
    /// The frame whose document holds its `<iframe>`.
    parent: FrameId,
    /// Its `<iframe>` element there.
    owner: BackendNodeId,
    /// Its document when entered.
    loader: LoaderId,
    /// The frame of another renderer whose session reads it (itself, or the frame of
    /// another renderer it is nested in); `None`: the page's own session.
    root: Option<FrameId>,
}

/// The frames the last observation entered, and the sessions of those in other renderers.
#[derive(Default)]
pub(super) struct EnteredFrames {
    entered: HashMap<FrameId, Entered>,
    sessions: HashMap<FrameId, PageSession>,
}

impl EnteredFrames {
    /// Whether `frame` was entered showing the document `loader`.
    pub fn shows(&self, frame: &FrameId, loader: &LoaderId) -> bool {
        self.entered.get(frame).is_some_and(|e| e.loader == *loader)
    }

    /// Forgets every frame and ends their sessions (a tab switch, a new document).
    pub fn clear(&mut self) {
        self.entered.clear();
        for (_, page) in self.sessions.drain() {
            detach(page);
        }
    }
}

fn detach(page: PageSession) {
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move {
            // The frame stays; only our session on it ends.
            let _ = page.detach().await;
        });
    }
}

/// A frame to enter: its element in a scanned tree, and where its document begins in the
/// top viewport.
struct Pending {
    parent: FrameId,
    parent_loader: LoaderId,
    node: usize,
    x: f64,
    y: f64,
    depth: usize,
}

impl BrowserBackend {
    /// The session `frame`'s nodes and worlds are reached through.
    pub(super) fn session_of(&self, frame: &FrameId) -> &PageSession {
        self.entered
            .entered
            .get(frame)
            .and_then(|e| e.root.as_ref())
            .and_then(|root| self.entered.sessions.get(root))
            .unwrap_or(&self.page)
    }

    /// Where `frame`'s viewport begins in the page's, for a frame entered apart (zero for
    /// the main frame and the frames its world enters, which place their own nodes): the
    /// content box of each `<iframe>` on the way up, read live, as a press needs it.
    pub(super) async fn offset_of(&self, frame: &FrameId) -> Result<(f64, f64), BackendError> {
        let (mut x, mut y) = (0.0, 0.0);
        let mut at = frame.clone();
        for _ in 0..=MAX_FRAME_DEPTH * 2 {
            let Some(e) = self.entered.entered.get(&at) else {
                break;
            };
            // The owner's box is in the viewport of its session's root frame.
            let model = self
                .session_of(&e.parent)
                .call(GetBoxModel {
                    node: e.owner.into(),
                })
                .await
                .map_err(|e| BackendError::stale(None, format!("its frame is gone: {e}")))?
                .model;
            x += model.content.0.first().copied().unwrap_or_default();
            y += model.content.0.get(1).copied().unwrap_or_default();
            match self
                .entered
                .entered
                .get(&e.parent)
                .and_then(|p| p.root.clone())
            {
                Some(root) => at = root,
                None => break,
            }
        }
        Ok((x, y))
    }

    /// Scans, in a world of ours inside each, the frames `scan` could not enter, and
    /// grafts their trees under their `<iframe>` nodes (boxes moved into the top
    /// viewport), frames inside them too, up to [`MAX_FRAME_DEPTH`] deep. Returns each
    /// frame entered with the loader its nodes' ids are registered under. A frame that
    /// cannot be read (still loading, gone) stays an iframe alone.
    pub(super) async fn enter_frames(
        &mut self,
        scan: &mut ScanResult,
        main: (&FrameId, &LoaderId),
        opts: &ScanOptions,
    ) -> Result<Vec<(FrameId, LoaderId)>, BackendError> {
        let mut pending: Vec<Pending> = to_enter(&scan.frames, main.0, main.1, (0.0, 0.0), 1);
        let mut registered = Vec::new();
        self.entered.entered.clear();
        while let Some(p) = pending.pop() {
            if registered.len() >= MAX_FRAMES {
                break;
            }
            let Some((child, entered)) = self.reach(&p, &scan.tree).await else {
                continue;
            };
            let loader = entered.loader.clone();
            self.entered.entered.insert(child.clone(), entered);
            let sub = match self.scan_frame(&child, &loader, opts).await {
                Ok(sub) => sub,
                Err(e) => {
                    tracing::debug!(frame = %child, "frame not scanned: {e}");
                    self.entered.entered.remove(&child);
                    continue;
                }
            };
            let base = graft(&mut scan.tree, p.node, sub.tree, (p.x, p.y));
            scan.opaque_frames = scan.opaque_frames.saturating_sub(1) + sub.opaque_frames;
            scan.elements += sub.elements;
            scan.left_out += sub.left_out;
            scan.partial |= sub.partial;
            scan.truncated |= sub.truncated;
            scan.passwords.0.extend(sub.passwords.0);
            if p.depth < MAX_FRAME_DEPTH {
                let inner = sub.frames.iter().map(|f| OpaqueFrame {
                    node: base + f.node,
                    ..*f
                });
                let inner: Vec<OpaqueFrame> = inner.collect();
                pending.extend(to_enter(&inner, &child, &loader, (p.x, p.y), p.depth + 1));
            }
            let world = self
                .worlds
                .known(&child, &loader)
                .ok_or_else(|| failed(format!("frame {child} was scanned in no world")))?;
            registered.push((child, Origin::scan_loader(&loader, world)));
        }
        // Frames no longer shown: their sessions end.
        let shown = &self.entered.entered;
        let gone: Vec<FrameId> = self
            .entered
            .sessions
            .keys()
            .filter(|f| !shown.contains_key(*f))
            .cloned()
            .collect();
        for f in gone {
            if let Some(page) = self.entered.sessions.remove(&f) {
                detach(page);
            }
        }
        Ok(registered)
    }

    /// The frame an `<iframe>` node holds and how to read it: through the session its
    /// parent is read in when that session's frame tree holds it, else through the
    /// frame's own target (attached once, kept).
    async fn reach(&mut self, p: &Pending, tree: &RawTree) -> Option<(FrameId, Entered)> {
        let handle = tree.nodes.get(p.node)?.handle.clone()?;
        let parent_page = self.session_of(&p.parent).clone();
        let object = self
            .worlds
            .resolve(&parent_page, &handle, &p.parent_loader)
            .await
            .ok()??;
        let node = parent_page
            .call(DescribeNode::new(NodeRef::Object(object)))
            .await
            .ok()?
            .node;
        let child = super::doc::frame_held(&node)?.clone();
        let parent_root = self
            .entered
            .entered
            .get(&p.parent)
            .and_then(|e| e.root.clone());
        let in_parent_session = parent_page
            .call(page::GetFrameTree {})
            .await
            .ok()?
            .frame_tree
            .frames()
            .into_iter()
            .find(|f| f.id == child)
            .map(|f| f.loader_id.clone());
        let (root, loader) = match in_parent_session {
            Some(loader) => (parent_root, loader),
            None => {
                let page = match self.entered.sessions.get(&child) {
                    Some(page) => page.clone(),
                    None => {
                        // An out-of-process frame's target id is its frame id.
                        let page = self
                            .browser
                            .attach(TargetId(child.0.clone()))
                            .await
                            .map_err(|e| tracing::debug!(frame = %child, "out of reach: {e}"))
                            .ok()?;
                        self.entered.sessions.insert(child.clone(), page.clone());
                        page
                    }
                };
                let top = page
                    .call(page::GetFrameTree {})
                    .await
                    .ok()?
                    .frame_tree
                    .frame;
                (Some(child.clone()), top.loader_id)
            }
        };
        let entered = Entered {
            parent: p.parent.clone(),
            owner: node.backend_node_id,
            loader,
            root,
        };
        Some((child, entered))
    }

    /// One scan of an entered frame, again while it hands closed roots to our world.
    async fn scan_frame(
        &mut self,
        frame: &FrameId,
        loader: &LoaderId,
        opts: &ScanOptions,
    ) -> Result<ScanResult, BackendError> {
        let page = self.session_of(frame).clone();
        let mut result = scan(&page, &mut self.worlds, frame, loader, opts)
            .await
            .map_err(failed)?;
        self.with_closed_roots(frame, loader, opts, &mut result)
            .await?;
        Ok(result)
    }
}

/// The frames `frames` of `parent`'s scan, as frames to enter at `depth`, their
/// offsets moved by the parent's own.
fn to_enter(
    frames: &[OpaqueFrame],
    parent: &FrameId,
    parent_loader: &LoaderId,
    (ox, oy): (f64, f64),
    depth: usize,
) -> Vec<Pending> {
    frames
        .iter()
        .map(|f| Pending {
            parent: parent.clone(),
            parent_loader: parent_loader.clone(),
            node: f.node,
            x: ox + f.x,
            y: oy + f.y,
            depth,
        })
        .collect()
}

/// Appends `sub` under node `at` of `tree`, its boxes moved by `offset`; returns the
/// index `sub`'s first node got.
/// The frame's document says it is focused when nothing in it is, as the main one does:
/// only the focus the page has counts, shown on the `<iframe>` unless inside it.
fn graft(tree: &mut RawTree, at: usize, sub: RawTree, (dx, dy): (f64, f64)) -> usize {
    let base = tree.nodes.len();
    let focus_inside = sub.nodes.iter().skip(1).any(|n| n.states.focused);
    if focus_inside {
        if let Some(owner) = tree.nodes.get_mut(at) {
            owner.states.focused = false;
        }
    }
    for (i, mut node) in sub.nodes.into_iter().enumerate() {
        if i == 0 {
            node.states.focused = false;
        }
        for c in &mut node.children {
            *c += base;
        }
        if let Some(b) = node.bounds.as_mut() {
            b.x += dx;
            b.y += dy;
        }
        tree.nodes.push(node);
    }
    if let Some(owner) = tree.nodes.get_mut(at) {
        owner.children.push(base);
    }
    base
}
