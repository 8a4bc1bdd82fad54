//! Observation and freshness (the settle probe is `probe.rs`).

use super::ax::{build_tree, raw_from_ax, FrameNodes};
use super::ids::{Origin, POPUPS};
use super::layout::Layout;
use super::prune::Pruner;
use super::raw::{NodeHandle, RawTree};
use super::scan::{scan, scan_in, Moved, ScanOptions, ScanResult, Scanned};
use super::watch::Watch;
use super::world::is_lost_world;
use super::{failed, BrowserBackend, Scope};
use crate::cdp::methods::{accessibility, page};
use crate::cdp::{ExecutionContextId, FrameId, LoaderId};
use arc_core::{
    ActionKind, ActionSet, BackendError, Bounds, Element, ElementId, ExecutableAction,
    ObservationScope, PageFacts, Role, Snapshot, Source,
};
use futures_util::future::join_all;
use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long an observation waits for pictures on their way (`await_pictures`), once per
/// picture and document: a person waits a moment for an icon to show; an image decoded
/// from memory takes a frame or two.
const PICTURE_WAIT: Duration = Duration::from_millis(500);
/// The page's own timer ends the wait; this covers a page too busy to run it.
const PICTURE_SLACK: Duration = Duration::from_millis(250);

/// What one read of the page's elements gives, before the tabs it opened are added.
#[derive(Clone)]
struct ScanRead {
    elements: Vec<Element>,
    viewport: Bounds,
    /// `Some(left out)` when only the viewport was read.
    scoped: Option<usize>,
    url: String,
    /// `<canvas>` elements in the document, when the read counted them.
    canvases: Option<usize>,
}

/// The last scan, shown again while the page answers that nothing changed since.
pub(super) struct LastScan {
    world: ExecutionContextId,
    revision: u64,
    read: ScanRead,
    /// Each element's scan key (`read.elements` order), for the boxes animations move.
    keys: Vec<Option<u64>>,
    /// When this scan was asked for (a watch on it ends [`Watch`]'s hold after).
    asked: Instant,
    /// Set while the page watches the last answer: shown again without asking.
    watch: Option<Watch>,
}

impl LastScan {
    /// The last read with the boxes running animations moved since (`Moved`).
    fn shown_again(&self, moved: &[Moved]) -> ScanRead {
        let mut read = self.read.clone();
        if moved.is_empty() {
            return read;
        }
        for (element, key) in read.elements.iter_mut().zip(&self.keys) {
            if let Some(m) = key.and_then(|k| moved.iter().find(|m| m.key() == k)) {
                element.bounds = Some(m.bounds());
            }
        }
        read
    }
}

/// Password values held until an observation returns them (`learned_passwords`).
const MAX_PASSWORDS: usize = 64;

/// The most DOM elements a page may have for [`BrowserBackend::observe_whole`] to walk it
/// whole (a scan of 20,000 is still one evaluate; Chromium's tree would cost ~0.5 s).
pub const WHOLE_PAGE_ELEMENTS: usize = 20_000;

/// One page read: the elements plus what the snapshot reports about them.
struct PageRead {
    elements: Vec<Element>,
    title: String,
    url: String,
    viewport: Bounds,
    /// `Some(left out)` when only the viewport was read.
    scoped: Option<usize>,
    /// `<canvas>` elements in the document, when the read counted them.
    canvases: Option<usize>,
}

impl BrowserBackend {
    /// One observation of the whole page — every rendered element, not only those near
    /// the viewport — for a search over the page (the host's `find`, `observe --find`).
    /// A page of more than [`WHOLE_PAGE_ELEMENTS`] elements is read near the viewport as
    /// ever, its facts saying how many were left out.
    pub async fn observe_whole(&mut self) -> Result<Snapshot, BackendError> {
        let scope = match self.options.scope {
            Scope::Full => Scope::Full,
            _ => Scope::Auto {
                max_full_elements: WHOLE_PAGE_ELEMENTS,
            },
        };
        self.observe_in(scope).await
    }

