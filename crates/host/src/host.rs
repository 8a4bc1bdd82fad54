//! The [`Host`]: one browser, many connections, many sessions. Shared (`Clone`, `Send +
//! Sync`); transports and the MCP server call its typed methods directly.

use crate::connection::Connection;
use crate::desktop::DesktopAccess;
use crate::input_fifo::InputFifo;
use crate::limits::Limits;
use crate::protocol::{
    ErrorCode, Feature, HelloParams, HelloResult, HostError, Interrupted, LimitName, Manifest,
    Method, TargetId, TargetInfo, TargetList, PROTOCOL_VERSION,
};
use crate::session::{Session, StopReason};
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::{Browser, BrowserError, Chromium};
use arc_policy::ModelConfig;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::Semaphore;

pub const SERVER_NAME: &str = "arc-cua";

/// The longest `client_name` accepted.
const MAX_CLIENT_NAME_CHARS: usize = 80;

#[derive(Clone)]
pub struct Host {
    pub(crate) inner: Arc<HostInner>,
}

pub(crate) struct HostInner {
    /// `None`: a host for desktop windows only. Replaced when the Chromium this host
    /// launched is lost ([`Host::browser`]).
    browser: Mutex<Option<Browser>>,
    /// Held while a lost browser is launched again: one relaunch serves every caller.
    relaunch: tokio::sync::Mutex<()>,
    /// Where desktop windows are reached (the accessibility bus, the X display).
    pub desktop: Mutex<DesktopAccess>,
    /// The Chromium this host launched (killed with the host), if any.
    chromium: Mutex<Option<Chromium>>,
    pub options: BrowserOptions,
    pub limits: Limits,
    pub fifo: Arc<InputFifo>,
    generation: AtomicU64,
    /// Every session on every connection, for `interrupt_all`.
    registry: Mutex<Vec<Weak<Session>>>,
    connections: Arc<Semaphore>,
    next_connection: AtomicU64,
    endpoint: Mutex<Option<String>>,
    /// The model `run_subtask`'s cascade escalates to and asks to judge; none by default.
    model: Mutex<Option<ModelConfig>>,
    /// The directories the operator lets sessions upload from (`--allow-files`), resolved;
    /// a session's `allow_files` must lie within them. None: no session uploads.
    upload_dirs: Mutex<Vec<std::path::PathBuf>>,
    /// The most reply bytes ever queued on one connection (`Limits::reply_queue_bytes`).
    reply_queue_peak: Arc<AtomicUsize>,
}

impl Host {
    /// Launches headless Chromium, or connects to `options.cdp_endpoint`.
    pub async fn start(options: BrowserOptions, limits: Limits) -> Result<Host, BrowserError> {
        let (chromium, browser) = BrowserBackend::browser_for(&options).await?;
        let host = Host::with_browser(browser, options, limits);
        *lock(&host.inner.chromium) = chromium;
        Ok(host)
    }

    /// A host on an already connected browser (not closed with the host).
    pub fn with_browser(browser: Browser, options: BrowserOptions, limits: Limits) -> Host {
        Host::new(Some(browser), options, limits)
    }

    /// A host without a browser: it serves desktop windows only (`list_targets` lists
    /// no pages, and a page target is `target_not_found`).
    pub fn without_browser(limits: Limits) -> Host {
        Host::new(None, BrowserOptions::default(), limits)
    }

