//! Element ids bound to element identity for the whole session.
//!
//! A DOM node is identified by its document (frame + loader: a navigation makes a new
//! one, and backend ids may restart in a new renderer) and its handle within it. Each new
//! identity gets the next `eN`; an id is never reassigned, so an id can never come to
//! mean a different element, and a removed element's id is never reused.

use super::raw::NodeHandle;
use crate::cdp::LoaderId;
use arc_core::ElementId;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Identity {
    loader: LoaderId,
    handle: NodeHandle,
}

#[derive(Debug, Default)]
pub struct IdRegistry {
    by_identity: HashMap<Identity, u64>,
    by_id: HashMap<u64, Identity>,
    next: u64,
}

impl IdRegistry {
    /// The id of this node, assigning the next one on first sight.
    pub fn id_for(&mut self, loader: &LoaderId, handle: &NodeHandle) -> ElementId {
        let identity = Identity {
            loader: loader.clone(),
            handle: handle.clone(),
        };
        let n = match self.by_identity.get(&identity) {
            Some(&n) => n,
            None => {
                self.next += 1;
                let n = self.next;
                self.by_identity.insert(identity.clone(), n);
                self.by_id.insert(n, identity);
                n
            }
        };
        ElementId(format!("e{n}"))
    }

    /// The node an id was assigned to, and the document it lived in.
    pub fn resolve(&self, id: &ElementId) -> Option<(&LoaderId, &NodeHandle)> {
        let n: u64 = id.as_str().strip_prefix('e')?.parse().ok()?;
        self.by_id.get(&n).map(|i| (&i.loader, &i.handle))
    }

    /// Forgets the nodes of documents that are gone; their numbers stay retired.
    pub fn retain_loaders(&mut self, live: &[&LoaderId]) {
        self.by_identity.retain(|i, _| live.contains(&&i.loader));
        self.by_id.retain(|_, i| live.contains(&&i.loader));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdp::{BackendNodeId, FrameId};

    fn handle(n: i64) -> NodeHandle {
        NodeHandle::Backend {
            frame: FrameId("F".into()),
            node: BackendNodeId(n),
        }
    }

    #[test]
    fn the_same_node_keeps_its_id_and_a_new_document_gets_new_ids() {
        let mut ids = IdRegistry::default();
        let (a, b) = (LoaderId("A".into()), LoaderId("B".into()));
        let first = ids.id_for(&a, &handle(7));
        assert_eq!(ids.id_for(&a, &handle(7)), first);
        // Same backend id after a navigation (new renderer): a different element.
        let other = ids.id_for(&b, &handle(7));
        assert_ne!(other, first);
        ids.retain_loaders(&[&b]);
        assert!(
            ids.resolve(&first).is_none(),
            "a gone document's ids resolve to nothing"
        );
        // And its number is never handed out again.
        let fresh = ids.id_for(&a, &handle(7));
        assert_ne!(fresh, first);
    }
}

/// What kind of document an identity's loader names. Page nodes carry their frame's
/// loader; scanned nodes also carry the isolated world their keys live in (a recreated
/// world restarts its keys, so the same key in another world is another node); dialog
/// parts and tabs live in pseudo-documents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Page(LoaderId),
    Scan {
        loader: LoaderId,
        world: crate::cdp::ExecutionContextId,
    },
    Dialog,
    Popups,
}

pub const POPUPS: &str = "popups";
const DIALOG_PREFIX: &str = "dialog-";

impl Origin {
    pub fn of(loader: &LoaderId) -> Origin {
        let s = loader.as_str();
        if s == POPUPS {
            return Origin::Popups;
        }
        if s.starts_with(DIALOG_PREFIX) {
            return Origin::Dialog;
        }
        match s
            .rsplit_once('#')
            .and_then(|(l, w)| Some((l, w.parse().ok()?)))
        {
            Some((l, w)) => Origin::Scan {
                loader: LoaderId(l.to_owned()),
                world: crate::cdp::ExecutionContextId(w),
            },
            None => Origin::Page(loader.clone()),
        }
    }

    /// The loader id under which a scan's nodes are registered.
    pub fn scan_loader(loader: &LoaderId, world: crate::cdp::ExecutionContextId) -> LoaderId {
        LoaderId(format!("{}#{}", loader.as_str(), world.0))
    }

    pub fn dialog_loader(serial: u64) -> LoaderId {
        LoaderId(format!("{DIALOG_PREFIX}{serial}"))
    }
}