    /// An observation under `scope`, with what the page's password fields held.
    pub(super) async fn observe_in(&mut self, scope: Scope) -> Result<Snapshot, BackendError> {
        let mut snapshot = self.observe_page(scope).await?;
        snapshot.set_password_values(std::mem::take(&mut self.passwords));
        // Saved files are the session's, whatever the page shows.
        snapshot.facts.downloads = self.downloads.saved();
        Ok(snapshot)
    }

    async fn observe_page(&mut self, scope: Scope) -> Result<Snapshot, BackendError> {
        // Subscribed before the check, so a dialog the pump folds in between still
        // interrupts the read below.
        let mut opened = self.shared.dialog_opened();
        opened.borrow_and_update();
        let dialog = self.shared.lock().dialog.clone();
        if let Some(dialog) = dialog {
            return Ok(self.dialog_snapshot(&dialog));
        }
        let read = tokio::select! {
            r = self.read_page_with_canvas_text(scope) => r,
            // A dialog blocks the page's renderer: answer with the dialog instead of waiting.
            _ = opened.changed() => return self.observe_dialog_now(),
        };
        let read = read?;
        let mut snapshot = Snapshot::new("Chromium", read.title.clone(), read.elements);
        snapshot.viewport = Some(read.viewport);
        snapshot.facts = PageFacts {
            title: Some(read.title),
            scope: Some(if read.scoped.is_some() {
                ObservationScope::Viewport
            } else {
                ObservationScope::Full
            }),
            left_out_elements: read.scoped.map(|n| n as u64),
            ..PageFacts::default()
        };
        // After the facts: folds the URL into the revision too.
        snapshot.set_url(read.url);
        snapshot.captured_at_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .ok()
            .map(|d| d.as_millis() as u64);
        Ok(snapshot)
    }

    /// Keeps what a read found in password fields until the observation returns them
    /// on its snapshot; bounded, as a read may fail before it returns.
    fn learned_passwords(&mut self, values: Vec<String>) {
        for v in values {
            if self.passwords.len() < MAX_PASSWORDS && !self.passwords.contains(&v) {
                self.passwords.push(v);
            }
        }
    }

    fn observe_dialog_now(&mut self) -> Result<Snapshot, BackendError> {
        let dialog = self.shared.lock().dialog.clone();
        match dialog {
            Some(d) => Ok(self.dialog_snapshot(&d)),
            None => Err(failed(
                "a dialog opened and closed during the observation; observe again",
            )),
        }
    }

    /// The page read plus its canvases' OCR'd text (`canvas.rs`).
    async fn read_page_with_canvas_text(&mut self, scope: Scope) -> Result<PageRead, BackendError> {
        let mut read = self.read_page(scope).await?;
        let text = if read.canvases == Some(0) {
            self.no_canvas_text();
            Vec::new()
        } else {
            self.canvas_text(&read.elements).await?
        };
        read.elements.extend(text);
        Ok(read)
    }

    async fn read_page(&mut self, scope: Scope) -> Result<PageRead, BackendError> {
        let scanned = match scope {
            Scope::Full => None,
            Scope::Viewport => self.read_scanned(ScanOptions::default(), None).await?,
            Scope::Auto { max_full_elements } => {
                let defaults = ScanOptions::default();
                let opts = ScanOptions {
                    whole: Some(max_full_elements),
                    // A page walked whole is not cut short of its elements.
                    max: defaults.max.max(max_full_elements),
                    ..defaults
                };
                self.read_scanned(opts, Some(max_full_elements)).await?
            }
        };
        let read = match scanned {
            Some(read) => read,
            None => {
                // Chromium's own tree: `Scope::Full`, or the only way into a cross-origin frame.
                self.last_scan = None;
                let frames = self.refresh_frames().await?;
                let (elements, viewport, scoped) = self.read_full(&frames).await?;
                ScanRead {
                    elements,
                    viewport,
                    scoped,
                    url: frames[0].url.clone(),
                    canvases: None,
                }
            }
        };
        let mut elements = read.elements;
        elements.extend(self.popup_elements());
        let title = elements.first().map(|e| e.name.clone()).unwrap_or_default();
        Ok(PageRead {
            elements,
            title,
            url: read.url,
            viewport: read.viewport,
            scoped: read.scoped,
            canvases: read.canvases,
        })
    }

