//! A [`Connection`]: one client after `hello`. It owns its sessions (their ids are
//! connection-scoped); closing or dropping it stops them.

use crate::confine::Confinement;
use crate::guarded::GuardedBackend;
use crate::host::{lock, Host};
use crate::journal::{Journal, JournalEntry};
use crate::new_tab::Unclaimed;
use crate::protocol::{
    ActParams, ActResult, Capability, Downloads, ErrorCode, FindParams, Found, HostError,
    Interrupted, LimitName, Observation, ObserveParams, OpenSessionParams, OpenedSession, Pong,
    RunSubtaskParams, RunSubtaskResult, SessionAuth, SessionId, SessionParams, Stopped, TargetId,
    TargetInfo, TargetList, TargetRef, WaitForParams, WaitResult,
};
use crate::secret::random_capability;
use crate::session::{Session, SessionState, StopReason};
use crate::target::TargetBackend;
use crate::{act, observation, query, run};
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{Redactor, StepEvent};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::OwnedSemaphorePermit;

/// Stopped sessions a connection remembers (to answer `session_stopped`) before it
/// forgets them.
const TOMBSTONES: usize = 64;

pub struct Connection {
    host: Host,
    id: u64,
    client_name: String,
    sessions: Mutex<HashMap<SessionId, Arc<Session>>>,
    next_session: AtomicU64,
    /// Opens accepted whose sessions are not in `sessions` yet (`reserve_session`).
    opening: AtomicUsize,
    _slot: OwnedSemaphorePermit,
}

/// One accepted open's place under `sessions_per_connection`, given back when it ends.
struct OpenSlot<'a>(&'a Connection);

