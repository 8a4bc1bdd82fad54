//! The `Target` domain: tabs and other targets, and attaching flat sessions to them.

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, BrowserContextId, Empty, FrameId, SessionId, TargetId};

/// A target as Chromium describes it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TargetInfo {
    pub target_id: TargetId,
    /// `page`, `iframe`, `worker`, `service_worker`, `browser`, `tab`, ...
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub url: String,
    /// Whether some client is attached.
    pub attached: bool,
    pub opener_id: Option<TargetId>,
    pub can_access_opener: bool,
    pub opener_frame_id: Option<FrameId>,
    pub browser_context_id: Option<BrowserContextId>,
    pub subtype: Option<String>,
}

impl TargetInfo {
    /// Whether this is a top-level page (a tab), the kind arc-cua drives.
    pub fn is_page(&self) -> bool {
        self.kind == "page"
    }
}

/// One entry of a target filter: include (or `exclude`) targets of `kind` (all if `None`).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetFilterEntry {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude: Option<bool>,
}

/// `Target.getTargets`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTargets {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Vec<TargetFilterEntry>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GetTargetsReturns {
    pub target_infos: Vec<TargetInfo>,
}
cdp_method!(GetTargets, "Target.getTargets", GetTargetsReturns);

/// `Target.createTarget`: opens a new tab at `url`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTarget {
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_context_id: Option<BrowserContextId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_window: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
}

impl CreateTarget {
    pub fn new(url: impl Into<String>) -> Self {
        CreateTarget {
            url: url.into(),
            ..Default::default()
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateTargetReturns {
    pub target_id: TargetId,
}
cdp_method!(CreateTarget, "Target.createTarget", CreateTargetReturns);

/// `Target.attachToTarget`. Use `flatten: Some(true)` (see [`AttachToTarget::flat`]):
/// the session's messages then travel on the same socket tagged with `sessionId`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachToTarget {
    pub target_id: TargetId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flatten: Option<bool>,
}

impl AttachToTarget {
    /// A flat-session attach.
    pub fn flat(target_id: TargetId) -> Self {
        AttachToTarget {
            target_id,
            flatten: Some(true),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachToTargetReturns {
    pub session_id: SessionId,
}
cdp_method!(
    AttachToTarget,
    "Target.attachToTarget",
    AttachToTargetReturns
);

/// `Target.detachFromTarget`: ends one session on a target, leaving the target as it is.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetachFromTarget {
    pub session_id: SessionId,
}
cdp_method!(DetachFromTarget, "Target.detachFromTarget", Empty);

/// `Target.closeTarget`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseTarget {
    pub target_id: TargetId,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct CloseTargetReturns {
    /// Deprecated by Chromium (always true); kept for older builds.
    pub success: bool,
}
cdp_method!(CloseTarget, "Target.closeTarget", CloseTargetReturns);

/// `Target.setDiscoverTargets`: emit `Target.targetCreated/Destroyed/InfoChanged`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDiscoverTargets {
    pub discover: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Vec<TargetFilterEntry>>,
}
cdp_method!(SetDiscoverTargets, "Target.setDiscoverTargets", Empty);

/// `Target.activateTarget`: brings a tab to the front.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivateTarget {
    pub target_id: TargetId,
}
cdp_method!(ActivateTarget, "Target.activateTarget", Empty);

/// `Target.setAutoAttach`: attach to related targets automatically — with
/// `flatten: true`, sent on a page session, this yields sessions for its out-of-process
/// (cross-site) iframes via `Target.attachedToTarget`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetAutoAttach {
    pub auto_attach: bool,
    /// Pause new targets until `Runtime.runIfWaitingForDebugger`.
    pub wait_for_debugger_on_start: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flatten: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Vec<TargetFilterEntry>>,
}
cdp_method!(SetAutoAttach, "Target.setAutoAttach", Empty);