    /// The page as the scan reads it; `None` when only Chromium's tree can read it (`auto`:
    /// a page of at most that many elements with a cross-origin frame). An unchanged page
    /// answers "same" and the last scan's elements (and ids) are shown again.
    async fn read_scanned(
        &mut self,
        opts: ScanOptions,
        auto: Option<usize>,
    ) -> Result<Option<ScanRead>, BackendError> {
        let asked = Instant::now();
        // A closed socket or a crashed renderer says nothing more: never held then.
        let traffic = self.page.traffic().filter(|_| self.lost().is_none());
        if let Some(last) = self.last_scan.as_mut() {
            match (&last.watch, traffic) {
                (Some(w), Some(traffic))
                    if w.holds(traffic, &opts, asked.saturating_duration_since(last.asked)) =>
                {
                    self.reused += 1;
                    self.unasked += 1;
                    return Ok(Some(last.read.clone()));
                }
                _ => last.watch = None,
            }
        }
        let (mut scanned, mut world) = self.scan_live(&opts).await?;
        if let Scanned::Fresh(scan) = &scanned {
            if scan.pending_pictures > 0 {
                self.await_pictures(world).await;
                (scanned, world) = self.scan_live(&opts).await?;
            }
        }
        // Our one evaluate and nothing else crossed the page's sessions meanwhile.
        let after = self.page.traffic();
        let quiet = match (traffic, after) {
            (Some(before), Some(after)) if after == before + 1 => Some(after),
            _ => None,
        };
        let mut scan = match scanned {
            Scanned::Fresh(scan) => scan,
            Scanned::Same {
                revision,
                moved,
                watched,
            } => {
                let last = self.last_scan.as_mut();
                return match last.filter(|l| l.world == world && l.revision == revision) {
                    Some(last) => {
                        self.reused += 1;
                        last.watch = quiet.filter(|_| watched).map(|t| Watch::new(t, opts));
                        Ok(Some(last.shown_again(&moved)))
                    }
                    None => Err(failed(format!(
                        "the page answered `same: {revision}` to a revision this backend does not hold"
                    ))),
                };
            }
        };
        let (main, main_loader) = self
            .main_frame()
            .cloned()
            .ok_or_else(|| failed("the page has no main frame"))?;
        self.with_closed_roots(&main, &main_loader, &opts, &mut scan)
            .await?;
        let entered = self
            .enter_frames(&mut scan, (&main, &main_loader), &opts)
            .await?;
        if let Some(max) = auto {
            if scan.opaque_frames > 0 && scan.elements <= max {
                return Ok(None);
            }
        }
        self.learned_passwords(std::mem::take(&mut scan.passwords.0));
        // A scan that saw every rendered element is the whole page (`auto`).
        let left_out = match auto {
            Some(_) => (!scan.whole_page()).then_some(scan.left_out),
            None => Some(scan.left_out),
        };
        let (elements, viewport) = self.scan_elements(&scan, world, &entered);
        let read = ScanRead {
            elements,
            viewport,
            scoped: left_out,
            url: scan.url,
            canvases: Some(scan.canvases),
        };
        let keys = read
            .elements
            .iter()
            .map(|e| match self.ids.resolve(&e.id) {
                Some((_, NodeHandle::Scan { key, .. })) => Some(*key),
                _ => None,
            })
            .collect();
        let watch = quiet
            .filter(|_| scan.watched)
            .map(|t| Watch::new(t, opts.clone()));
        self.last_scan = Some(LastScan {
            world,
            revision: scan.revision,
            read: read.clone(),
            keys,
            asked,
            watch,
        });
        Ok(Some(read))
    }

