//! One DevTools connection: id-matched calls, fanned-out events, fail-fast on close or
//! on a crashed renderer.
//!
//! The transport (a websocket, `websocket.rs`, or Chromium's debugging pipe, `pipe.rs`)
//! is two tasks. The reader parses only the envelope of each message (the
//! `result`/`params` stay raw JSON), so a 20 MB accessibility tree is copied once and
//! deserialized by the caller, never on the reader task.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::AbortHandle;

use super::{Event, Method, SessionId, TargetId};
use crate::error::CdpError;

/// Tuning for a [`Connection`].
#[derive(Debug, Clone)]
pub struct ConnectionOptions {
    /// Default per-call deadline; [`Connection::call_with_timeout`] overrides it per call.
    pub call_timeout: Duration,
    /// Deadline for the websocket handshake.
    pub connect_timeout: Duration,
    /// Largest accepted message. The whole-page AX tree of a big page is well over
    /// tungstenite's 16 MiB default (std's `Vec` docs: ≈ 21 MB), hence 256 MiB: ample
    /// headroom, yet a runaway page cannot make us buffer without end. A larger reply
    /// fails its call with [`CdpError::TooLarge`].
    pub max_message_size: usize,
}

impl Default for ConnectionOptions {
    fn default() -> Self {
        ConnectionOptions {
            call_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_message_size: MAX_MESSAGE_SIZE,
        }
    }
}

/// The default [`ConnectionOptions::max_message_size`].
pub const MAX_MESSAGE_SIZE: usize = 256 << 20;

/// Which events a subscriber receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionFilter {
    /// Every event on the socket.
    All,
    /// Only browser-level events (no `sessionId`), e.g. `Target.*` discovery events.
    Browser,
    /// Only events of one flat session.
    Session(SessionId),
}

impl SessionFilter {
    fn matches(&self, session: Option<&SessionId>) -> bool {
        match self {
            SessionFilter::All => true,
            SessionFilter::Browser => session.is_none(),
            SessionFilter::Session(id) => session == Some(id),
        }
    }
}

/// A cloneable handle to one DevTools websocket. The socket closes when the last clone
/// is dropped.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

struct Inner {
    shared: Arc<Shared>,
    outgoing: mpsc::UnboundedSender<String>,
    next_id: AtomicU64,
    call_timeout: Duration,
    url: String,
    tasks: [AbortHandle; 2],
    /// Where the browser stages downloads, when whoever launched it chose a place that
    /// goes with it (`download.rs`).
    staging: std::sync::OnceLock<std::path::PathBuf>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        self.shared.close();
    }
}

type Reply = Result<Box<RawValue>, CdpError>;

struct Pending {
    method: String,
    session: Option<SessionId>,
    tx: oneshot::Sender<Reply>,
}

struct Subscriber {
    filter: SessionFilter,
    tx: mpsc::UnboundedSender<Event>,
}

/// State shared with the transport tasks.
pub(super) struct Shared {
    state: Mutex<State>,
    closed_tx: watch::Sender<bool>,
}

#[derive(Default)]
struct State {
    closed: bool,
    pending: HashMap<u64, Pending>,
    subscribers: Vec<Subscriber>,
    /// Flat sessions by target, from `Target.attachedToTarget` (to map a crashed target).
    sessions: HashMap<TargetId, SessionId>,
    /// Sessions whose renderer crashed: they will never answer again.
    crashed: HashSet<SessionId>,
    /// The target of each flat session (several sessions may share one target).
    targets: HashMap<SessionId, TargetId>,
    /// Commands sent plus events received per target, over all its sessions
    /// ([`Connection::traffic`]).
    traffic: HashMap<TargetId, u64>,
    /// The http(s) origins pages of this browser showed ([`Connection::visited_origins`]).
    origins: std::collections::BTreeSet<String>,
}

