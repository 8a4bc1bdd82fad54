//! The arc-core [`Backend`] over CDP: observe the page's accessibility tree, act with
//! trusted `Input.*` events at the live position of the target, check freshness by
//! re-reading one node, and settle on a cheap in-page probe.
//!
//! Layout: `observe` (AX + DOM snapshot → elements), `input` (every action kind),
//! `dialog` (JavaScript dialogs as elements), `pump` (events folded into shared state),
//! `world` (our helpers in an isolated world), `prune`/`ax`/`layout`/`raw` (the tree),
//! `ids` (ids bound to element identity).

pub mod ax;
mod canvas;
mod confine;
pub use confine::{origin, AllowedOrigins};
mod dialog;
mod doc;
mod frames;
pub mod ids;
mod input;
mod keys;
pub mod layout;
mod observe;
pub use observe::WHOLE_PAGE_ELEMENTS;
mod opened;
mod point;
mod probe;
pub use point::{FocusedEntry, PointButton, PointInput, PointLanding};
mod press;
pub mod prune;
mod pump;
pub mod raw;
mod roots;
pub mod scan;
mod watch;
pub mod world;

use crate::cdp::methods::{dom, network, page, runtime, target};
use crate::cdp::{FrameId, LoaderId, SessionFilter, TargetId};
use crate::download::Downloads;
use crate::{Browser, BrowserError, Chromium, LaunchOptions, Lost, PageSession};
use arc_core::{
    Backend, BackendError, EffectSample, ExecutableAction, Executed, ExpectedEffect,
    LandedElsewhere, PressFacts, SettleSample, Snapshot,
};
use async_trait::async_trait;
use ids::IdRegistry;
use pump::Shared;
use std::time::Duration;
use tokio::task::JoinHandle;
use world::Worlds;

/// How much of a page one observation reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The whole accessibility tree of every frame: Chromium's own roles and names.
    Full,
    /// What is on screen (± half a viewport), the focused element and open dialogs, from
    /// one in-page scan; the rest is reached by scrolling or a full observation.
    Viewport,
    /// The scan, walked whole on pages of up to this many DOM elements (then reported as
    /// the whole page: nothing rendered was left out) and near the viewport beyond.
    /// Chromium's whole tree only for such a small page with a cross-origin frame, which
    /// the scan cannot enter: the AX tree costs ~25 µs a node (platform notes).
    Auto { max_full_elements: usize },
}