    /// Waits (at most [`PICTURE_WAIT`]) for the pictures the last scan found on their way:
    /// an icon drawn by style has no box until its image arrives. The page waits for each
    /// picture once per document, so a broken or endless one costs this once.
    async fn await_pictures(&mut self, world: ExecutionContextId) {
        let expression = format!("__arc.pictures({})", PICTURE_WAIT.as_millis());
        let call = self.worlds.eval_in::<bool>(&self.page, world, &expression);
        match tokio::time::timeout(PICTURE_WAIT + PICTURE_SLACK, call).await {
            Ok(Ok(all)) => tracing::debug!(all, "waited for pictures on their way"),
            Ok(Err(e)) => tracing::debug!("waiting for pictures: {e}"),
            Err(_) => tracing::debug!("waiting for pictures: no answer"),
        }
    }

    /// The page's frames (main first), remembered with their documents.
    async fn refresh_frames(&mut self) -> Result<Vec<page::Frame>, BackendError> {
        let tree = self
            .page
            .call(page::GetFrameTree {})
            .await
            .map_err(failed)?;
        let frames: Vec<page::Frame> = tree.frame_tree.frames().into_iter().cloned().collect();
        self.frames = frames
            .iter()
            .map(|f| (f.id.clone(), f.loader_id.clone()))
            .collect();
        Ok(frames)
    }

    /// The scan of the main frame's document, and the world it ran in. One evaluate while
    /// the world of the last observation lives (it dies with its document, so a reply
    /// proves the document — and the loader remembered for it — is still the one shown);
    /// else the frame tree is read again and a world made in the new document.
    async fn scan_live(
        &mut self,
        opts: &ScanOptions,
    ) -> Result<(Scanned, ExecutionContextId), BackendError> {
        if let Some((frame, loader)) = self.main_frame().cloned() {
            if let Some(ctx) = self.worlds.known(&frame, &loader) {
                let since = self.last_scan.as_ref().filter(|l| l.world == ctx);
                let opts = ScanOptions {
                    since: since.map(|l| l.revision),
                    ..opts.clone()
                };
                match scan_in(&self.page, &self.worlds, ctx, &frame, &opts).await {
                    Ok(scan) => return Ok((scan, ctx)),
                    Err(e) if is_lost_world(&e) => {
                        tracing::debug!("the last observation's document is gone: {e}")
                    }
                    Err(e) => return Err(failed(e)),
                }
            }
        }
        let frames = self.refresh_frames().await?;
        let main = &frames[0];
        let (scan, world) = self.scan_main(&main.id, &main.loader_id, opts).await?;
        Ok((Scanned::Fresh(scan), world))
    }

    /// Every frame's accessibility tree and the DOM snapshot, fetched concurrently.
    async fn read_full(
        &mut self,
        frames: &[page::Frame],
    ) -> Result<(Vec<Element>, Bounds, Option<usize>), BackendError> {
        let ax_calls = frames.iter().map(|f| {
            self.page.call(accessibility::GetFullAxTree {
                depth: None,
                frame_id: Some(f.id.clone()),
            })
        });
        let (trees, snap, metrics) = tokio::join!(
            join_all(ax_calls),
            self.page.call(Layout::request()),
            self.page.call(page::GetLayoutMetrics {}),
        );
        let layout = Layout::build(&snap.map_err(failed)?);
        self.learned_passwords(layout.password_values());
        let metrics = metrics.map_err(failed)?;
        let mut per_frame = Vec::with_capacity(frames.len());
        for (f, t) in frames.iter().zip(trees) {
            match t {
                Ok(t) => per_frame.push(FrameNodes {
                    frame: f.id.clone(),
                    nodes: t.nodes,
                }),
                // A frame that went away mid-read is simply not shown.
                Err(e) if !per_frame.is_empty() => {
                    tracing::debug!(frame = %f.id, "frame tree unavailable: {e}")
                }
                Err(e) => return Err(failed(e)),
            }
        }
        let raw = build_tree(&per_frame, &layout);
        let loaders: HashMap<FrameId, LoaderId> = self.frames.iter().cloned().collect();
        let elements = self.prune(&raw, |h| {
            loaders.get(h.frame()).cloned().unwrap_or_default()
        });
        let vp = metrics.css_layout_viewport;
        Ok((
            elements,
            Bounds {
                x: 0.0,
                y: 0.0,
                width: vp.client_width,
                height: vp.client_height,
            },
            None,
        ))
    }

