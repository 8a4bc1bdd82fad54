//! The `DOM` domain: nodes, geometry, focus, scrolling.

use serde::{Deserialize, Serialize};

use crate::cdp::{
    cdp_method, BackendNodeId, Empty, ExecutionContextId, FrameId, NodeId, RemoteObjectId,
};

/// Which node a command is about. Serializes as the single CDP field it stands for
/// (`nodeId`, `backendNodeId` or `objectId`), flattened into the params.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum NodeRef {
    /// Needs a prior `DOM.getDocument`; invalidated when the document changes.
    #[serde(rename = "nodeId")]
    Node(NodeId),
    /// Stable for the node's lifetime: what the accessibility tree gives
    /// (`AXNode::backend_dom_node_id`). The usual choice.
    #[serde(rename = "backendNodeId")]
    Backend(BackendNodeId),
    /// A JS handle from `DOM.resolveNode` or `Runtime.evaluate`.
    #[serde(rename = "objectId")]
    Object(RemoteObjectId),
}

impl From<NodeId> for NodeRef {
    fn from(id: NodeId) -> Self {
        NodeRef::Node(id)
    }
}

impl From<BackendNodeId> for NodeRef {
    fn from(id: BackendNodeId) -> Self {
        NodeRef::Backend(id)
    }
}

impl From<RemoteObjectId> for NodeRef {
    fn from(id: RemoteObjectId) -> Self {
        NodeRef::Object(id)
    }
}

/// `DOM.Rect`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// Four corners `[x1,y1, x2,y2, x3,y3, x4,y4]`, clockwise from top-left, in CSS pixels
/// relative to the main frame's viewport (so usable with `Input.dispatchMouseEvent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Quad(pub Vec<f64>);

impl Quad {
    /// The mean of the corners; `None` if the quad is malformed.
    pub fn center(&self) -> Option<(f64, f64)> {
        let p = self.points()?;
        let (sx, sy) = p
            .iter()
            .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
        Some((sx / 4.0, sy / 4.0))
    }

    /// The axis-aligned bounding rectangle; `None` if the quad is malformed.
    pub fn bounds(&self) -> Option<Rect> {
        let p = self.points()?;
        let min_x = p.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let min_y = p.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_x = p.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let max_y = p.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        Some(Rect {
            x: min_x,
            y: min_y,
            width: max_x - min_x,
            height: max_y - min_y,
        })
    }

    /// The area (shoelace formula); 0 for a malformed quad.
    pub fn area(&self) -> f64 {
        let Some(p) = self.points() else { return 0.0 };
        let twice: f64 = (0..4)
            .map(|i| {
                let (a, b) = (p[i], p[(i + 1) % 4]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum();
        twice.abs() / 2.0
    }

    fn points(&self) -> Option<[(f64, f64); 4]> {
        match self.0.as_slice() {
            [x1, y1, x2, y2, x3, y3, x4, y4] => {
                Some([(*x1, *y1), (*x2, *y2), (*x3, *y3), (*x4, *y4)])
            }
            _ => None,
        }
    }
}

/// `DOM.enable`.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Enable {}
cdp_method!(Enable, "DOM.enable", Empty);

/// A DOM node (`DOM.Node`), with children if they were requested.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Node {
    pub node_id: NodeId,
    pub parent_id: Option<NodeId>,
    pub backend_node_id: BackendNodeId,
    /// 1 element, 3 text, 9 document, 11 fragment, ...
    pub node_type: i64,
    pub node_name: String,
    pub local_name: String,
    pub node_value: String,
    pub child_node_count: Option<i64>,
    pub children: Option<Vec<Node>>,
    /// Flat `[name1, value1, name2, value2, ...]`.
    pub attributes: Option<Vec<String>>,
    #[serde(rename = "documentURL")]
    pub document_url: Option<String>,
    #[serde(rename = "baseURL")]
    pub base_url: Option<String>,
    /// Set on `<iframe>` owner elements and documents.
    pub frame_id: Option<FrameId>,
    /// An `<iframe>`'s document (same-process frames, with `pierce`).
    pub content_document: Option<Box<Node>>,
    pub shadow_roots: Option<Vec<Node>>,
    /// A shadow root's mode: `open`, `closed` or `user-agent`.
    pub shadow_root_type: Option<String>,
    pub pseudo_type: Option<String>,
    #[serde(rename = "isSVG")]
    pub is_svg: Option<bool>,
}

impl Node {
    /// The value of attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .as_deref()?
            .chunks_exact(2)
            .find(|kv| kv[0] == name)
            .map(|kv| kv[1].as_str())
    }
}

/// `DOM.getDocument`.
#[derive(Debug, Clone, Copy, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetDocument {
    /// Levels of children to return; `-1` for the whole tree (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i64>,
    /// Descend into iframes and shadow roots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pierce: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GetDocumentReturns {
    pub root: Node,
}
cdp_method!(GetDocument, "DOM.getDocument", GetDocumentReturns);

/// The CSS box model (`DOM.BoxModel`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BoxModel {
    pub content: Quad,
    pub padding: Quad,
    pub border: Quad,
    pub margin: Quad,
    pub width: f64,
    pub height: f64,
    pub shape_outside: Option<serde_json::Value>,
}

