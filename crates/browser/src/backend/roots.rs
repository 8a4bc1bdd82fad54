//! Closed shadow roots, handed to the scan's world. The page keeps no reference a script
//! of ours could follow, so each element the scan found that may host one (`world.js`,
//! `mayHostClosedRoot`) is described by DevTools, which pierces closed roots, and a root
//! found is resolved into our world (`adoptRoot`): the scan then walks, hit-tests and
//! focuses through it as through an open one, and its elements are acted on alike.

use super::scan::{scan, ScanOptions, ScanResult};
use super::{failed, BrowserBackend};
use crate::cdp::methods::dom::{DescribeNode, NodeRef, ResolveNode};
use crate::cdp::{FrameId, LoaderId};
use arc_core::BackendError;

/// Hosts asked about in one round (the page queues at most this many a scan).
const MAX_HOSTS: usize = 32;
/// Closed roots nested in closed roots, adopted one level a round.
const MAX_ROOT_ROUNDS: usize = 4;

impl BrowserBackend {
    /// Asks DevTools about the hosts the scans of `frame` queued; whether a closed root
    /// was handed to our world there (the frame is then worth scanning again). A host
    /// DevTools cannot describe (gone since) is skipped: it was only a candidate.
    pub(super) async fn adopt_closed_roots(
        &mut self,
        frame: &FrameId,
        loader: &LoaderId,
    ) -> Result<bool, BackendError> {
        let page = self.session_of(frame).clone();
        let ctx = self
            .worlds
            .context(&page, frame, loader)
            .await
            .map_err(failed)?;
        let mut adopted = false;
        for _ in 0..MAX_HOSTS {
            let host = self
                .worlds
                .eval_object(&page, frame, loader, "__arc.nextHost()")
                .await
                .map_err(failed)?;
            let Some(host) = host else { break };
            let mut describe = DescribeNode::new(NodeRef::Object(host));
            describe.pierce = Some(true);
            let Ok(described) = page.call(describe).await else {
                continue;
            };
            let closed = described
                .node
                .shadow_roots
                .into_iter()
                .flatten()
                .find(|r| r.shadow_root_type.as_deref() == Some("closed"));
            let Some(root) = closed else { continue };
            let mut resolve = ResolveNode::new(root.backend_node_id);
            resolve.execution_context_id = Some(ctx);
            resolve.object_group = Some(super::world::OBJECT_GROUP.into());
            let Some(object) = page
                .call(resolve)
                .await
                .ok()
                .and_then(|r| r.object.object_id)
            else {
                continue;
            };
            adopted |= self
                .worlds
                .call_on::<bool>(
                    &page,
                    &object,
                    "function() { return __arc.adoptRoot(this); }",
                    vec![],
                )
                .await
                .map_err(failed)?;
        }
        Ok(adopted)
    }

    /// Scans `frame` again while the hosts the last scan queued hand closed roots over
    /// (one nesting level a round).
    pub(super) async fn with_closed_roots(
        &mut self,
        frame: &FrameId,
        loader: &LoaderId,
        opts: &ScanOptions,
        result: &mut ScanResult,
    ) -> Result<(), BackendError> {
        for _ in 0..MAX_ROOT_ROUNDS {
            if result.hosts == 0 || !self.adopt_closed_roots(frame, loader).await? {
                break;
            }
            let page = self.session_of(frame).clone();
            *result = scan(&page, &mut self.worlds, frame, loader, opts)
                .await
                .map_err(failed)?;
        }
        Ok(())
    }
}
