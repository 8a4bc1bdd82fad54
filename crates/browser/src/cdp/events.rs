//! CDP events: the raw [`Event`] delivered to subscribers and typed structs to parse it.
//!
//! ```no_run
//! # async fn demo(page: &arc_browser::PageSession) {
//! use arc_browser::cdp::events::JavascriptDialogOpening;
//! let mut events = page.subscribe();
//! while let Some(event) = events.recv().await {
//!     if let Some(Ok(dialog)) = event.parse::<JavascriptDialogOpening>() {
//!         println!("dialog: {}", dialog.message);
//!     }
//! }
//! # }
//! ```

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::methods::fetch::PausedRequest;
use super::methods::network::{Request, ResourceType};
use super::methods::page::{DialogType, Frame};
use super::methods::runtime::ExecutionContextDescription;
use super::methods::target::TargetInfo;
use super::{FrameId, LoaderId, RequestId, SessionId, TargetId};
use crate::error::CdpError;

/// One event as received. `params` stays raw JSON (shared, cheap to clone) until parsed.
#[derive(Debug, Clone)]
pub struct Event {
    /// The flat session it came from; `None` for browser-level events.
    pub session_id: Option<SessionId>,
    /// E.g. `"Page.loadEventFired"`.
    pub method: String,
    pub params: Arc<RawValue>,
}

impl Event {
    /// Whether this is an `E` event.
    pub fn is<E: EventType>(&self) -> bool {
        self.method == E::NAME
    }

    /// Parses the params as `E`; `None` if this is a different event.
    pub fn parse<E: EventType>(&self) -> Option<Result<E, CdpError>> {
        self.is::<E>().then(|| {
            serde_json::from_str(self.params.get()).map_err(|source| CdpError::Deserialize {
                method: self.method.clone(),
                source,
            })
        })
    }

    /// The params as an untyped value.
    pub fn params_value(&self) -> Result<serde_json::Value, CdpError> {
        serde_json::from_str(self.params.get()).map_err(|source| CdpError::Deserialize {
            method: self.method.clone(),
            source,
        })
    }
}

/// A typed event: its wire name and params struct.
pub trait EventType: DeserializeOwned {
    const NAME: &'static str;
}

macro_rules! cdp_event {
    ($ty:ty, $name:literal) => {
        impl EventType for $ty {
            const NAME: &'static str = $name;
        }
    };
}

/// `Page.javascriptDialogOpening`: an alert/confirm/prompt/beforeunload is open. The page
/// is blocked (including `Runtime.evaluate`) until `Page.handleJavaScriptDialog`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JavascriptDialogOpening {
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub frame_id: Option<FrameId>,
    #[serde(default)]
    pub message: String,
    #[serde(rename = "type")]
    pub kind: DialogType,
    #[serde(default)]
    pub has_browser_handler: bool,
    #[serde(default)]
    pub default_prompt: Option<String>,
}
cdp_event!(JavascriptDialogOpening, "Page.javascriptDialogOpening");

/// `Page.javascriptDialogClosed`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JavascriptDialogClosed {
    #[serde(default)]
    pub frame_id: Option<FrameId>,
    /// Whether the dialog was accepted.
    #[serde(default)]
    pub result: bool,
    #[serde(default)]
    pub user_input: String,
}
cdp_event!(JavascriptDialogClosed, "Page.javascriptDialogClosed");

/// `Page.frameNavigated`: a frame committed a new document (`frame.loader_id`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameNavigated {
    pub frame: Frame,
    /// `Navigation` or `BackForwardCacheRestore`.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}
cdp_event!(FrameNavigated, "Page.frameNavigated");

/// `Page.loadEventFired`: the main frame's `load` event.
#[derive(Debug, Clone, Deserialize)]
pub struct LoadEventFired {
    #[serde(default)]
    pub timestamp: f64,
}
cdp_event!(LoadEventFired, "Page.loadEventFired");

/// `Page.domContentEventFired`.
#[derive(Debug, Clone, Deserialize)]
pub struct DomContentEventFired {
    #[serde(default)]
    pub timestamp: f64,
}
cdp_event!(DomContentEventFired, "Page.domContentEventFired");

/// `Target.targetCreated` (needs `Target.setDiscoverTargets{discover:true}`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetCreated {
    pub target_info: TargetInfo,
}
cdp_event!(TargetCreated, "Target.targetCreated");

/// `Target.targetInfoChanged`: e.g. a page's URL or title changed.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetInfoChanged {
    pub target_info: TargetInfo,
}
cdp_event!(TargetInfoChanged, "Target.targetInfoChanged");

/// `Target.targetDestroyed`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetDestroyed {
    pub target_id: TargetId,
}
cdp_event!(TargetDestroyed, "Target.targetDestroyed");

