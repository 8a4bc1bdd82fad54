//! A session: one exact target, its grants, its capability, and the observation fence —
//! every mutation cites the session's latest observation, once.

use crate::grants::Grants;
use crate::guarded::GuardedBackend;
use crate::journal::Journal;
use crate::protocol::{
    Capability, ErrorCode, HostError, ObservationId, SessionAuth, SessionId, TargetId,
};
use crate::secret::constant_time_eq;
use crate::view_memo::ViewMemo;
use arc_core::{Redactor, Snapshot};
use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};
use tokio::sync::{Mutex, MutexGuard};
use tokio_util::sync::CancellationToken;

/// Why a session stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// `stop_session`, or its connection closed.
    Stopped,
    /// `interrupt_all`.
    Interrupted,
}

pub struct Session {
    pub(crate) id: SessionId,
    /// The target it is bound to, as `list_targets` names it.
    pub(crate) target_id: TargetId,
    capability: Capability,
    pub(crate) grants: Grants,
    /// The session opened this tab (`allow_launch`), so it closes it when it stops.
    pub(crate) owns_page: bool,
    pub(crate) journal: Arc<Journal>,
    /// The session's secrets (shared with its state's and its backend's copies): what
    /// it was given and what it learned, redacted from everything it replies.
    pub(crate) redactor: Redactor,
    cancel: CancellationToken,
    stop: OnceLock<StopReason>,
    state: Mutex<SessionState>,
}

pub(crate) struct SessionState {
    /// `None` only after the session stopped.
    pub backend: Option<GuardedBackend>,
    pub fence: Fence,
    pub redactor: Redactor,
    /// The last view rendered, reused for an unchanged page.
    pub views: ViewMemo,
    /// Set once the page or browser is gone, or an act's outcome is unknown: the session
    /// serves nothing that touches the page any more.
    pub broken: Option<HostError>,
}

impl SessionState {
    /// The revision of the latest observation, while it is unused.
    pub fn fence_latest_revision(&self) -> Option<&str> {
        self.fence.latest.as_ref().map(|(_, s)| s.revision.as_str())
    }
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        id: SessionId,
        target_id: TargetId,
        capability: Capability,
        grants: Grants,
        owns_page: bool,
        journal: Arc<Journal>,
        backend: GuardedBackend,
        redactor: Redactor,
    ) -> Session {
        let fence = Fence::new(&id);
        Session {
            id,
            target_id,
            capability,
            grants,
            owns_page,
            journal,
            redactor: redactor.clone(),
            cancel: CancellationToken::new(),
            stop: OnceLock::new(),
            state: Mutex::new(SessionState {
                backend: Some(backend),
                fence,
                redactor,
                views: ViewMemo::default(),
                broken: None,
            }),
        }
    }

    pub(crate) fn auth(&self) -> SessionAuth {
        SessionAuth {
            session_id: self.id.clone(),
            capability: self.capability.clone(),
        }
    }

    /// Constant-time capability check.
    pub(crate) fn authorize(&self, capability: &Capability) -> Result<(), HostError> {
        if constant_time_eq(capability.0.as_bytes(), self.capability.0.as_bytes()) {
            Ok(())
        } else {
            Err(HostError::new(
                ErrorCode::InvalidCapability,
                format!(
                    "the capability is not session {}'s; use the one open_session returned",
                    self.id.0
                ),
            ))
        }
    }

    /// An error when the session has stopped.
    pub(crate) fn live(&self) -> Result<(), HostError> {
        match self.stop.get() {
            None => Ok(()),
            Some(StopReason::Interrupted) => Err(HostError::new(
                ErrorCode::Interrupted,
                format!(
                    "session {} was stopped by interrupt_all; open a new session",
                    self.id.0
                ),
            )),
            Some(StopReason::Stopped) => Err(HostError::new(
                ErrorCode::SessionStopped,
                format!("session {} is stopped; open a new session", self.id.0),
            )),
        }
    }

    /// Stops the session: every wait and run on it ends. Idempotent (the first reason
    /// stays).
    pub(crate) fn stop(&self, reason: StopReason) {
        let _ = self.stop.set(reason);
        self.cancel.cancel();
    }

    pub(crate) fn is_stopped(&self) -> bool {
        self.stop.get().is_some()
    }

    pub(crate) fn cancelled(&self) -> tokio_util::sync::WaitForCancellationFuture<'_> {
        self.cancel.cancelled()
    }

    /// The session's state, serialized: one request at a time touches the page. Gives up
    /// when the session stops meanwhile.
    pub(crate) async fn lock(&self) -> Result<MutexGuard<'_, SessionState>, HostError> {
        self.live()?;
        let guard = tokio::select! {
            guard = self.state.lock() => guard,
            _ = self.cancel.cancelled() => return Err(self.live().err().unwrap_or_else(|| stopped(&self.id))),
        };
        self.live()?;
        if let Some(e) = &guard.broken {
            return Err(e.clone());
        }
        Ok(guard)
    }

    /// Releases a stopped session's page: its event pump ends; a tab it opened is
    /// closed, with every tab that page opened in turn. Idempotent.
    pub(crate) async fn release(&self) {
        let mut state = self.state.lock().await;
        let Some(backend) = state.backend.take() else {
            return;
        };
        let page = backend.target().page();
        if let (true, Some(page)) = (self.owns_page, page) {
            page.close_opened_tabs().await;
            let page = page.page().clone();
            drop(backend);
            let _ = tokio::time::timeout(std::time::Duration::from_secs(5), page.close()).await;
        }
    }
}

