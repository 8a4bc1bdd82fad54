//! Geometry and DOM facts for every node, in one `DOMSnapshot.captureSnapshot` call
//! (0.7 ms on the sign-up page; per-node `DOM.getBoxModel` would cost ~0.3 ms per node).
//!
//! Bounds are converted to the main frame's viewport (what `Input.*` takes): a
//! document's layout is in its own document coordinates, so subtract its scroll offset
//! and add its frame's origin (the owner `<iframe>`'s box plus its border).

use crate::cdp::methods::dom_snapshot::{
    CaptureSnapshot, CaptureSnapshotReturns, DocumentSnapshot,
};
use crate::cdp::{BackendNodeId, FrameId};
use arc_core::Bounds;
use std::collections::{BTreeMap, HashMap, HashSet};

#[derive(Clone, Debug, Default)]
pub struct NodeFacts {
    pub bounds: Option<Bounds>,
    pub tag: String,
    pub clickable: bool,
    pub scrollable: bool,
    /// Laid out as a block (starts a new line): text on either side is not one run.
    pub block: bool,
    /// DOM attributes worth keeping (id, test id, name, placeholder, type, href…).
    pub attributes: BTreeMap<String, String>,
    /// The live value of an `<input>` or `<textarea>` (what a script reads from
    /// `.value`), which the accessibility tree may not show (a spinbutton's
    /// `aria-valuenow`, a date input's parts).
    pub live_value: Option<String>,
}

#[derive(Default)]
pub struct Layout {
    facts: HashMap<(FrameId, BackendNodeId), NodeFacts>,
    /// The `<iframe>` element that owns each child frame.
    pub owners: HashMap<BackendNodeId, FrameId>,
}

const KEPT_ATTRIBUTES: &[&str] = &[
    "id",
    "name",
    "type",
    "placeholder",
    "autocomplete",
    "href",
    "data-testid",
    "data-test-id",
    "data-test",
    "data-qa",
    "aria-label",
    "title",
    "for",
    "draggable",
    "aria-grabbed",
    "aria-dropeffect",
];

impl Layout {
    /// What the page's password fields hold (the snapshot reads `.value`, which the
    /// accessibility tree masks): for the redactor only.
    pub fn password_values(&self) -> Vec<String> {
        self.facts
            .values()
            .filter(|f| {
                f.tag == "INPUT"
                    && f.attributes
                        .get("type")
                        .is_some_and(|t| super::ax::is_password_type(t))
            })
            .filter_map(|f| f.live_value.clone())
            .collect()
    }

    pub fn request() -> CaptureSnapshot {
        CaptureSnapshot {
            computed_styles: vec!["overflow-x".into(), "overflow-y".into(), "display".into()],
            include_dom_rects: Some(true),
            ..Default::default()
        }
    }

    pub fn get(&self, frame: &FrameId, node: BackendNodeId) -> Option<&NodeFacts> {
        self.facts.get(&(frame.clone(), node))
    }

    pub fn build(snap: &CaptureSnapshotReturns) -> Layout {
        let mut layout = Layout::default();
        let docs = &snap.documents;
        // Frame origins in the top viewport, resolved parent-first (a few passes cover
        // any order Chromium lists documents in).
        let mut origin: Vec<Option<(f64, f64)>> = vec![None; docs.len()];
        if !docs.is_empty() {
            origin[0] = Some((0.0, 0.0));
        }
        for _ in 0..4 {
            for (di, doc) in docs.iter().enumerate() {
                let Some((ox, oy)) = origin[di] else { continue };
                let (sx, sy) = (
                    doc.scroll_offset_x.unwrap_or(0.0),
                    doc.scroll_offset_y.unwrap_or(0.0),
                );
                let owners = &doc.nodes.content_document_index;
                for (k, &ni) in owners.index.iter().enumerate() {
                    let child = owners.value[k] as usize;
                    if child >= docs.len() || origin[child].is_some() {
                        continue;
                    }
                    if let Some(li) = doc.layout.node_index.iter().position(|&n| n == ni) {
                        let b = &doc.layout.bounds[li];
                        let client = doc.layout.client_rects.as_ref().and_then(|c| c.get(li));
                        let (bl, bt) = client.map_or((0.0, 0.0), |c| {
                            (
                                c.first().copied().unwrap_or(0.0),
                                c.get(1).copied().unwrap_or(0.0),
                            )
                        });
                        origin[child] = Some((ox + b[0] - sx + bl, oy + b[1] - sy + bt));
                    }
                }
            }
        }
        for (di, doc) in docs.iter().enumerate() {
            let frame = FrameId(snap.string(doc.frame_id).unwrap_or_default().to_owned());
            let (ox, oy) = origin[di].unwrap_or((0.0, 0.0));
            layout.add_document(snap, doc, &frame, (ox, oy));
            for (k, &ni) in doc.nodes.content_document_index.index.iter().enumerate() {
                if let Some(child) = docs.get(doc.nodes.content_document_index.value[k] as usize) {
                    let owner = doc.nodes.backend_node_id[ni as usize];
                    layout.owners.insert(
                        owner,
                        FrameId(snap.string(child.frame_id).unwrap_or_default().to_owned()),
                    );
                }
            }
        }
        layout
    }

