//! The `Accessibility` domain: the AX tree arc-cua's browser elements come from.

use serde::{Deserialize, Serialize};

use super::dom::NodeRef;
use crate::cdp::{cdp_method, AxNodeId, BackendNodeId, Empty, FrameId};

/// `Accessibility.enable`: keeps AX ids stable across calls (and is required for
/// `queryAXTree`); `getFullAXTree` works without it.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Enable {}
cdp_method!(Enable, "Accessibility.enable", Empty);

/// A node of the accessibility tree (`Accessibility.AXNode`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AxNode {
    pub node_id: AxNodeId,
    /// Ignored nodes are not exposed to assistive tech but keep the tree connected.
    pub ignored: bool,
    pub ignored_reasons: Option<Vec<AxProperty>>,
    /// `{type: "role", value: "button"}`; `internalRole` values appear for some nodes.
    pub role: Option<AxValue>,
    /// Chromium's internal role (newer builds).
    pub chrome_role: Option<AxValue>,
    pub name: Option<AxValue>,
    pub description: Option<AxValue>,
    pub value: Option<AxValue>,
    /// States and relations: `focusable`, `focused`, `disabled`, `checked`, `expanded`,
    /// `level`, `invalid`, `editable`, ...
    pub properties: Option<Vec<AxProperty>>,
    pub parent_id: Option<AxNodeId>,
    pub child_ids: Option<Vec<AxNodeId>>,
    /// The DOM node; use with `DOM.getBoxModel` etc. (`NodeRef::Backend`).
    #[serde(rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<BackendNodeId>,
    pub frame_id: Option<FrameId>,
}

impl AxNode {
    /// The role string (`button`, `textbox`, `StaticText`, ...), `""` if none.
    pub fn role(&self) -> &str {
        self.role.as_ref().and_then(AxValue::as_str).unwrap_or("")
    }

    /// The computed accessible name, `""` if none.
    pub fn name(&self) -> &str {
        self.name.as_ref().and_then(AxValue::as_str).unwrap_or("")
    }

    /// The property called `name` (e.g. `"focused"`), if present.
    pub fn property(&self, name: &str) -> Option<&AxValue> {
        self.properties
            .as_deref()?
            .iter()
            .find(|p| p.name == name)
            .map(|p| &p.value)
    }

    /// A boolean property (`disabled`, `focused`, `expanded`...): `None` if absent.
    pub fn bool_property(&self, name: &str) -> Option<bool> {
        self.property(name).and_then(AxValue::as_bool)
    }
}

/// A typed value (`Accessibility.AXValue`). Kept loose on purpose: `type` is a string
/// (`boolean`, `tristate`, `string`, `role`, `idref`, `nodeList`, ...) and `value`
/// any JSON, so new Chromium value kinds never break parsing.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AxValue {
    #[serde(rename = "type")]
    pub kind: String,
    pub value: Option<serde_json::Value>,
    /// For `idref`/`nodeList` values (e.g. `labelledby`, `controls`).
    pub related_nodes: Option<Vec<AxRelatedNode>>,
    /// Where the name came from (`sources` of `name`); untyped.
    pub sources: Option<Vec<serde_json::Value>>,
}

impl AxValue {
    pub fn as_str(&self) -> Option<&str> {
        self.value.as_ref()?.as_str()
    }

    /// Booleans, and the `tristate` strings `"true"`/`"false"` (`"mixed"` → `None`).
    pub fn as_bool(&self) -> Option<bool> {
        match self.value.as_ref()? {
            serde_json::Value::Bool(b) => Some(*b),
            serde_json::Value::String(s) if s == "true" => Some(true),
            serde_json::Value::String(s) if s == "false" => Some(false),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        self.value.as_ref()?.as_f64()
    }
}

/// A named AX property (`Accessibility.AXProperty`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct AxProperty {
    pub name: String,
    pub value: AxValue,
}

/// A node referenced by an AX relation (`Accessibility.AXRelatedNode`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AxRelatedNode {
    #[serde(rename = "backendDOMNodeId")]
    pub backend_dom_node_id: BackendNodeId,
    pub idref: Option<String>,
    pub text: Option<String>,
}

/// The nodes of an AX query.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct AxNodesReturns {
    pub nodes: Vec<AxNode>,
}

/// `Accessibility.getFullAXTree`: the whole tree of one frame (the main frame by
/// default; iframes need their own call with `frame_id`). Expensive on big pages:
/// ≈ 25 µs and ≈ 360 bytes of JSON per node.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetFullAxTree {
    /// Maximum depth; whole tree if `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<FrameId>,
}
cdp_method!(GetFullAxTree, "Accessibility.getFullAXTree", AxNodesReturns);

/// `Accessibility.getPartialAXTree`: a node, plus its ancestors, siblings and children
/// with `fetch_relatives`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPartialAxTree {
    /// The node; the document if `None`.
    #[serde(flatten)]
    pub node: Option<NodeRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch_relatives: Option<bool>,
}
cdp_method!(
    GetPartialAxTree,
    "Accessibility.getPartialAXTree",
    AxNodesReturns
);

/// `Accessibility.queryAXTree`: nodes under `node` matching name and/or role.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryAxTree {
    /// The subtree root (required by Chromium): e.g. the document node.
    #[serde(flatten)]
    pub node: NodeRef,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accessible_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}
cdp_method!(QueryAxTree, "Accessibility.queryAXTree", AxNodesReturns);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_a_chromium_ax_node() {
        let n: AxNode = serde_json::from_value(json!({
            "nodeId": "12", "ignored": false,
            "role": {"type": "role", "value": "checkbox"},
            "chromeRole": {"type": "internalRole", "value": 17},
            "name": {"type": "computedString", "value": "Agree", "sources": [{"type": "relatedElement"}]},
            "properties": [
                {"name": "focusable", "value": {"type": "booleanOrUndefined", "value": true}},
                {"name": "checked", "value": {"type": "tristate", "value": "false"}},
                {"name": "labelledby", "value": {"type": "nodeList", "relatedNodes": [{"backendDOMNodeId": 9, "text": "Agree"}]}}
            ],
            "parentId": "3", "childIds": ["13"], "backendDOMNodeId": 40, "frameId": "F1"
        }))
        .unwrap();
        assert_eq!(n.role(), "checkbox");
        assert_eq!(n.name(), "Agree");
        assert_eq!(n.bool_property("focusable"), Some(true));
        assert_eq!(n.bool_property("checked"), Some(false));
        assert_eq!(n.backend_dom_node_id, Some(BackendNodeId(40)));
        let rel = n
            .property("labelledby")
            .unwrap()
            .related_nodes
            .as_ref()
            .unwrap();
        assert_eq!(rel[0].backend_dom_node_id, BackendNodeId(9));
    }

    #[test]
    fn partial_tree_params_omit_absent_node() {
        let v = serde_json::to_value(GetPartialAxTree::default()).unwrap();
        assert_eq!(v, json!({}));
        let v = serde_json::to_value(GetPartialAxTree {
            node: Some(NodeRef::Backend(BackendNodeId(5))),
            fetch_relatives: Some(false),
        })
        .unwrap();
        assert_eq!(v, json!({"backendNodeId": 5, "fetchRelatives": false}));
    }
}