impl State {
    fn count_traffic(&mut self, session: &SessionId) {
        let Some(target) = self.targets.get(session) else {
            return;
        };
        match self.traffic.get_mut(target) {
            Some(n) => *n += 1,
            None => {
                let target = target.clone();
                self.traffic.insert(target, 1);
            }
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave State inconsistent: recover.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fails every pending call with `Closed` and ends every subscription.
    fn close(&self) {
        let (pending, subscribers) = {
            let mut state = self.lock();
            if state.closed {
                return;
            }
            state.closed = true;
            (
                std::mem::take(&mut state.pending),
                std::mem::take(&mut state.subscribers),
            )
        };
        drop(subscribers);
        for (_, p) in pending {
            let _ = p.tx.send(Err(CdpError::Closed { method: p.method }));
        }
        self.closed_tx.send_replace(true);
    }

    /// Fails at once the calls waiting on `session` (their renderer crashed, or the
    /// session was detached); after a crash, later calls on it fail without being sent.
    fn fail_session(&self, session: &SessionId, crashed: bool) {
        let failed: Vec<Pending> = {
            let mut state = self.lock();
            if crashed {
                state.crashed.insert(session.clone());
            }
            let ids: Vec<u64> = state
                .pending
                .iter()
                .filter(|(_, p)| p.session.as_ref() == Some(session))
                .map(|(id, _)| *id)
                .collect();
            ids.iter()
                .filter_map(|id| state.pending.remove(id))
                .collect()
        };
        for p in failed {
            let method = p.method;
            let _ = p.tx.send(Err(if crashed {
                CdpError::TargetCrashed { method }
            } else {
                CdpError::Detached { method }
            }));
        }
    }

    /// Fails one call whose reply was over the size limit (the reader skipped it).
    pub(super) fn fail_too_large(&self, id: u64, limit: usize) {
        if let Some(p) = self.lock().pending.remove(&id) {
            let _ = p.tx.send(Err(CdpError::TooLarge {
                method: p.method,
                limit,
            }));
        }
    }

    /// Notes the events that end a session's calls: a renderer crash (the page session's
    /// `Inspector.targetCrashed`, the browser's `Target.targetCrashed`) or a detach.
    fn watch_lifecycle(&self, event: &Event) {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Ids {
            session_id: Option<SessionId>,
            target_id: Option<TargetId>,
            target_info: Option<TargetInfoId>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct TargetInfoId {
            target_id: TargetId,
        }
        let ids = || serde_json::from_str::<Ids>(event.params.get()).ok();
        match event.method.as_str() {
            "Inspector.targetCrashed" => {
                if let Some(session) = &event.session_id {
                    self.fail_session(session, true);
                }
            }
            "Target.targetCrashed" => {
                let session = ids()
                    .and_then(|i| i.target_id)
                    .and_then(|t| self.lock().sessions.get(&t).cloned());
                if let Some(session) = session {
                    self.fail_session(&session, true);
                }
            }
            "Target.attachedToTarget" => {
                if let Some(Ids {
                    session_id: Some(s),
                    target_info: Some(t),
                    ..
                }) = ids()
                {
                    let mut state = self.lock();
                    state.targets.insert(s.clone(), t.target_id.clone());
                    state.sessions.insert(t.target_id, s);
                }
            }
            // A page's document, wherever it came from: the origins whose storage a
            // saved session keeps, as a browser context's would (`storage_state.rs`).
            "Page.frameNavigated" | "Target.targetInfoChanged" => {
                #[derive(Deserialize)]
                struct Url {
                    url: String,
                }
                #[derive(Deserialize)]
                #[serde(rename_all = "camelCase")]
                struct Carrier {
                    frame: Option<Url>,
                    target_info: Option<Url>,
                }
                if let Ok(c) = serde_json::from_str::<Carrier>(event.params.get()) {
                    let origin = c
                        .frame
                        .or(c.target_info)
                        .and_then(|u| crate::backend::origin(&u.url));
                    if let Some(o) = origin {
                        self.lock().origins.insert(o);
                    }
                }
            }
            "Target.detachedFromTarget" => {
                if let Some(session) = ids().and_then(|i| i.session_id) {
                    {
                        let mut state = self.lock();
                        state.sessions.retain(|_, s| *s != session);
                        if let Some(target) = state.targets.remove(&session) {
                            if !state.targets.values().any(|t| *t == target) {
                                state.traffic.remove(&target);
                            }
                        }
                    }
                    self.fail_session(&session, false);
                }
            }
            _ => {}
        }
    }

    pub(super) fn dispatch(&self, text: &str) {
        let msg: Incoming<'_> = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(error = %e, "unparseable CDP message dropped");
                return;
            }
        };
        if let Some(id) = msg.id {
            let Some(pending) = self.lock().pending.remove(&id) else {
                tracing::debug!(id, "reply to a forgotten call dropped");
                return;
            };
            let reply = match msg.error {
                Some(err) => Err(CdpError::Protocol {
                    method: pending.method,
                    code: err.code,
                    message: err.message,
                    data: err.data,
                }),
                None => Ok(msg
                    .result
                    .map(|r| r.to_owned())
                    .unwrap_or_else(empty_object)),
            };
            let _ = pending.tx.send(reply);
        } else if let Some(method) = msg.method {
            let event = Event {
                session_id: msg.session_id.map(SessionId),
                method,
                params: Arc::from(
                    msg.params
                        .map(|p| p.to_owned())
                        .unwrap_or_else(empty_object),
                ),
            };
            self.watch_lifecycle(&event);
            let mut state = self.lock();
            if let Some(session) = &event.session_id {
                state.count_traffic(session);
            }
            state.subscribers.retain(|s| {
                !s.filter.matches(event.session_id.as_ref()) || s.tx.send(event.clone()).is_ok()
            });
        }
    }
}

fn empty_object() -> Box<RawValue> {
    RawValue::from_string("{}".to_owned()).expect("valid JSON")
}

/// The envelope of a message from Chromium: a reply (`id`) or an event (`method`).
#[derive(Deserialize)]
struct Incoming<'a> {
    id: Option<u64>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    error: Option<WireError>,
    method: Option<String>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

#[derive(Deserialize)]
struct WireError {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
    data: Option<String>,
}

#[derive(Serialize)]
struct Outgoing<'a, P: Serialize + ?Sized> {
    id: u64,
    method: &'a str,
    params: &'a P,
    #[serde(rename = "sessionId", skip_serializing_if = "Option::is_none")]
    session_id: Option<&'a str>,
}

