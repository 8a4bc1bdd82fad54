//! A document our helpers are asked about: a frame of the page's own session (the main
//! frame, or a cross-origin frame in the same renderer, which the main world cannot
//! enter), or a frame in another renderer process — a cross-site iframe under site
//! isolation, which the page's session sees only as its `<iframe>` element — reached
//! through the frame's own target session, in a world of ours there. The gates use it to
//! judge what a press at a point or a key on the focus reaches inside such frames.

use super::world::Worlds;
use super::BrowserBackend;
use crate::cdp::methods::dom::{DescribeNode, GetBoxModel, Node, NodeRef};
use crate::cdp::methods::page;
use crate::cdp::{BackendNodeId, FrameId, LoaderId, RemoteObjectId, TargetId};
use crate::{BrowserError, PageSession};
use serde::de::DeserializeOwned;

/// How many frames deep a gate follows a press or the focus (a frame in a frame …).
pub(super) const MAX_FRAME_DEPTH: usize = 4;

pub(super) enum Doc {
    /// A frame of the page's own session; its worlds are the backend's.
    Own { frame: FrameId, loader: LoaderId },
    /// A frame with a target of its own, attached for as long as this lives.
    Remote(Box<RemoteFrame>),
}

pub(super) struct RemoteFrame {
    page: PageSession,
    worlds: Worlds,
    frame: FrameId,
    loader: LoaderId,
}

impl Drop for RemoteFrame {
    fn drop(&mut self) {
        // The frame stays; only our session on it ends.
        let page = self.page.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let _ = page.detach().await;
            });
        }
    }
}

impl BrowserBackend {
    /// The document of frame `frame` (the frame id an `<iframe>` element's description
    /// carries): the page's own when its frame tree holds it, else the frame's own target.
    /// None when neither reaches it (a frame still loading, or gone).
    pub(super) async fn doc_of_frame(&mut self, frame: &FrameId) -> Option<Doc> {
        if let Some(loader) = self.own_loader(frame).await {
            return Some(Doc::Own {
                frame: frame.clone(),
                loader,
            });
        }
        // An out-of-process frame's target id is its frame id.
        let page = self
            .browser
            .attach(TargetId(frame.0.clone()))
            .await
            .map_err(|e| tracing::debug!(%frame, "the frame's target is out of reach: {e}"))
            .ok()?;
        let tree = page.call(page::GetFrameTree {}).await.ok()?;
        let top = tree.frame_tree.frame;
        Some(Doc::Remote(Box::new(RemoteFrame {
            page,
            worlds: Worlds::default(),
            frame: top.id,
            loader: top.loader_id,
        })))
    }

    /// The loader of `frame` when it is a frame of the page's own session (its tree read
    /// again when the last observation's list lacks it).
    pub(super) async fn own_loader(&mut self, frame: &FrameId) -> Option<LoaderId> {
        let known = |frames: &[(FrameId, LoaderId)]| {
            frames
                .iter()
                .find(|(f, _)| f == frame)
                .map(|(_, l)| l.clone())
        };
        if let Some(l) = known(&self.frames) {
            return Some(l);
        }
        let tree = self.page.call(page::GetFrameTree {}).await.ok()?;
        let frames: Vec<(FrameId, LoaderId)> = tree
            .frame_tree
            .frames()
            .into_iter()
            .map(|f| (f.id.clone(), f.loader_id.clone()))
            .collect();
        known(&frames)
    }

    /// The session a document's nodes and points are read through.
    pub(super) fn doc_page<'a>(&'a self, doc: &'a Doc) -> &'a PageSession {
        match doc {
            Doc::Own { .. } => &self.page,
            Doc::Remote(r) => &r.page,
        }
    }

    /// Evaluates `expression` in our world of `doc`.
    pub(super) async fn doc_eval<T: DeserializeOwned>(
        &mut self,
        doc: &mut Doc,
        expression: &str,
    ) -> Result<T, BrowserError> {
        match doc {
            Doc::Own { frame, loader } => {
                self.worlds
                    .eval(&self.page, frame, loader, expression)
                    .await
            }
            Doc::Remote(r) => {
                r.worlds
                    .eval(&r.page, &r.frame, &r.loader, expression)
                    .await
            }
        }
    }

    /// Evaluates `expression` in our world of `doc`, as a handle (None for null).
    pub(super) async fn doc_eval_object(
        &mut self,
        doc: &mut Doc,
        expression: &str,
    ) -> Result<Option<RemoteObjectId>, BrowserError> {
        match doc {
            Doc::Own { frame, loader } => {
                self.worlds
                    .eval_object(&self.page, frame, loader, expression)
                    .await
            }
            Doc::Remote(r) => {
                r.worlds
                    .eval_object(&r.page, &r.frame, &r.loader, expression)
                    .await
            }
        }
    }

    /// A handle to node `node` of `doc` in our world there (None: gone).
    pub(super) async fn doc_resolve(
        &mut self,
        doc: &mut Doc,
        node: BackendNodeId,
    ) -> Result<Option<RemoteObjectId>, BrowserError> {
        use super::raw::NodeHandle;
        match doc {
            Doc::Own { frame, loader } => {
                let handle = NodeHandle::Backend {
                    frame: frame.clone(),
                    node,
                };
                self.worlds.resolve(&self.page, &handle, loader).await
            }
            Doc::Remote(r) => {
                let handle = NodeHandle::Backend {
                    frame: r.frame.clone(),
                    node,
                };
                r.worlds.resolve(&r.page, &handle, &r.loader).await
            }
        }
    }

    /// Calls `function` with `this` = `object` (a handle in `doc`'s world).
    pub(super) async fn doc_call_on<T: DeserializeOwned>(
        &self,
        doc: &Doc,
        object: &RemoteObjectId,
        function: &str,
        args: Vec<serde_json::Value>,
    ) -> Result<T, BrowserError> {
        let page = self.doc_page(doc);
        self.worlds.call_on(page, object, function, args).await
    }

    /// Calls `function` with `this` = `object` and returns a handle to its value.
    pub(super) async fn doc_call_on_object(
        &self,
        doc: &Doc,
        object: &RemoteObjectId,
        function: &str,
    ) -> Result<Option<RemoteObjectId>, BrowserError> {
        let page = self.doc_page(doc);
        self.worlds.call_on_object(page, object, function).await
    }

    /// A node's description, piercing closed shadow roots (`shadow_roots` lists them).
    pub(super) async fn doc_describe(&self, doc: &Doc, node: NodeRef) -> Option<Node> {
        let mut describe = DescribeNode::new(node);
        describe.pierce = Some(true);
        Some(self.doc_page(doc).call(describe).await.ok()?.node)
    }

    /// Where the content of `<iframe>` node `node` of `doc` begins, in `doc`'s viewport:
    /// a point in the frame's own viewport is the point less this.
    pub(super) async fn frame_origin(&self, doc: &Doc, node: BackendNodeId) -> Option<(f64, f64)> {
        let model = self
            .doc_page(doc)
            .call(GetBoxModel { node: node.into() })
            .await
            .ok()?
            .model;
        Some((*model.content.0.first()?, *model.content.0.get(1)?))
    }
}

/// Whether a described node is a frame element, and the frame it holds.
pub(super) fn frame_held(node: &Node) -> Option<&FrameId> {
    matches!(node.local_name.as_str(), "iframe" | "frame")
        .then_some(node.frame_id.as_ref())
        .flatten()
}