    fn add_document(
        &mut self,
        snap: &CaptureSnapshotReturns,
        doc: &DocumentSnapshot,
        frame: &FrameId,
        (ox, oy): (f64, f64),
    ) {
        let (sx, sy) = (
            doc.scroll_offset_x.unwrap_or(0.0),
            doc.scroll_offset_y.unwrap_or(0.0),
        );
        let nodes = &doc.nodes;
        let clickable: HashSet<i64> = nodes.is_clickable.index.iter().copied().collect();
        let mut live_values: HashMap<usize, &str> = HashMap::new();
        for rare in [&nodes.input_value, &nodes.text_value] {
            for (k, &ni) in rare.index.iter().enumerate() {
                if let Some(v) = rare.value.get(k).and_then(|&s| snap.string(s)) {
                    live_values.insert(ni as usize, v);
                }
            }
        }
        let mut boxes: HashMap<usize, (Bounds, bool)> = HashMap::new();
        let mut blocks: HashSet<usize> = HashSet::new();
        for (li, &ni) in doc.layout.node_index.iter().enumerate() {
            let Some(b) = doc.layout.bounds.get(li).filter(|b| b.len() == 4) else {
                continue;
            };
            let rect = Bounds {
                x: b[0] - sx + ox,
                y: b[1] - sy + oy,
                width: b[2],
                height: b[3],
            };
            let scrollable = is_scrollable(snap, doc, li);
            let display = doc
                .layout
                .styles
                .get(li)
                .and_then(|s| s.get(2))
                .and_then(|&i| snap.string(i))
                .unwrap_or("inline");
            if !display.starts_with("inline") && display != "contents" {
                blocks.insert(ni as usize);
            }
            boxes
                .entry(ni as usize)
                .and_modify(|(u, s)| {
                    *u = union(*u, rect);
                    *s |= scrollable;
                })
                .or_insert((rect, scrollable));
        }
        for (ni, backend) in nodes.backend_node_id.iter().enumerate() {
            let tag = nodes
                .node_name
                .get(ni)
                .and_then(|&s| snap.string(s))
                .unwrap_or_default();
            let mut attributes = BTreeMap::new();
            if let Some(flat) = nodes.attributes.get(ni) {
                for pair in flat.chunks_exact(2) {
                    let (Some(k), Some(v)) = (snap.string(pair[0]), snap.string(pair[1])) else {
                        continue;
                    };
                    if KEPT_ATTRIBUTES.contains(&k) {
                        attributes.insert(k.to_owned(), v.to_owned());
                    }
                }
            }
            let (bounds, scrollable) = match boxes.get(&ni) {
                Some((b, s)) => (Some(*b), *s && !matches!(tag, "HTML" | "BODY")),
                None => (None, false),
            };
            self.facts.insert(
                (frame.clone(), *backend),
                NodeFacts {
                    bounds,
                    tag: tag.to_owned(),
                    clickable: clickable.contains(&(ni as i64)),
                    scrollable,
                    block: blocks.contains(&ni),
                    attributes,
                    live_value: matches!(tag, "INPUT" | "TEXTAREA")
                        .then(|| live_values.get(&ni).map(|v| (*v).to_owned()))
                        .flatten(),
                },
            );
        }
    }
}

fn union(a: Bounds, b: Bounds) -> Bounds {
    if a.width <= 0.0 || a.height <= 0.0 {
        return b;
    }
    if b.width <= 0.0 || b.height <= 0.0 {
        return a;
    }
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    let (r, bt) = (
        (a.x + a.width).max(b.x + b.width),
        (a.y + a.height).max(b.y + b.height),
    );
    Bounds {
        x,
        y,
        width: r - x,
        height: bt - y,
    }
}

/// Overflow that scrolls: `auto`/`scroll` on an axis whose content exceeds the box.
fn is_scrollable(snap: &CaptureSnapshotReturns, doc: &DocumentSnapshot, li: usize) -> bool {
    let l = &doc.layout;
    let (Some(scroll), Some(client)) = (
        l.scroll_rects.as_ref().and_then(|r| r.get(li)),
        l.client_rects.as_ref().and_then(|r| r.get(li)),
    ) else {
        return false;
    };
    if scroll.len() < 4 || client.len() < 4 || client[3] <= 0.0 {
        return false;
    }
    let style = |k: usize| {
        l.styles
            .get(li)
            .and_then(|s| s.get(k))
            .and_then(|&i| snap.string(i))
            .unwrap_or("visible")
    };
    let scrolls = |s: &str| s == "auto" || s == "scroll";
    (scrolls(style(1)) && scroll[3] > client[3] + 1.0)
        || (scrolls(style(0)) && scroll[2] > client[2] + 1.0)
}