/// `Target.attachedToTarget`: a (flat) session to a target now exists.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachedToTarget {
    pub session_id: SessionId,
    pub target_info: TargetInfo,
    #[serde(default)]
    pub waiting_for_debugger: bool,
}
cdp_event!(AttachedToTarget, "Target.attachedToTarget");

/// `Target.detachedFromTarget`: the session is gone (target closed or crashed).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DetachedFromTarget {
    pub session_id: SessionId,
    #[serde(default)]
    pub target_id: Option<TargetId>,
}
cdp_event!(DetachedFromTarget, "Target.detachedFromTarget");

/// `Runtime.executionContextCreated` (after `Runtime.enable`, and for isolated worlds).
#[derive(Debug, Clone, Deserialize)]
pub struct ExecutionContextCreated {
    pub context: ExecutionContextDescription,
}
cdp_event!(ExecutionContextCreated, "Runtime.executionContextCreated");

/// `Network.requestWillBeSent`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestWillBeSent {
    pub request_id: RequestId,
    #[serde(default)]
    pub loader_id: Option<LoaderId>,
    #[serde(default, rename = "documentURL")]
    pub document_url: String,
    pub request: Request,
    #[serde(default)]
    pub timestamp: f64,
    #[serde(default)]
    pub wall_time: f64,
    /// Kept untyped: a deep union Chromium extends often.
    #[serde(default)]
    pub initiator: serde_json::Value,
    #[serde(default)]
    pub redirect_has_extra_info: bool,
    /// Present when this request is a redirect; untyped (a full `Network.Response`).
    #[serde(default)]
    pub redirect_response: Option<serde_json::Value>,
    #[serde(default, rename = "type")]
    pub kind: Option<ResourceType>,
    #[serde(default)]
    pub frame_id: Option<FrameId>,
    #[serde(default)]
    pub has_user_gesture: bool,
}
cdp_event!(RequestWillBeSent, "Network.requestWillBeSent");

/// `Network.loadingFinished`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadingFinished {
    pub request_id: RequestId,
    #[serde(default)]
    pub timestamp: f64,
    #[serde(default)]
    pub encoded_data_length: f64,
}
cdp_event!(LoadingFinished, "Network.loadingFinished");

/// `Network.loadingFailed`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoadingFailed {
    pub request_id: RequestId,
    #[serde(default)]
    pub timestamp: f64,
    #[serde(default, rename = "type")]
    pub kind: Option<ResourceType>,
    #[serde(default)]
    pub error_text: String,
    #[serde(default)]
    pub canceled: bool,
    #[serde(default)]
    pub blocked_reason: Option<String>,
}
cdp_event!(LoadingFailed, "Network.loadingFailed");

/// `Fetch.requestPaused`: a request matching `Fetch.enable`'s patterns waits for
/// `Fetch.continueRequest` or `Fetch.failRequest` (each redirect hop pauses anew).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestPaused {
    /// The id to answer with (the Fetch domain's, not the Network domain's).
    pub request_id: String,
    pub request: PausedRequest,
    pub frame_id: FrameId,
    #[serde(default)]
    pub resource_type: ResourceType,
}
cdp_event!(RequestPaused, "Fetch.requestPaused");

/// `Browser.downloadWillBegin`: a frame started a download.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadWillBegin {
    pub frame_id: FrameId,
    pub guid: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub suggested_filename: String,
}
cdp_event!(DownloadWillBegin, "Browser.downloadWillBegin");

/// `Browser.downloadProgress`: `state` is `inProgress`, `completed` or `canceled`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DownloadProgress {
    pub guid: String,
    #[serde(default)]
    pub received_bytes: f64,
    pub state: String,
}
cdp_event!(DownloadProgress, "Browser.downloadProgress");

#[cfg(test)]
mod tests {
    use super::*;

    fn event(method: &str, params: &str) -> Event {
        Event {
            session_id: None,
            method: method.into(),
            params: Arc::from(RawValue::from_string(params.into()).unwrap()),
        }
    }

    #[test]
    fn parses_only_its_own_method_and_tolerates_new_fields() {
        let e = event(
            "Page.javascriptDialogOpening",
            r#"{"url":"http://x/","frameId":"F","message":"Sure?","type":"confirm",
                "hasBrowserHandler":false,"defaultPrompt":"","brandNewField":1}"#,
        );
        assert!(e.parse::<LoadEventFired>().is_none());
        let d = e.parse::<JavascriptDialogOpening>().unwrap().unwrap();
        assert_eq!(d.message, "Sure?");
        assert_eq!(d.kind, DialogType::Confirm);
    }

    #[test]
    fn bad_params_name_the_event() {
        let e = event("Target.targetDestroyed", r#"{"targetId": 5}"#);
        let err = e.parse::<TargetDestroyed>().unwrap().unwrap_err();
        assert!(err.to_string().contains("Target.targetDestroyed"), "{err}");
    }
}
