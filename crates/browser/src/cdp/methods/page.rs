//! The `Page` domain: navigation, frames, dialogs, screenshots, layout metrics.

use serde::{Deserialize, Serialize};

use super::dom::Rect;
use crate::cdp::{cdp_method, Empty, ExecutionContextId, FrameId, LoaderId, ScriptIdentifier};

/// `Page.enable`: needed for `Page.*` events (load, navigation, dialogs).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Enable {}
cdp_method!(Enable, "Page.enable", Empty);

/// `Page.navigate`. Returns when the navigation commits (or fails), not at load: wait
/// for `Page.loadEventFired` for that ([`PageSession::navigate`](crate::PageSession::navigate) does).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Navigate {
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referrer: Option<String>,
    /// `link`, `typed`, `reload`, ... (`TransitionType`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transition_type: Option<String>,
    /// Navigate this frame instead of the main frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_id: Option<FrameId>,
}

impl Navigate {
    pub fn new(url: impl Into<String>) -> Self {
        Navigate {
            url: url.into(),
            ..Default::default()
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NavigateReturns {
    pub frame_id: FrameId,
    /// `None` for a same-document navigation (fragment, history API): no load follows.
    pub loader_id: Option<LoaderId>,
    /// Set when the navigation failed (e.g. `net::ERR_CONNECTION_REFUSED`).
    pub error_text: Option<String>,
    pub is_download: bool,
}
cdp_method!(Navigate, "Page.navigate", NavigateReturns);

/// A frame's description (`Page.Frame`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Frame {
    pub id: FrameId,
    /// `None` for a main frame.
    pub parent_id: Option<FrameId>,
    pub loader_id: LoaderId,
    pub name: Option<String>,
    pub url: String,
    pub url_fragment: Option<String>,
    pub domain_and_registry: String,
    pub security_origin: String,
    pub mime_type: String,
    pub unreachable_url: Option<String>,
}

/// A frame and its children (`Page.FrameTree`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FrameTree {
    pub frame: Frame,
    pub child_frames: Vec<FrameTree>,
}

impl FrameTree {
    /// All frames, depth first, this one first.
    pub fn frames(&self) -> Vec<&Frame> {
        let mut out = vec![&self.frame];
        for child in &self.child_frames {
            out.extend(child.frames());
        }
        out
    }
}

/// `Page.getFrameTree`.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct GetFrameTree {}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetFrameTreeReturns {
    pub frame_tree: FrameTree,
}
cdp_method!(GetFrameTree, "Page.getFrameTree", GetFrameTreeReturns);

/// The kind of a JavaScript dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DialogType {
    Alert,
    Confirm,
    Prompt,
    Beforeunload,
    /// A kind this client does not know yet.
    #[serde(other)]
    Other,
}

/// `Page.handleJavaScriptDialog`: accept or dismiss the open dialog.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandleJavaScriptDialog {
    pub accept: bool,
    /// The text to answer a `prompt` with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
}
cdp_method!(HandleJavaScriptDialog, "Page.handleJavaScriptDialog", Empty);

/// `Page.reload`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reload {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_cache: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script_to_evaluate_on_load: Option<String>,
}
cdp_method!(Reload, "Page.reload", Empty);

/// Screenshot encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    Png,
    Jpeg,
    Webp,
}

/// A rectangle in CSS pixels with a scale (`Page.Viewport`), used as a screenshot clip.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub scale: f64,
}

/// `Page.captureScreenshot`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaptureScreenshot {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<ImageFormat>,
    /// 0..=100, jpeg/webp only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip: Option<Viewport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_surface: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture_beyond_viewport: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimize_for_speed: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CaptureScreenshotReturns {
    /// The image, base64-encoded.
    pub data: String,
}

impl CaptureScreenshotReturns {
    /// The image bytes.
    pub fn decode(&self) -> Result<Vec<u8>, crate::base64::DecodeError> {
        crate::base64::decode(&self.data)
    }
}
cdp_method!(
    CaptureScreenshot,
    "Page.captureScreenshot",
    CaptureScreenshotReturns
);

/// `Page.LayoutViewport`: the scroll position and size of the layout viewport.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LayoutViewport {
    pub page_x: f64,
    pub page_y: f64,
    pub client_width: f64,
    pub client_height: f64,
}

/// `Page.VisualViewport`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct VisualViewport {
    pub offset_x: f64,
    pub offset_y: f64,
    pub page_x: f64,
    pub page_y: f64,
    pub client_width: f64,
    pub client_height: f64,
    pub scale: f64,
    pub zoom: Option<f64>,
}

/// `Page.getLayoutMetrics`.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct GetLayoutMetrics {}

/// The `css*` fields are in CSS pixels (what `DOM.getBoxModel` and `Input.*` use); the
/// others are in device pixels (equal at device scale factor 1, the launcher's default).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetLayoutMetricsReturns {
    pub layout_viewport: LayoutViewport,
    pub visual_viewport: VisualViewport,
    pub content_size: Rect,
    pub css_layout_viewport: LayoutViewport,
    pub css_visual_viewport: VisualViewport,
    pub css_content_size: Rect,
}
cdp_method!(
    GetLayoutMetrics,
    "Page.getLayoutMetrics",
    GetLayoutMetricsReturns
);

/// `Page.createIsolatedWorld`: a JS world sharing the DOM but not the page's globals,
/// so probes cannot be confused (or detected) by page scripts.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateIsolatedWorld {
    pub frame_id: FrameId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub world_name: Option<String>,
    /// Sic: the protocol spells it "Univeral".
    #[serde(
        rename = "grantUniveralAccess",
        skip_serializing_if = "Option::is_none"
    )]
    pub grant_universal_access: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateIsolatedWorldReturns {
    pub execution_context_id: ExecutionContextId,
}
cdp_method!(
    CreateIsolatedWorld,
    "Page.createIsolatedWorld",
    CreateIsolatedWorldReturns
);

/// `Page.addScriptToEvaluateOnNewDocument`: runs `source` before page scripts on every
/// new document (in `world_name` if set).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AddScriptToEvaluateOnNewDocument {
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub world_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_command_line_api: Option<bool>,
    /// Also run it in the current document right away.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_immediately: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AddScriptToEvaluateOnNewDocumentReturns {
    pub identifier: ScriptIdentifier,
}
cdp_method!(
    AddScriptToEvaluateOnNewDocument,
    "Page.addScriptToEvaluateOnNewDocument",
    AddScriptToEvaluateOnNewDocumentReturns
);
