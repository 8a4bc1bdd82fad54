//! Events that change what the backend must report or wait for, folded into shared state
//! by a background task: JavaScript dialogs, in-flight requests, tabs the page opened,
//! the main frame's URL.

use crate::cdp::events::{
    FrameNavigated, JavascriptDialogClosed, JavascriptDialogOpening, LoadingFailed,
    LoadingFinished, RequestWillBeSent, TargetCreated, TargetDestroyed, TargetInfoChanged,
};
use crate::cdp::methods::page::DialogType;
use crate::cdp::methods::target::TargetInfo;
use crate::cdp::{Event, RequestId, TargetId};
use crate::download::Downloads;
use crate::Browser;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{mpsc, watch};

#[derive(Clone, Debug, PartialEq)]
pub struct OpenDialog {
    /// Counts dialogs, so an answer is only ever given to the dialog that was observed.
    pub serial: u64,
    pub kind: DialogType,
    pub message: String,
    pub default_prompt: String,
}

#[derive(Debug, Default)]
pub struct PageState {
    pub dialog: Option<OpenDialog>,
    /// The text to answer a prompt with, typed before OK is clicked.
    pub prompt_text: Option<String>,
    dialogs_seen: u64,
    /// Document/XHR/Fetch requests in flight, with the action serial they started under.
    inflight: HashMap<RequestId, u64>,
    /// The serial of the current action; requests started under it make the page busy.
    pub action_serial: u64,
    /// Top-level pages opened by our page, oldest first.
    pub popups: Vec<TargetInfo>,
    /// The URL of the main frame's last committed document, since we listen.
    pub url: Option<String>,
    /// The last document request `confine.rs` stopped, until someone takes it.
    pub blocked: Option<String>,
}

impl PageState {
    /// Whether a request started since the current action is still in flight.
    pub fn busy(&self) -> bool {
        self.inflight.values().any(|&s| s == self.action_serial)
    }
}

/// Shared page state plus a signal that fires whenever a dialog opens.
#[derive(Clone)]
pub struct Shared {
    state: Arc<Mutex<PageState>>,
    dialogs: watch::Sender<u64>,
}

impl Shared {
    pub fn new() -> Self {
        Shared {
            state: Arc::default(),
            dialogs: watch::channel(0).0,
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, PageState> {
        // A poisoned lock only means a panic elsewhere mid-update; the data is plain.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A receiver that changes when the next dialog opens.
    pub fn dialog_opened(&self) -> watch::Receiver<u64> {
        self.dialogs.subscribe()
    }

    /// Folds page-session events and browser-level target events until both end.
    pub async fn pump(
        self,
        mut page: mpsc::UnboundedReceiver<Event>,
        mut browser: mpsc::UnboundedReceiver<Event>,
        our_target: TargetId,
        downloads: Downloads,
        handle: Browser,
    ) {
        loop {
            let event = tokio::select! {
                Some(e) = page.recv() => e,
                Some(e) = browser.recv() => e,
                else => return,
            };
            downloads.fold(&event, &our_target, &handle);
            self.fold(&event, &our_target);
        }
    }

    fn fold(&self, event: &Event, our_target: &TargetId) {
        if let Some(Ok(d)) = event.parse::<JavascriptDialogOpening>() {
            let serial = {
                let mut s = self.lock();
                s.dialogs_seen += 1;
                s.prompt_text = None;
                s.dialog = Some(OpenDialog {
                    serial: s.dialogs_seen,
                    kind: d.kind,
                    message: d.message,
                    default_prompt: d.default_prompt.unwrap_or_default(),
                });
                s.dialogs_seen
            };
            self.dialogs.send_replace(serial);
        } else if event.is::<JavascriptDialogClosed>() {
            let mut s = self.lock();
            s.dialog = None;
            s.prompt_text = None;
        } else if let Some(Ok(n)) = event.parse::<FrameNavigated>() {
            if n.frame.parent_id.is_none() {
                self.lock().url = Some(n.frame.url);
            }
        } else if let Some(Ok(r)) = event.parse::<RequestWillBeSent>() {
            if matches!(r.kind.as_deref(), Some("Document" | "XHR" | "Fetch")) {
                let mut s = self.lock();
                let serial = s.action_serial;
                s.inflight.insert(r.request_id, serial);
            }
        } else if let Some(Ok(r)) = event.parse::<LoadingFinished>() {
            self.lock().inflight.remove(&r.request_id);
        } else if let Some(Ok(r)) = event.parse::<LoadingFailed>() {
            self.lock().inflight.remove(&r.request_id);
        } else if let Some(Ok(t)) = event.parse::<TargetCreated>() {
            let info = t.target_info;
            if info.is_page() && info.opener_id.as_ref() == Some(our_target) {
                self.lock().popups.push(info);
            }
        } else if let Some(Ok(t)) = event.parse::<TargetInfoChanged>() {
            let mut s = self.lock();
            if let Some(p) = s
                .popups
                .iter_mut()
                .find(|p| p.target_id == t.target_info.target_id)
            {
                *p = t.target_info;
            }
        } else if let Some(Ok(t)) = event.parse::<TargetDestroyed>() {
            self.lock().popups.retain(|p| p.target_id != t.target_id);
        }
    }
}