/// `DOM.getBoxModel`. Fails (`Could not compute box model`) for nodes without layout.
#[derive(Debug, Clone, Serialize)]
pub struct GetBoxModel {
    #[serde(flatten)]
    pub node: NodeRef,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GetBoxModelReturns {
    pub model: BoxModel,
}
cdp_method!(GetBoxModel, "DOM.getBoxModel", GetBoxModelReturns);

/// `DOM.getContentQuads`: one quad per line box / fragment (inline elements that wrap
/// have several); better than the box model for clicking transformed or wrapped nodes.
#[derive(Debug, Clone, Serialize)]
pub struct GetContentQuads {
    #[serde(flatten)]
    pub node: NodeRef,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct GetContentQuadsReturns {
    pub quads: Vec<Quad>,
}
cdp_method!(
    GetContentQuads,
    "DOM.getContentQuads",
    GetContentQuadsReturns
);

/// `DOM.scrollIntoViewIfNeeded`.
#[derive(Debug, Clone, Serialize)]
pub struct ScrollIntoViewIfNeeded {
    #[serde(flatten)]
    pub node: NodeRef,
    /// The part of the node to reveal (relative to its border box); default the centre.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rect: Option<Rect>,
}
cdp_method!(ScrollIntoViewIfNeeded, "DOM.scrollIntoViewIfNeeded", Empty);

/// `DOM.resolveNode`: a JS handle for a node (`objectId` is not accepted here).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolveNode {
    #[serde(flatten)]
    pub node: NodeRef,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    /// Resolve in this context (e.g. an isolated world) instead of the main world.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<ExecutionContextId>,
}

impl ResolveNode {
    pub fn new(node: impl Into<NodeRef>) -> Self {
        ResolveNode {
            node: node.into(),
            object_group: None,
            execution_context_id: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct ResolveNodeReturns {
    pub object: super::runtime::RemoteObject,
}
cdp_method!(ResolveNode, "DOM.resolveNode", ResolveNodeReturns);

/// `DOM.describeNode`: a node's description without needing `DOM.getDocument`.
#[derive(Debug, Clone, Serialize)]
pub struct DescribeNode {
    #[serde(flatten)]
    pub node: NodeRef,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pierce: Option<bool>,
}

impl DescribeNode {
    pub fn new(node: impl Into<NodeRef>) -> Self {
        DescribeNode {
            node: node.into(),
            depth: None,
            pierce: None,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct DescribeNodeReturns {
    pub node: Node,
}
cdp_method!(DescribeNode, "DOM.describeNode", DescribeNodeReturns);

/// `DOM.focus`.
#[derive(Debug, Clone, Serialize)]
pub struct Focus {
    #[serde(flatten)]
    pub node: NodeRef,
}
cdp_method!(Focus, "DOM.focus", Empty);

/// `DOM.pushNodesByBackendIdsToFrontend`: `NodeId`s for backend ids (needs a prior
/// `DOM.getDocument`; unknown ids map to `NodeId(0)`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PushNodesByBackendIdsToFrontend {
    pub backend_node_ids: Vec<BackendNodeId>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PushNodesByBackendIdsToFrontendReturns {
    pub node_ids: Vec<NodeId>,
}
cdp_method!(
    PushNodesByBackendIdsToFrontend,
    "DOM.pushNodesByBackendIdsToFrontend",
    PushNodesByBackendIdsToFrontendReturns
);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn node_ref_flattens_to_one_field() {
        let v = serde_json::to_value(GetBoxModel {
            node: BackendNodeId(7).into(),
        })
        .unwrap();
        assert_eq!(v, json!({"backendNodeId": 7}));
        let v = serde_json::to_value(ResolveNode {
            object_group: Some("g".into()),
            ..ResolveNode::new(NodeId(3))
        })
        .unwrap();
        assert_eq!(v, json!({"nodeId": 3, "objectGroup": "g"}));
    }

    #[test]
    fn quad_geometry() {
        let q = Quad(vec![10.0, 20.0, 30.0, 20.0, 30.0, 60.0, 10.0, 60.0]);
        assert_eq!(q.center(), Some((20.0, 40.0)));
        assert_eq!(q.area(), 800.0);
        let b = q.bounds().unwrap();
        assert_eq!((b.x, b.y, b.width, b.height), (10.0, 20.0, 20.0, 40.0));
        assert_eq!(Quad(vec![1.0]).center(), None);
    }

    #[test]
    fn node_keeps_odd_casing_and_ignores_new_fields() {
        let n: Node = serde_json::from_value(json!({
            "nodeId": 1, "backendNodeId": 2, "nodeType": 9, "nodeName": "#document",
            "localName": "", "nodeValue": "", "documentURL": "http://x/", "baseURL": "http://x/",
            "attributes": ["id", "main", "class", "a b"], "someFutureField": true
        }))
        .unwrap();
        assert_eq!(n.document_url.as_deref(), Some("http://x/"));
        assert_eq!(n.attribute("class"), Some("a b"));
        assert_eq!(n.attribute("href"), None);
    }
}

/// `DOM.getNodeForLocation`: the node the renderer hit-tests at a viewport point — inside
/// closed shadow roots and same-process frames, which a page's `elementFromPoint` does
/// not reach.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetNodeForLocation {
    pub x: i64,
    pub y: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_user_agent_shadow_dom: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_pointer_events_none: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetNodeForLocationReturns {
    pub backend_node_id: BackendNodeId,
    pub frame_id: FrameId,
}
cdp_method!(
    GetNodeForLocation,
    "DOM.getNodeForLocation",
    GetNodeForLocationReturns
);

/// `DOM.setFileInputFiles`: the files an `<input type=file>` holds, as if chosen (the
/// page gets `input` and `change`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetFileInputFiles {
    pub files: Vec<String>,
    pub object_id: RemoteObjectId,
}
cdp_method!(SetFileInputFiles, "DOM.setFileInputFiles", Empty);
