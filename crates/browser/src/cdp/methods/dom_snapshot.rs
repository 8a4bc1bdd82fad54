//! The `DOMSnapshot` domain: the whole DOM with layout in one flat, string-interned reply.
//! Every string field is an index into [`CaptureSnapshotReturns::strings`] (`-1` = none).

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, BackendNodeId};

/// An index into the shared string table; `-1` means absent.
pub type StringIndex = i64;

/// `DOMSnapshot.captureSnapshot`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaptureSnapshot {
    /// Computed style properties to include per layout node (`[]` for none: fastest).
    pub computed_styles: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_paint_order: Option<bool>,
    /// Adds `offsetRects`, `clientRects`, `scrollRects` to the layout tree.
    #[serde(rename = "includeDOMRects", skip_serializing_if = "Option::is_none")]
    pub include_dom_rects: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_blended_background_colors: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_text_color_opacities: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct CaptureSnapshotReturns {
    /// One per document: the main frame's first, then iframes'.
    pub documents: Vec<DocumentSnapshot>,
    pub strings: Vec<String>,
}

impl CaptureSnapshotReturns {
    /// Resolves a string index (`None` for `-1` or out of range).
    pub fn string(&self, index: StringIndex) -> Option<&str> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.strings.get(i))
            .map(String::as_str)
    }
}
cdp_method!(
    CaptureSnapshot,
    "DOMSnapshot.captureSnapshot",
    CaptureSnapshotReturns
);

/// One document (`DOMSnapshot.DocumentSnapshot`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DocumentSnapshot {
    #[serde(rename = "documentURL")]
    pub document_url: StringIndex,
    pub title: StringIndex,
    #[serde(rename = "baseURL")]
    pub base_url: StringIndex,
    pub content_language: StringIndex,
    pub encoding_name: StringIndex,
    pub frame_id: StringIndex,
    pub nodes: NodeTreeSnapshot,
    pub layout: LayoutTreeSnapshot,
    pub text_boxes: TextBoxSnapshot,
    pub scroll_offset_x: Option<f64>,
    pub scroll_offset_y: Option<f64>,
    pub content_width: Option<f64>,
    pub content_height: Option<f64>,
}

/// Per-node columns (`DOMSnapshot.NodeTreeSnapshot`): index `i` of each vector is node `i`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeTreeSnapshot {
    pub parent_index: Vec<i64>,
    pub node_type: Vec<i64>,
    pub shadow_root_type: RareStringData,
    pub node_name: Vec<StringIndex>,
    pub node_value: Vec<StringIndex>,
    pub backend_node_id: Vec<BackendNodeId>,
    /// Per node, flat `[name, value, name, value, ...]` string indices.
    pub attributes: Vec<Vec<StringIndex>>,
    pub text_value: RareStringData,
    pub input_value: RareStringData,
    pub input_checked: RareBooleanData,
    pub option_selected: RareBooleanData,
    /// For `<iframe>` owners: the index of the content document in `documents`.
    pub content_document_index: RareIntegerData,
    pub pseudo_type: RareStringData,
    /// Nodes with a click listener (or natively clickable).
    pub is_clickable: RareBooleanData,
    #[serde(rename = "currentSourceURL")]
    pub current_source_url: RareStringData,
    #[serde(rename = "originURL")]
    pub origin_url: RareStringData,
}

/// Per-layout-object columns (`DOMSnapshot.LayoutTreeSnapshot`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LayoutTreeSnapshot {
    /// The node (index into `NodeTreeSnapshot`) of each layout object.
    pub node_index: Vec<i64>,
    /// Values of the requested `computedStyles`, per layout object.
    pub styles: Vec<Vec<StringIndex>>,
    /// `[x, y, width, height]` in document coordinates (CSS px).
    pub bounds: Vec<Vec<f64>>,
    pub text: Vec<StringIndex>,
    pub stacking_contexts: RareBooleanData,
    pub paint_orders: Option<Vec<i64>>,
    pub offset_rects: Option<Vec<Vec<f64>>>,
    pub scroll_rects: Option<Vec<Vec<f64>>>,
    pub client_rects: Option<Vec<Vec<f64>>>,
    pub blended_background_colors: Option<Vec<StringIndex>>,
    pub text_color_opacities: Option<Vec<f64>>,
}

/// Inline text boxes (`DOMSnapshot.TextBoxSnapshot`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TextBoxSnapshot {
    pub layout_index: Vec<i64>,
    pub bounds: Vec<Vec<f64>>,
    pub start: Vec<i64>,
    pub length: Vec<i64>,
}

/// Sparse string column: node `index[k]` has value `value[k]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RareStringData {
    pub index: Vec<i64>,
    pub value: Vec<StringIndex>,
}

/// Sparse boolean column: the listed nodes are `true`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RareBooleanData {
    pub index: Vec<i64>,
}

/// Sparse integer column: node `index[k]` has value `value[k]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RareIntegerData {
    pub index: Vec<i64>,
    pub value: Vec<i64>,
}