    /// What is on screen (± half a viewport), the focused element and open dialogs, from
    /// one scan in the isolated world: ~6 ms on the std Vec docs page where the whole
    /// accessibility tree takes ~1.3 s.
    async fn scan_main(
        &mut self,
        frame: &FrameId,
        loader: &LoaderId,
        opts: &ScanOptions,
    ) -> Result<(ScanResult, ExecutionContextId), BackendError> {
        let world = self
            .worlds
            .context(&self.page, frame, loader)
            .await
            .map_err(failed)?;
        let result = scan(&self.page, &mut self.worlds, frame, loader, opts)
            .await
            .map_err(failed)?;
        Ok((result, world))
    }

    /// A scan's tree as elements, their ids registered under the scanning world (the
    /// main frame's, or that of the frame entered apart that holds them).
    fn scan_elements(
        &mut self,
        result: &ScanResult,
        world: ExecutionContextId,
        entered: &[(FrameId, LoaderId)],
    ) -> (Vec<Element>, Bounds) {
        let loader = self
            .main_frame()
            .map(|(_, l)| l.clone())
            .unwrap_or_default();
        let registered = Origin::scan_loader(&loader, world);
        let elements = self.prune(&result.tree, |h| {
            entered
                .iter()
                .find(|(f, _)| f == h.frame())
                .map(|(_, l)| l.clone())
                .unwrap_or_else(|| registered.clone())
        });
        (elements, result.viewport)
    }

    /// Prunes a raw tree into elements, registering ids under each handle's document,
    /// and forgets the ids of documents no longer shown.
    fn prune(
        &mut self,
        raw: &RawTree,
        loader_of: impl Fn(&NodeHandle) -> LoaderId,
    ) -> Vec<Element> {
        let ids = &mut self.ids;
        let mut live: Vec<LoaderId> = vec![LoaderId(POPUPS.into())];
        let elements = Pruner::new(raw, |h| {
            let loader = loader_of(h);
            if !live.contains(&loader) {
                live.push(loader.clone());
            }
            ids.id_for(&loader, h)
        })
        .run();
        let live: Vec<&LoaderId> = live.iter().collect();
        self.ids.retain_loaders(&live);
        elements
    }

    /// Tabs the page opened, as elements a policy can switch to.
    pub(super) fn popup_elements(&mut self) -> Vec<Element> {
        let popups = self.shared.lock().popups.clone();
        let loader = LoaderId(POPUPS.into());
        popups
            .into_iter()
            .map(|p| {
                let handle = NodeHandle::Scan {
                    frame: FrameId(p.target_id.0.clone()),
                    key: 0,
                };
                let mut e = Element::new(
                    self.ids.id_for(&loader, &handle),
                    Role::Tab,
                    tab_label(&p.title, &p.url),
                );
                e.actions = ActionSet::from([ActionKind::Click]);
                e.source = Source::Cdp;
                e.facts.opened_tab = true;
                e.facts.extra.insert("url".into(), p.url.into());
                e
            })
            .collect()
    }