impl Drop for OpenSlot<'_> {
    // After the session is in the table (or the open failed): the count never dips.
    fn drop(&mut self) {
        self.0.opening.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Connection {
    pub(crate) fn new(
        host: Host,
        id: u64,
        client_name: String,
        slot: OwnedSemaphorePermit,
    ) -> Self {
        Connection {
            host,
            id,
            client_name,
            sessions: Mutex::new(HashMap::new()),
            next_session: AtomicU64::new(0),
            opening: AtomicUsize::new(0),
            _slot: slot,
        }
    }

    pub fn host(&self) -> &Host {
        &self.host
    }

    pub fn client_name(&self) -> &str {
        &self.client_name
    }

    pub fn ping(&self) -> Pong {
        Pong { pong: true }
    }

    pub async fn list_targets(&self) -> Result<TargetList, HostError> {
        self.host.list_targets().await
    }

    pub async fn interrupt_all(&self) -> Interrupted {
        self.host.interrupt_all().await
    }

    /// Binds a new session to exactly one target: an existing page, as it is, or a new
    /// tab (`allow_launch`).
    pub async fn open_session(
        &self,
        params: OpenSessionParams,
    ) -> Result<OpenedSession, HostError> {
        let inner = &self.host.inner;
        let limits = &inner.limits;
        let _slot = self.reserve_session(limits.sessions_per_connection)?;
        let grants = params.grants;
        if grants.navigate_origins.len() > 64 {
            return Err(HostError::new(
                ErrorCode::InvalidParams,
                "open_session params.grants.navigate_origins: at most 64 origins",
            ));
        }
        for origin in &grants.navigate_origins {
            limits.check_text("an origin", origin)?;
            crate::grants::parse_origin(origin).map_err(|e| {
                HostError::new(
                    e.code,
                    format!("open_session params.grants.navigate_origins: {}", e.message),
                )
            })?;
        }
        if grants.allow_files.len() > 16 {
            return Err(HostError::new(
                ErrorCode::InvalidParams,
                "open_session params.grants.allow_files: at most 16 directories",
            ));
        }
        for dir in &grants.allow_files {
            self.host.check_upload_dir(dir)?;
        }
        let no_browser = || {
            HostError::new(
                ErrorCode::TargetNotFound,
                "this host has no browser: only desktop windows are targets (list_targets)",
            )
        };
        let mut unclaimed = None;
        let (backend, owns_page, mut target, confinement) = match (&params.target.target_id, &params.target.url) {
            (Some(id), None) => match id.parse()? {
                TargetRef::Window { bus, path } => {
                    let (backend, info) =
                        crate::desktop::open(&self.host.desktop(), id, &bus, &path).await?;
                    (TargetBackend::Window(Box::new(backend)), false, info, None)
                }
                TargetRef::Page(page) => {
                    let browser = self.host.browser().await?.ok_or_else(no_browser)?;
                    let page = arc_browser::cdp::TargetId(page);
                    // The page's own origin is where it is now.
                    let url = browser
                        .pages()
                        .await
                        .unwrap_or_default()
                        .into_iter()
                        .find(|p| p.target_id == page)
                        .map(|p| p.url)
                        .unwrap_or_default();
                    let confinement = Confinement::new(&grants, &url);
                    let backend = BrowserBackend::attach(
                        browser.clone(),
                        Some(page),
                        confined(&inner.options, &confinement),
                    )
                    .await
                    .map_err(|e| match e {
                        arc_browser::BrowserError::NoSuchTarget { detail } => HostError::new(
                            ErrorCode::TargetNotFound,
                            format!("{detail}; list_targets shows the pages"),
                        ),
                        e => browser_error("cannot attach to the target", &e),
                    })?;
                    let info = page_info(&browser, &backend).await;
                    (TargetBackend::Page(backend), false, info, Some(confinement))
                }
            },
            (None, Some(url)) => {
                limits.check_text("the URL", url)?;
                grants.check_launch(url)?;
                let browser = self.host.browser().await?.ok_or_else(no_browser)?;
                // Confined from its first load: a redirect off the origin asked for stops.
                let confinement = Confinement::new(&grants, url);
                let backend =
                    crate::new_tab::open(browser.clone(), url, confined(&inner.options, &confinement))
                        .await
                        .map_err(|e| browser_error("cannot open the page", &e))?;
                // Until the session is in the table, a dropped request closes the tab.
                unclaimed = Some(Unclaimed::new(backend.page().clone()));
                let info = page_info(&browser, &backend).await;
                (TargetBackend::Page(backend), true, info, Some(confinement))
            }
            _ => {
                return Err(HostError::new(
                    ErrorCode::InvalidParams,
                    "open_session params.target: give exactly one of target_id (an existing page or window) or url (a new tab)",
                ))
            }
        };
        let n = self.next_session.fetch_add(1, Ordering::Relaxed) + 1;
        let id = SessionId(format!("c{}-s{n}", self.id));
        let journal = Arc::new(Journal::default());
        let redactor = Redactor::default();
        let guarded = GuardedBackend::new(
            backend,
            grants.clone(),
            limits.clone(),
            Arc::clone(&inner.fifo),
            Arc::clone(&journal),
            redactor.clone(),
            confinement,
        );
        let guarded = if owns_page {
            guarded.in_own_window()
        } else {
            guarded
        };
        let session = Arc::new(Session::new(
            id.clone(),
            target.target_id().clone(),
            Capability(random_capability()),
            grants.clone(),
            owns_page,
            journal,
            guarded,
            redactor,
        ));
        self.host.register(&session);
        self.host.redact_targets(std::slice::from_mut(&mut target));
        let auth = session.auth();
        lock(&self.sessions).insert(id, session);
        if let Some(tab) = unclaimed {
            tab.claim();
        }
        Ok(OpenedSession {
            session: auth,
            target,
            grants,
        })
    }

    /// A place for one more session, counted from the moment the request is accepted:
    /// opens pipelined on one connection all run at once, and each must see the others
    /// before any has registered its session. Held until the session is in the table.
    fn reserve_session(&self, limit: usize) -> Result<OpenSlot<'_>, HostError> {
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= TOMBSTONES {
            sessions.retain(|_, s| !s.is_stopped());
        }
        let live = sessions.values().filter(|s| !s.is_stopped()).count();
        // Taken under the table's lock: the check and the count are one step.
        let opening = self.opening.load(Ordering::Acquire);
        if live + opening >= limit {
            return Err(HostError::limit(
                LimitName::SessionsPerConnection,
                format!(
                    "this connection already has {live} sessions and {opening} opening; the limit is {limit}: stop one first",
                ),
            ));
        }
        self.opening.fetch_add(1, Ordering::AcqRel);
        Ok(OpenSlot(self))
    }

    /// The session `auth` names, on this connection, with its capability checked.
    fn session(&self, auth: &SessionAuth) -> Result<Arc<Session>, HostError> {
        let session = lock(&self.sessions).get(&auth.session_id).cloned().ok_or_else(|| {
            HostError::new(
                ErrorCode::UnknownSession,
                format!(
                    "no session {:?} on this connection (sessions belong to the connection that opened them)",
                    arc_core::clip(&auth.session_id.0, 64)
                ),
            )
        })?;
        session.authorize(&auth.capability)?;
        session.live()?;
        Ok(session)
    }

    /// Runs `f` on the session `auth` names, one request at a time on its page. An error
    /// leaves with the session's secrets redacted: a message may quote what the page
    /// shows (an element that has the focus, a lost page's detail).
    async fn on_session<T>(
        &self,
        auth: &SessionAuth,
        f: impl AsyncFnOnce(&Session, &mut SessionState) -> Result<T, HostError>,
    ) -> Result<T, HostError> {
        let session = self.session(auth)?;
        let result = match session.lock().await {
            Ok(mut state) => f(&session, &mut state).await,
            Err(e) => Err(e),
        };
        result.map_err(|mut e| {
            session.redactor.redact_string(&mut e.message);
            e
        })
    }

    pub async fn observe(&self, params: ObserveParams) -> Result<Observation, HostError> {
        let limits = &self.host.inner.limits;
        self.on_session(&params.session, async |_, state| {
            observation::observe(state, &params.options, limits).await
        })
        .await
    }

    pub async fn find(&self, params: FindParams) -> Result<Found, HostError> {
        let limits = &self.host.inner.limits;
        self.on_session(&params.session, async |_, state| {
            query::find_in(state, &params, limits).await
        })
        .await
    }

    pub async fn act(&self, params: ActParams) -> Result<ActResult, HostError> {
        let limits = &self.host.inner.limits;
        self.on_session(&params.session, async |session, state| {
            act::act(session, state, &params, limits).await
        })
        .await
    }

    pub async fn wait_for(&self, params: WaitForParams) -> Result<WaitResult, HostError> {
        let limits = &self.host.inner.limits;
        self.on_session(&params.session, async |session, state| {
            query::wait_for(session, state, &params, limits).await
        })
        .await
    }

    /// Runs a subtask on the session's page as it is; `on_event` sees each step (redacted).
    pub async fn run_subtask(
        &self,
        params: RunSubtaskParams,
        on_event: impl FnMut(&StepEvent) + Send,
    ) -> Result<RunSubtaskResult, HostError> {
        let limits = &self.host.inner.limits;
        let model = self.host.model();
        self.on_session(&params.session, async |session, state| {
            run::run_subtask(session, state, &params, limits, model, on_event).await
        })
        .await
    }

    /// The files the session's page downloaded (none for a desktop window).
    pub async fn downloads(&self, params: SessionParams) -> Result<Downloads, HostError> {
        self.on_session(&params.session, async |_, state| {
            let backend = crate::observation::backend(state)?;
            Ok(Downloads {
                downloads: backend
                    .target()
                    .page()
                    .map(|p| p.downloads())
                    .unwrap_or_default(),
            })
        })
        .await
    }

    /// The session's journal (most recent last).
    pub fn journal(&self, auth: &SessionAuth) -> Result<Vec<JournalEntry>, HostError> {
        let session = self.session(auth)?;
        Ok(session.journal.entries())
    }

    pub async fn stop_session(&self, params: SessionParams) -> Result<Stopped, HostError> {
        let session = self.session(&params.session)?;
        // Kept as a tombstone (pruned when sessions open) so its next use says it stopped.
        session.stop(StopReason::Stopped);
        session.release().await;
        Ok(Stopped { stopped: true })
    }

    /// Stops every session of this connection (a disconnect).
    pub async fn close(&self) {
        let sessions: Vec<Arc<Session>> = lock(&self.sessions).drain().map(|(_, s)| s).collect();
        for s in &sessions {
            s.stop(StopReason::Stopped);
        }
        for s in sessions {
            s.release().await;
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let sessions: Vec<Arc<Session>> = lock(&self.sessions).drain().map(|(_, s)| s).collect();
        for s in &sessions {
            s.stop(StopReason::Stopped);
        }
        if sessions.is_empty() {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                for s in sessions {
                    s.release().await;
                }
            });
        }
    }
}

/// The host's browser options, with the page kept on the session's origins.
fn confined(options: &BrowserOptions, confinement: &Confinement) -> BrowserOptions {
    BrowserOptions {
        confine: Some(confinement.allowed().clone()),
        ..options.clone()
    }
}

fn browser_error(what: &str, e: &arc_browser::BrowserError) -> HostError {
    let code = match e {
        arc_browser::BrowserError::Cdp(c) if c.lost().is_some() => ErrorCode::BrowserLost,
        arc_browser::BrowserError::OffOrigin { .. } => ErrorCode::OriginNotAllowed,
        _ => ErrorCode::BackendFailure,
    };
    HostError::new(code, format!("{what}: {e}"))
}

/// A page's listing (url and title as its browser reports them).
async fn page_info(browser: &arc_browser::Browser, backend: &BrowserBackend) -> TargetInfo {
    let target_id = TargetId(backend.page().target_id().0.clone());
    let (url, title) = browser
        .pages()
        .await
        .unwrap_or_default()
        .into_iter()
        .find(|p| p.target_id.0 == target_id.0)
        .map(|p| (p.url, p.title))
        .unwrap_or_default();
    TargetInfo::Page {
        target_id,
        url,
        title,
    }
}