    fn new(browser: Option<Browser>, mut options: BrowserOptions, limits: Limits) -> Host {
        // Many pages are driven at once: each new one gets a window of its own, so none
        // is a background tab whose input Chromium holds back.
        options.own_window = true;
        let connections = Arc::new(Semaphore::new(limits.connections));
        Host {
            inner: Arc::new(HostInner {
                browser: Mutex::new(browser),
                relaunch: tokio::sync::Mutex::new(()),
                desktop: Mutex::new(DesktopAccess::default()),
                chromium: Mutex::new(None),
                options,
                limits,
                fifo: Arc::new(InputFifo::default()),
                generation: AtomicU64::new(0),
                registry: Mutex::new(Vec::new()),
                connections,
                next_connection: AtomicU64::new(0),
                endpoint: Mutex::new(None),
                model: Mutex::new(None),
                upload_dirs: Mutex::new(Vec::new()),
                reply_queue_peak: Arc::default(),
            }),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The most bytes of replies that were ever queued, unread, on one connection.
    pub fn reply_queue_peak_bytes(&self) -> usize {
        self.inner.reply_queue_peak.load(Ordering::Acquire)
    }

    pub(crate) fn reply_queue_peak(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.inner.reply_queue_peak)
    }

    /// The browser new sessions and listings go to (`None`: desktop windows only). When
    /// the Chromium this host launched has died, a new one is launched first: sessions on
    /// the old one stay `browser_lost`, new ones work. A browser the host attached to
    /// (`--cdp`) is the user's to restart, so its loss stays `browser_lost`.
    /// The browser as it is now, if it is still up (never relaunched): what a front
    /// door reads a session from when the host is done.
    pub fn live_browser(&self) -> Option<Browser> {
        lock(&self.inner.browser)
            .clone()
            .filter(|b| !b.connection().is_closed())
    }

    pub(crate) async fn browser(&self) -> Result<Option<Browser>, HostError> {
        let lost = |b: &Browser| b.connection().is_closed();
        let current = lock(&self.inner.browser).clone();
        match current {
            Some(b) if lost(&b) && lock(&self.inner.chromium).is_some() => {}
            other => return Ok(other),
        }
        let _one = self.inner.relaunch.lock().await;
        if let Some(b) = lock(&self.inner.browser).clone().filter(|b| !lost(b)) {
            return Ok(Some(b)); // another caller launched it meanwhile
        }
        let old = lock(&self.inner.chromium).as_ref().map(Chromium::pid);
        let (chromium, browser) = BrowserBackend::browser_for(&self.inner.options)
            .await
            .map_err(|e| {
                HostError::new(
                    ErrorCode::BrowserLost,
                    format!("the browser was lost and a new one did not start: {e}"),
                )
            })?;
        // Dropping the dead one reaps its process group and removes its profile.
        let dead = std::mem::replace(&mut *lock(&self.inner.chromium), chromium);
        drop(dead);
        *lock(&self.inner.browser) = Some(browser.clone());
        tracing::warn!(
            old_pid = old,
            new_pid = self.chromium_pid(),
            "the browser this host launched was lost; launched a new one for new sessions"
        );
        Ok(Some(browser))
    }

    /// The Chromium process this host launched, if it launched one.
    pub fn chromium_pid(&self) -> Option<u32> {
        lock(&self.inner.chromium).as_ref().map(Chromium::pid)
    }

    /// Where desktop windows are reached (default: the environment's session bus and
    /// display).
    pub fn set_desktop(&self, access: DesktopAccess) {
        *lock(&self.inner.desktop) = access;
    }

    pub(crate) fn desktop(&self) -> DesktopAccess {
        lock(&self.inner.desktop).clone()
    }

    /// The model `run_subtask` runs with (the cascade: reflex, then this model for what
    /// the reflex cannot do or read). Refused, naming the setting, when it cannot work.
    pub fn set_model(&self, model: Option<ModelConfig>) -> Result<(), arc_core::PolicyError> {
        if let Some(config) = &model {
            arc_policy::OpenAiPolicy::new(config.clone())?;
        }
        *lock(&self.inner.model) = model;
        Ok(())
    }

    /// Lets sessions ask `allow_files` within these directories (each must exist); the
    /// error names the first that does not.
    pub fn set_upload_dirs(&self, dirs: &[std::path::PathBuf]) -> Result<(), String> {
        let resolved = dirs
            .iter()
            .map(|d| match std::fs::canonicalize(d) {
                Ok(real) if real.is_dir() => Ok(real),
                Ok(_) => Err(format!("{} is not a directory", d.display())),
                Err(e) => Err(format!("{}: {e}", d.display())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        *lock(&self.inner.upload_dirs) = resolved;
        Ok(())
    }

    /// Refuses a session's `allow_files` directory the operator did not let sessions ask.
    pub(crate) fn check_upload_dir(&self, dir: &std::path::Path) -> Result<(), HostError> {
        let within = std::fs::canonicalize(dir).is_ok_and(|real| {
            lock(&self.inner.upload_dirs)
                .iter()
                .any(|granted| real.starts_with(granted))
        });
        if within {
            return Ok(());
        }
        Err(HostError::new(
            crate::protocol::ErrorCode::FileNotGranted,
            format!(
                "open_session params.grants.allow_files: {} is not within a directory this host lets sessions upload from (its operator's --allow-files)",
                dir.display()
            ),
        ))
    }

    pub(crate) fn model(&self) -> Option<ModelConfig> {
        lock(&self.inner.model).clone()
    }

    /// Records the socket path the manifest reports.
    pub fn set_endpoint(&self, endpoint: Option<String>) {
        *lock(&self.inner.endpoint) = endpoint;
    }

    /// `hello`: checks the version and the name, takes a connection slot.
    pub fn connect(&self, hello: &HelloParams) -> Result<(Connection, HelloResult), HostError> {
        if hello.protocol_version != PROTOCOL_VERSION {
            return Err(HostError::new(
                ErrorCode::UnsupportedProtocol,
                format!(
                    "protocol_version {} is not served; this host speaks {PROTOCOL_VERSION}",
                    hello.protocol_version
                ),
            ));
        }
        let n = hello.client_name.chars().count();
        if n == 0
            || n > MAX_CLIENT_NAME_CHARS
            || hello.client_name.chars().any(char::is_control)
            || hello.client_name.trim() != hello.client_name
        {
            return Err(HostError::new(
                ErrorCode::InvalidParams,
                format!("hello params.client_name must be 1–{MAX_CLIENT_NAME_CHARS} characters, no control characters or surrounding spaces"),
            ));
        }
        let permit = Arc::clone(&self.inner.connections)
            .try_acquire_owned()
            .map_err(|_| {
                HostError::limit(
                    LimitName::Connections,
                    format!(
                        "the host already serves {} connections; close one and retry",
                        self.inner.limits.connections
                    ),
                )
            })?;
        let id = self.inner.next_connection.fetch_add(1, Ordering::Relaxed) + 1;
        let connection = Connection::new(self.clone(), id, hello.client_name.clone(), permit);
        Ok((connection, self.hello_result()))
    }

    fn hello_result(&self) -> HelloResult {
        HelloResult {
            protocol_version: PROTOCOL_VERSION,
            server: SERVER_NAME.into(),
            server_version: env!("CARGO_PKG_VERSION").into(),
            capabilities: features(),
            limits: self.inner.limits.clone(),
        }
    }

    pub fn manifest(&self) -> Manifest {
        Manifest {
            protocol_version: PROTOCOL_VERSION,
            server: SERVER_NAME.into(),
            server_version: env!("CARGO_PKG_VERSION").into(),
            methods: Method::ALL.to_vec(),
            error_codes: ErrorCode::ALL.to_vec(),
            capabilities: features(),
            limits: self.inner.limits.clone(),
            transports: vec!["stdio".into(), "socket".into()],
            endpoint: lock(&self.inner.endpoint).clone(),
        }
    }

    /// The browser's pages, then the desktop's application windows (or why the
    /// accessibility bus is out of reach: that never fails the pages).
    pub async fn list_targets(&self) -> Result<TargetList, HostError> {
        let mut targets = Vec::new();
        if let Some(browser) = self.browser().await? {
            let pages = browser.pages().await.map_err(|e| {
                let code = if e.lost().is_some() {
                    ErrorCode::BrowserLost
                } else {
                    ErrorCode::BackendFailure
                };
                HostError::new(code, format!("cannot list targets: {e}"))
            })?;
            targets.extend(pages.into_iter().map(|p| TargetInfo::Page {
                target_id: TargetId(p.target_id.0),
                url: p.url,
                title: p.title,
            }));
        }
        let desktop_unavailable = match crate::desktop::windows(&self.desktop()).await {
            Ok(windows) => {
                targets.extend(windows);
                None
            }
            Err(why) => Some(why),
        };
        self.redact_targets(&mut targets);
        Ok(TargetList {
            targets,
            desktop_unavailable,
        })
    }

    /// Each target as it may be listed: what it shows of itself redacted with the secrets
    /// of every live session bound to it (a page's title may echo a password one learned).
    pub(crate) fn redact_targets(&self, targets: &mut [TargetInfo]) {
        let sessions: Vec<Arc<Session>> = lock(&self.inner.registry)
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|s| !s.is_stopped())
            .collect();
        for target in targets {
            let id = target.target_id().clone();
            for s in sessions.iter().filter(|s| s.target_id == id) {
                target.redact(&s.redactor);
            }
        }
    }

    /// Stops every session on every connection; their next request gets `interrupted`.
    /// Each is released as `stop_session` releases it (a tab it opened is closed) before
    /// the answer, so an interrupted session leaves no tab behind while its client lives.
    pub async fn interrupt_all(&self) -> Interrupted {
        let generation = self.inner.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let sessions: Vec<Arc<Session>> = lock(&self.inner.registry)
            .drain(..)
            .filter_map(|weak| weak.upgrade())
            .collect();
        let mut stopped = 0;
        for session in &sessions {
            if !session.is_stopped() {
                stopped += 1;
            }
            session.stop(StopReason::Interrupted);
        }
        for session in sessions {
            session.release().await;
        }
        Interrupted {
            stopped_sessions: stopped,
            generation,
        }
    }

    pub(crate) fn register(&self, session: &Arc<Session>) {
        let mut registry = lock(&self.inner.registry);
        registry.retain(|w| w.strong_count() > 0);
        registry.push(Arc::downgrade(session));
    }

    /// Closes the Chromium this host launched (dropping the host does it too).
    pub async fn shutdown(&self) {
        let chromium = lock(&self.inner.chromium).take();
        if let Some(chromium) = chromium {
            let _ = chromium.close().await;
        }
    }
}

fn features() -> Vec<Feature> {
    vec![
        Feature::ObserveDelta,
        Feature::Screenshot,
        Feature::SubtaskEvents,
        Feature::PipelinedRequests,
    ]
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