    /// Whether the action's targets still match what was observed.
    pub(super) async fn fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        let dialog = self.shared.lock().dialog.clone();
        if dialog.as_ref().map(|d| d.serial) != snapshot.facts.dialog {
            return Ok(false);
        }
        if dialog.is_none() && action.target().is_none() {
            // Untargeted actions act on the page as observed: not after a navigation.
            let url = snapshot.url().unwrap_or("");
            return Ok(self.current_url().await? == url);
        }
        let targets = [
            (action.target(), action.target_guard.as_ref()),
            (
                action.action.secondary_target(),
                action.secondary_target_guard.as_ref(),
            ),
        ];
        for (id, guard) in targets {
            let (Some(id), Some(guard)) = (id, guard) else {
                continue;
            };
            if self.reread_guard(id).await?.as_ref() != Some(guard) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The guard of one element as it is now (`None`: gone).
    async fn reread_guard(
        &mut self,
        id: &ElementId,
    ) -> Result<Option<arc_core::Guard>, BackendError> {
        if self.canvas.owns(id) {
            return self.reread_canvas_guard(id).await;
        }
        let Some((loader, handle)) = self.ids.resolve(id).map(|(l, h)| (l.clone(), h.clone()))
        else {
            return Ok(None);
        };
        match (Origin::of(&loader), &handle) {
            (Origin::Page(loader), NodeHandle::Backend { frame, node }) => {
                if !self.is_current(frame, &loader) {
                    return Ok(None);
                }
                let read = self
                    .page
                    .call(accessibility::GetPartialAxTree {
                        node: Some((*node).into()),
                        fetch_relatives: Some(false),
                    })
                    .await;
                let nodes = match read {
                    Ok(r) => r.nodes,
                    Err(crate::CdpError::Protocol { .. }) => return Ok(None),
                    Err(e) => return Err(failed(e)),
                };
                let n = nodes
                    .iter()
                    .find(|n| n.backend_dom_node_id == Some(*node))
                    .or(nodes.first());
                Ok(n.map(|n| raw_from_ax(n, frame, None).guard))
            }
            (Origin::Scan { loader, world }, NodeHandle::Scan { frame, .. }) => {
                if !self.is_current_world(frame, &loader, world).await? {
                    return Ok(None);
                }
                let page = self.session_of(frame).clone();
                super::scan::reread_guard(&page, &mut self.worlds, &handle, &loader)
                    .await
                    .map_err(failed)
            }
            // Dialog parts and tabs: the element is what it was while its dialog or tab lives.
            (Origin::Dialog | Origin::Popups, _) => Ok(self.synthetic_guard(&loader, &handle)),
            _ => Ok(None),
        }
    }

    /// Whether `frame` still shows the document `loader` named.
    pub(super) fn is_current(&self, frame: &FrameId, loader: &LoaderId) -> bool {
        self.frames.iter().any(|(f, l)| f == frame && l == loader)
            || self.entered.shows(frame, loader)
    }

    /// Whether a scanned node's world is still the frame's live world.
    pub(super) async fn is_current_world(
        &mut self,
        frame: &FrameId,
        loader: &LoaderId,
        world: crate::cdp::ExecutionContextId,
    ) -> Result<bool, BackendError> {
        if !self.is_current(frame, loader) {
            return Ok(false);
        }
        let page = self.session_of(frame).clone();
        let live = self
            .worlds
            .context(&page, frame, loader)
            .await
            .map_err(failed)?;
        Ok(live == world)
    }

    async fn current_url(&mut self) -> Result<String, BackendError> {
        let tree = self
            .page
            .call(page::GetFrameTree {})
            .await
            .map_err(failed)?;
        Ok(tree.frame_tree.frame.url)
    }
}

fn tab_label(title: &str, url: &str) -> String {
    if title.is_empty() || title == url {
        format!("New tab: {url}")
    } else {
        format!("New tab: {title} ({url})")
    }
}