impl Default for Scope {
    fn default() -> Self {
        Scope::Auto {
            max_full_elements: 1_000,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct BrowserOptions {
    pub launch: LaunchOptions,
    /// Attach to this DevTools endpoint (`ws://…` or `http://host:port`) instead of
    /// launching Chromium.
    pub cdp_endpoint: Option<String>,
    /// Allow NAVIGATE to `file://` URLs (http and https are always allowed).
    pub allow_file_urls: bool,
    pub scope: Scope,
    /// Open pages in a window of their own (each in front of its window), for hosts
    /// that drive many pages at once.
    pub own_window: bool,
    /// Whether `<canvas>` regions are OCR'd into text elements (`canvas.rs`).
    pub ocr: arc_vision::OcrMode,
    /// Keep the page's top-level document on these origins (`confine.rs`): a document
    /// request of the main frame to any other is cancelled. `None`: anywhere.
    pub confine: Option<AllowedOrigins>,
    /// Cookies and storage put into the browser before its first page
    /// (`--storage-state`), once per browser launched or attached.
    pub storage_state: Option<std::sync::Arc<crate::StorageState>>,
    /// Where the page's downloads are saved (created 0700); `None`: a fresh
    /// `arc-cua-downloads-*` directory in the temp directory, made at the first one.
    pub downloads: Option<std::path::PathBuf>,
    /// The largest download kept (a larger one is cancelled); `None`:
    /// [`crate::MAX_DOWNLOAD_BYTES`].
    pub max_download_bytes: Option<u64>,
}

/// One page of one browser, driven for one session.
pub struct BrowserBackend {
    browser: Browser,
    page: PageSession,
    ids: IdRegistry,
    worlds: Worlds,
    shared: Shared,
    pump: JoinHandle<()>,
    options: BrowserOptions,
    /// Frames of the last observation: the main frame first.
    frames: Vec<(FrameId, LoaderId)>,
    /// Frames the last scan entered apart from the main world (`frames.rs`).
    entered: frames::EnteredFrames,
    /// Where the current action's press went when the page said it was not its target
    /// (`execute` hands it on).
    landed: Option<LandedElsewhere>,
    /// The document the last point gate armed its landing watch in, when not the main
    /// frame's (`landing_at` reads it there).
    point_doc: Option<doc::Doc>,
    canvas: canvas::CanvasOcr,
    /// The last scan's elements, reused while the page says nothing changed.
    last_scan: Option<observe::LastScan>,
    /// Observations answered with the last scan's elements (the page had not changed).
    reused: u64,
    /// Of those, answered without asking the page (`watch.rs`).
    unasked: u64,
    /// Password values the page held in reads since the last observation returned
    /// (`Snapshot::password_values`): learned by a redactor, never shown.
    passwords: Vec<String>,
    /// The files the session's pages downloaded (`download.rs`).
    downloads: Downloads,
    /// Kept last so the process group dies after everything that talks to it.
    chromium: Option<Chromium>,
}

impl Drop for BrowserBackend {
    fn drop(&mut self) {
        self.pump.abort();
        if self.options.confine.is_some() {
            // Nobody answers the page's paused requests any more: unless interception is
            // off, the next navigation of a page we leave open waits forever.
            let page = self.page.clone();
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(async move { confine::release(&page).await });
            }
        }
    }
}

impl BrowserBackend {
    /// Launches headless Chromium (or attaches to `options.cdp_endpoint`) and opens `url`
    /// in a new tab.
    pub async fn start(options: BrowserOptions, url: &str) -> Result<BrowserBackend, BrowserError> {
        let (chromium, browser) = Self::browser_for(&options).await?;
        let mut backend = Self::open(browser, url, options).await?;
        backend.chromium = chromium;
        Ok(backend)
    }

    /// Opens `url` in a new tab of an already connected `browser` (shared with other
    /// backends: closing this one leaves the browser running); `about:blank` is the blank
    /// tab as created.
    pub async fn open(
        browser: Browser,
        url: &str,
        options: BrowserOptions,
    ) -> Result<BrowserBackend, BrowserError> {
        Self::discover(&browser).await?;
        // Blank first, listening before the first load: a dialog the page opens while
        // loading (`alert()` in an inline script) must reach the pump, to be observed.
        let page = if options.own_window {
            browser.new_window("about:blank").await?
        } else {
            browser.new_page("about:blank").await?
        };
        let shared = Shared::new();
        let downloads = Downloads::new(
            &browser,
            options.downloads.clone(),
            options.max_download_bytes,
        )?;
        let setup = Self::setup(
            &browser,
            &page,
            &shared,
            &downloads,
            options.confine.as_ref(),
        );
        let pump = match setup.await {
            Ok(pump) => pump,
            Err(e) => {
                let _ = page.close().await;
                return Err(e);
            }
        };
        // A blank tab is what the page is already.
        let loaded = match url {
            "about:blank" => Ok(()),
            url => page.navigate(url).await.map(|_| ()),
        };
        if let Err(e) = loaded {
            pump.abort();
            // A redirect of the first load led off the allowed origins.
            let e = match shared.lock().blocked.take() {
                Some(to) => BrowserError::OffOrigin {
                    url: url.to_owned(),
                    origin: origin(&to).unwrap_or_else(|| arc_core::clip(&to, 64).into_owned()),
                },
                None => e,
            };
            // An attached browser is not ours: leave it without our tab.
            let _ = page.close().await;
            return Err(e);
        }
        Ok(Self::assemble(
            browser, page, shared, downloads, pump, options,
        ))
    }

    /// Attaches to one existing page of `browser` as it is: no navigation, no reload, its
    /// state (typed text, scroll, script state) kept. `target` names the page; without
    /// it the browser must have exactly one page.
    pub async fn attach(
        browser: Browser,
        target: Option<TargetId>,
        options: BrowserOptions,
    ) -> Result<BrowserBackend, BrowserError> {
        Self::discover(&browser).await?;
        let pages = browser.pages().await?;
        let target_id = match target {
            Some(id) => pages
                .iter()
                .find(|p| p.target_id == id)
                .map(|p| p.target_id.clone())
                .ok_or_else(|| BrowserError::NoSuchTarget {
                    detail: format!("no page target {} (pages: {})", id.0, page_list(&pages)),
                })?,
            None => match pages.as_slice() {
                [only] => only.target_id.clone(),
                _ => {
                    return Err(BrowserError::NoSuchTarget {
                        detail: format!(
                            "{} pages open; name one with a target id (pages: {})",
                            pages.len(),
                            page_list(&pages)
                        ),
                    })
                }
            },
        };
        let page = browser.attach(target_id).await?;
        let shared = Shared::new();
        let downloads = Downloads::new(
            &browser,
            options.downloads.clone(),
            options.max_download_bytes,
        )?;
        let setup = Self::setup(
            &browser,
            &page,
            &shared,
            &downloads,
            options.confine.as_ref(),
        );
        let pump = setup.await?;
        Ok(Self::assemble(
            browser, page, shared, downloads, pump, options,
        ))
    }

    /// Launches Chromium, or connects to `options.cdp_endpoint`, and loads the options'
    /// storage state into it.
    pub async fn browser_for(
        options: &BrowserOptions,
    ) -> Result<(Option<Chromium>, Browser), BrowserError> {
        let (chromium, browser) = match &options.cdp_endpoint {
            Some(endpoint) => (None, Browser::connect(endpoint).await?),
            None => {
                let chromium = Chromium::launch(options.launch.clone()).await?;
                let browser = chromium.connect().await?;
                (Some(chromium), browser)
            }
        };
        if let Some(state) = &options.storage_state {
            state.load(&browser).await?;
        }
        Ok((chromium, browser))
    }

    /// The files this session's pages downloaded and saved so far, oldest first.
    pub fn downloads(&self) -> Vec<arc_core::Download> {
        self.downloads.saved()
    }

    /// The browser this page is in (shared with every other page of it).
    pub fn browser(&self) -> &Browser {
        &self.browser
    }

    async fn discover(browser: &Browser) -> Result<(), BrowserError> {
        browser
            .call(target::SetDiscoverTargets {
                discover: true,
                filter: None,
            })
            .await?;
        Ok(())
    }

    fn assemble(
        browser: Browser,
        page: PageSession,
        shared: Shared,
        downloads: Downloads,
        pump: JoinHandle<()>,
        options: BrowserOptions,
    ) -> BrowserBackend {
        let ocr = options.ocr;
        BrowserBackend {
            browser,
            page,
            ids: IdRegistry::default(),
            worlds: Worlds::default(),
            shared,
            pump,
            options,
            frames: Vec::new(),
            entered: frames::EnteredFrames::default(),
            landed: None,
            point_doc: None,
            canvas: canvas::CanvasOcr::new(ocr),
            last_scan: None,
            reused: 0,
            unasked: 0,
            passwords: Vec::new(),
            downloads,
            chromium: None,
        }
    }

    /// A PNG of the page's viewport, base64 (as Chromium sends it: most clients forward
    /// it as text anyway).
    pub async fn screenshot_png_base64(&self) -> Result<String, BrowserError> {
        let shot = self
            .page
            .call(page::CaptureScreenshot {
                format: Some(page::ImageFormat::Png),
                ..Default::default()
            })
            .await?;
        Ok(shot.data)
    }

    /// Enables the domains the backend listens to and starts folding their events (and,
    /// with `confine`, answering the page's paused document requests).
    async fn setup(
        browser: &Browser,
        page: &PageSession,
        shared: &Shared,
        downloads: &Downloads,
        confine: Option<&AllowedOrigins>,
    ) -> Result<JoinHandle<()>, BrowserError> {
        let page_events = page.subscribe();
        let browser_events = browser.connection().subscribe(SessionFilter::Browser);
        page.call(network::Enable::default()).await?;
        page.call(dom::Enable {}).await?;
        // No Accessibility.enable: with it on, Chromium keeps building AX objects for the
        // whole document, which made the first viewport scan of a 25,000-element page
        // take 219–420 ms instead of ~6 ms; getFullAXTree works without it.
        page.call(runtime::Enable {}).await?;
        world::add_notice(page).await?;
        downloads.enable(browser).await?;
        let confine = match confine {
            Some(allowed) => Some(confine::start(page, allowed.clone(), shared.clone()).await?),
            None => None,
        };
        let pump = shared.clone().pump(
            page_events,
            browser_events,
            page.target_id().clone(),
            downloads.clone(),
            browser.clone(),
        );
        Ok(tokio::spawn(async move {
            match confine {
                Some(confine) => {
                    tokio::join!(pump, confine);
                }
                None => pump.await,
            }
        }))
    }

    /// Moves the session to another tab (one the page opened).
    async fn switch_to(&mut self, target: TargetId) -> Result<(), BrowserError> {
        let page = self.browser.attach(target.clone()).await?;
        self.browser
            .call(target::ActivateTarget { target_id: target })
            .await?;
        self.pump.abort();
        if self.options.confine.is_some() {
            confine::release(&self.page).await;
        }
        self.shared = Shared::new();
        self.pump = Self::setup(
            &self.browser,
            &page,
            &self.shared,
            &self.downloads,
            self.options.confine.as_ref(),
        )
        .await?;
        self.page = page;
        self.worlds.clear();
        self.frames.clear();
        self.entered.clear();
        self.last_scan = None;
        Ok(())
    }

    /// Brings the page to the front of its window. Chromium delays input to a tab that
    /// is not in front (≈5 s a press, measured headless), so a host serving many tabs
    /// activates each one before its input.
    pub async fn activate(&self) -> Result<(), BrowserError> {
        self.browser
            .call(target::ActivateTarget {
                target_id: self.page.target_id().clone(),
            })
            .await?;
        Ok(())
    }

    /// The page this backend drives.
    pub fn page(&self) -> &PageSession {
        &self.page
    }

    /// Whether the browser or this page's renderer is gone — an environment failure no
    /// decision can fix (the CLI exits 3 on it). Checked on the connection's own state,
    /// which the transport's end or a crash event sets at once.
    pub fn lost(&self) -> Option<Lost> {
        let conn = self.page.connection();
        if conn.is_closed() {
            Some(Lost::Browser)
        } else if conn.is_crashed(self.page.session_id()) {
            Some(Lost::Renderer)
        } else {
            None
        }
    }

    /// How many observations the page answered "unchanged since the last scan" (its
    /// elements were shown again): benchmarks report it, tests check the fast path ran.
    pub fn reused_observations(&self) -> u64 {
        self.reused
    }

    /// Of [`BrowserBackend::reused_observations`], those answered without asking the page:
    /// it was watched and nothing crossed its session since (`watch.rs`).
    pub fn unasked_observations(&self) -> u64 {
        self.unasked
    }

    /// The Chromium process, when this backend launched it.
    pub fn chromium(&self) -> Option<&Chromium> {
        self.chromium.as_ref()
    }

    /// Navigates the page (used to start a run on a URL; NAVIGATE actions go through
    /// `execute` and its scheme check).
    pub async fn goto(&mut self, url: &str) -> Result<(), BrowserError> {
        self.page.navigate(url).await?;
        Ok(())
    }

    /// Closes the browser if this backend launched it.
    pub async fn close(mut self) {
        self.pump.abort();
        if let Some(chromium) = self.chromium.take() {
            let _ = chromium.close().await;
        }
    }

    /// Releases the handles resolved for an action. While a JavaScript dialog is open
    /// the renderer answers no Runtime call, so not then — also not when one opens
    /// meanwhile (the pump may fold it just after the action returned): the handles are
    /// released after a later action instead.
    async fn release_handles(&mut self) {
        // Subscribed before the check, so a dialog folded in between still counts.
        let mut opened = self.shared.dialog_opened();
        opened.borrow_and_update();
        if self.shared.lock().dialog.is_some() {
            return;
        }
        tokio::select! {
            _ = self.worlds.release(&self.page) => {}
            _ = opened.changed() => {}
        }
    }

    /// The URL of the main frame's document as the page last committed it, read from
    /// the events (no call); `None` until a document committed since we listen.
    pub fn committed_url(&self) -> Option<String> {
        self.shared.lock().url.clone()
    }

    /// The URL of the last navigation of the page that [`BrowserOptions::confine`] stopped,
    /// taken (so the next call says only what happened since).
    pub fn take_blocked_navigation(&mut self) -> Option<String> {
        self.shared.lock().blocked.take()
    }

    fn main_frame(&self) -> Option<&(FrameId, LoaderId)> {
        self.frames.first()
    }
}

/// How long a dialog-aware input call may take before it is reported as failed.
const INPUT_TIMEOUT: Duration = Duration::from_secs(10);

fn failed(e: impl std::fmt::Display) -> BackendError {
    BackendError::failed(e)
}

#[async_trait]
impl Backend for BrowserBackend {
    fn name(&self) -> &'static str {
        "cdp"
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        self.observe_in(self.options.scope).await
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        self.fresh(snapshot, action).await
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        let result = self.act(snapshot, action).await;
        self.release_handles().await;
        let landed_elsewhere = self.landed.take();
        result.map(|()| Executed {
            landed_elsewhere,
            ..Executed::default()
        })
    }

    async fn press_facts(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        self.press_facts_of(snapshot, action).await
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        Ok(self.probe(&ExpectedEffect::Unknown).await?.sample)
    }

    async fn settle_probe_for(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        self.probe(effect).await
    }
}

fn page_list(pages: &[target::TargetInfo]) -> String {
    if pages.is_empty() {
        return "none".into();
    }
    pages
        .iter()
        .map(|p| format!("{} {}", p.target_id.0, p.url))
        .collect::<Vec<_>>()
        .join(", ")
}