fn stopped(id: &SessionId) -> HostError {
    HostError::new(
        ErrorCode::SessionStopped,
        format!("session {} is stopped", id.0),
    )
}

/// Observations a session remembers for `observe` with `since`.
const HISTORY: usize = 8;

/// The observation fence.
pub(crate) struct Fence {
    prefix: String,
    next: u64,
    /// The latest observation and the snapshot it showed, until a mutation uses it.
    latest: Option<(ObservationId, Arc<Snapshot>)>,
    /// The last few observations as shown (redacted), for deltas.
    history: VecDeque<(ObservationId, Arc<Snapshot>)>,
}

impl Fence {
    fn new(session: &SessionId) -> Fence {
        Fence {
            prefix: format!("{}/o", session.0),
            next: 0,
            latest: None,
            history: VecDeque::new(),
        }
    }

    /// Makes `snapshot` the latest observation; `shown` is what the client saw.
    pub fn register(&mut self, snapshot: Arc<Snapshot>, shown: Arc<Snapshot>) -> ObservationId {
        self.next += 1;
        let id = ObservationId(format!("{}{}", self.prefix, self.next));
        self.latest = Some((id.clone(), snapshot));
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((id.clone(), shown));
        id
    }

    /// The snapshot `id` showed, when it is the latest and unused.
    pub fn check(&self, id: &ObservationId) -> Result<Arc<Snapshot>, HostError> {
        match &self.latest {
            Some((latest, snapshot)) if latest == id => Ok(Arc::clone(snapshot)),
            Some((latest, _)) => Err(HostError::new(
                ErrorCode::StaleObservation,
                format!(
                    "{} is not the session's latest observation ({} is): observe again and cite the new id",
                    arc_core::clip(&id.0, 80),
                    latest.0
                ),
            )),
            None => Err(HostError::new(
                ErrorCode::StaleObservation,
                format!(
                    "{} was already used or never issued: every mutation needs a fresh observation; observe again",
                    arc_core::clip(&id.0, 80)
                ),
            )),
        }
    }

    /// Uses the latest observation up.
    pub fn consume(&mut self) {
        self.latest = None;
    }

    /// An earlier observation as shown, for a delta.
    pub fn shown(&self, id: &ObservationId) -> Option<Arc<Snapshot>> {
        self.history
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, s)| Arc::clone(s))
    }
}