/// Removes a pending entry when the call future ends early (timeout or cancellation).
struct PendingGuard<'a> {
    shared: &'a Shared,
    id: u64,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        self.shared.lock().pending.remove(&self.id);
    }
}

impl Connection {
    /// Assembles a connection around a transport's two halves: `reader` feeds every
    /// message it receives to [`Shared::dispatch`] and returns when the transport ends;
    /// `writer` sends every queued message (one JSON text each).
    pub(super) fn assemble<R, W>(
        label: String,
        options: &ConnectionOptions,
        reader: impl FnOnce(Arc<Shared>) -> R,
        writer: impl FnOnce(mpsc::UnboundedReceiver<String>) -> W,
    ) -> Connection
    where
        R: Future<Output = ()> + Send + 'static,
        W: Future<Output = ()> + Send + 'static,
    {
        let (closed_tx, _) = watch::channel(false);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            closed_tx,
        });
        let (outgoing, rx) = mpsc::unbounded_channel::<String>();

        let read = reader(Arc::clone(&shared));
        let reader_shared = Arc::clone(&shared);
        let reader = tokio::spawn(async move {
            read.await;
            reader_shared.close();
        });
        let write = writer(rx);
        let writer_shared = Arc::clone(&shared);
        let writer = tokio::spawn(async move {
            write.await;
            writer_shared.close();
        });
        Connection {
            inner: Arc::new(Inner {
                shared,
                outgoing,
                next_id: AtomicU64::new(1),
                call_timeout: options.call_timeout,
                url: label,
                tasks: [reader.abort_handle(), writer.abort_handle()],
                staging: std::sync::OnceLock::new(),
            }),
        }
    }

    /// The websocket URL this connection was opened on, or `pipe` for a launched browser.
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// The default per-call timeout.
    pub fn call_timeout(&self) -> Duration {
        self.inner.call_timeout
    }

    /// Whether the socket has closed; every call then fails with [`CdpError::Closed`].
    pub fn is_closed(&self) -> bool {
        self.inner.shared.lock().closed
    }

    /// Sets where this browser stages downloads (once; later calls are ignored).
    pub fn set_download_staging(&self, dir: std::path::PathBuf) {
        let _ = self.inner.staging.set(dir);
    }

    /// Where this browser stages downloads, if its launcher chose a place.
    pub fn download_staging(&self) -> Option<&std::path::Path> {
        self.inner.staging.get().map(|p| p.as_path())
    }

    /// The http(s) origins whose documents pages of this browser showed since we
    /// connected, sorted.
    pub fn visited_origins(&self) -> Vec<String> {
        self.inner.shared.lock().origins.iter().cloned().collect()
    }

    /// Whether `session`'s renderer crashed; its calls then fail with
    /// [`CdpError::TargetCrashed`].
    pub fn is_crashed(&self, session: &SessionId) -> bool {
        self.inner.shared.lock().crashed.contains(session)
    }

    /// How many commands were sent and events received so far, in socket order, for the
    /// target `session` is attached to, over every session of this socket on it. A caller
    /// that sees it unchanged knows nobody sent the page anything through this socket
    /// (input, script — also from another session) and the page reported nothing (a
    /// navigation, a binding called) in between. `None` for a session whose attach was
    /// not seen.
    pub fn traffic(&self, session: &SessionId) -> Option<u64> {
        let state = self.inner.shared.lock();
        let target = state.targets.get(session)?;
        Some(state.traffic.get(target).copied().unwrap_or(0))
    }

    /// Resolves once the socket has closed (Chromium exited, crashed or closed it).
    pub async fn closed(&self) {
        let mut rx = self.inner.shared.closed_tx.subscribe();
        let _ = rx.wait_for(|closed| *closed).await;
    }

    /// Sends a typed command and waits (at most the default call timeout) for its reply.
    /// `session` is `None` for browser-level commands, else the flat session of a target.
    pub async fn call<M: Method>(
        &self,
        session: Option<&SessionId>,
        params: M,
    ) -> Result<M::Returns, CdpError> {
        self.call_with_timeout(session, params, self.inner.call_timeout)
            .await
    }

    /// [`Connection::call`] with an explicit deadline.
    pub async fn call_with_timeout<M: Method>(
        &self,
        session: Option<&SessionId>,
        params: M,
        timeout: Duration,
    ) -> Result<M::Returns, CdpError> {
        let raw = self.send(M::NAME, session, &params, timeout).await?;
        serde_json::from_str(raw.get()).map_err(|source| CdpError::Deserialize {
            method: M::NAME.to_owned(),
            source,
        })
    }

    /// An untyped command, for methods without a typed struct. Returns the reply's
    /// `result` as raw JSON text (parse it with `serde_json::from_str(raw.get())`, or
    /// measure/forward it without parsing).
    pub async fn call_raw(
        &self,
        session: Option<&SessionId>,
        method: &str,
        params: serde_json::Value,
    ) -> Result<Box<RawValue>, CdpError> {
        self.send(method, session, &params, self.inner.call_timeout)
            .await
    }

    /// Subscribes to events matching `filter`. Events arrive in socket order; dropping
    /// the receiver unsubscribes; the channel ends (`recv` → `None`) when the socket
    /// closes. Unbounded, so drain it or drop it: an idle subscriber buffers every event.
    pub fn subscribe(&self, filter: SessionFilter) -> mpsc::UnboundedReceiver<Event> {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut state = self.inner.shared.lock();
        // After close, `tx` is dropped here so the receiver ends at once.
        if !state.closed {
            state.subscribers.push(Subscriber { filter, tx });
        }
        rx
    }

    async fn send<P: Serialize + ?Sized>(
        &self,
        method: &str,
        session: Option<&SessionId>,
        params: &P,
        timeout: Duration,
    ) -> Result<Box<RawValue>, CdpError> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let text = serde_json::to_string(&Outgoing {
            id,
            method,
            params,
            session_id: session.map(SessionId::as_str),
        })
        .map_err(|source| CdpError::Serialize {
            method: method.to_owned(),
            source,
        })?;

        let (tx, rx) = oneshot::channel();
        let shared = &*self.inner.shared;
        {
            let mut state = shared.lock();
            if state.closed {
                return Err(CdpError::Closed {
                    method: method.to_owned(),
                });
            }
            if session.is_some_and(|s| state.crashed.contains(s)) {
                return Err(CdpError::TargetCrashed {
                    method: method.to_owned(),
                });
            }
            if let Some(session) = session {
                state.count_traffic(session);
            }
            state.pending.insert(
                id,
                Pending {
                    method: method.to_owned(),
                    session: session.cloned(),
                    tx,
                },
            );
        }
        let _guard = PendingGuard { shared, id };
        tracing::trace!(id, method, session = ?session, "CDP call");
        if self.inner.outgoing.send(text).is_err() {
            return Err(CdpError::Closed {
                method: method.to_owned(),
            });
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => reply,
            // The sender is only dropped by `close`, which sends first; treat as closed.
            Ok(Err(_)) => Err(CdpError::Closed {
                method: method.to_owned(),
            }),
            Err(_) => Err(CdpError::Timeout {
                method: method.to_owned(),
                timeout,
            }),
        }
    }
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("url", &self.inner.url)
            .field("closed", &self.is_closed())
            .finish()
    }
}
