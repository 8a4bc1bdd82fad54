//! `DesktopBackend`: arc-core's `Backend` for one application on the accessibility bus.

use crate::apps::{self, AppInfo, AppSelector};
use crate::dbus::CallError;
use crate::error::DesktopError;
use crate::events::EventCounter;
use crate::ids::{Ids, ObjRef};
use crate::input::background as bg;
use crate::input::xtest::{Button, XInput};
use crate::ocr::DesktopOcr;
use crate::offers::Offer;
use crate::perceive::{perceive, ActionNameCache, Bound};
use crate::tree::{self, TreeSource};
use arc_core::action::{Action, ActionKind, ScrollDirection};
use arc_core::backend::{Backend, Executed, SettleSample};
use arc_core::element::{Bounds, ElementId};
use arc_core::error::{BackendError, InvalidDecision};
use arc_core::executable::ExecutableAction;
use arc_core::facts::ObservationScope;
use arc_core::key::Key;
use arc_core::scalar::Scalar;
use arc_core::snapshot::Snapshot;
use arc_vision::OcrMode;
use async_trait::async_trait;
use atspi::{AccessibilityConnection, State};
use std::collections::HashMap;
use std::time::Duration;

/// How a session binds its application.
#[derive(Clone, Debug)]
pub struct DesktopOptions {
    pub app: AppSelector,
    /// How long to wait for the app to appear on the bus.
    pub find_timeout: Duration,
    pub tree: TreeSource,
    /// The D-Bus session bus address; `None`: `$DBUS_SESSION_BUS_ADDRESS`.
    pub session_bus: Option<String>,
    /// The X display for physical input and screenshots; `None`: `$DISPLAY`.
    pub display: Option<String>,
    /// When OCR'd text joins the accessible elements.
    pub ocr: OcrMode,
    /// Bind one top-level window of the app (its object), not all of them.
    pub window: Option<ObjRef>,
}

impl DesktopOptions {
    pub fn new(app: AppSelector) -> Self {
        DesktopOptions {
            app,
            find_timeout: Duration::from_secs(10),
            tree: TreeSource::Auto,
            session_bus: None,
            display: None,
            ocr: OcrMode::Auto,
            window: None,
        }
    }
}

/// Wheel clicks one SCROLL sends.
const WHEEL_CLICKS: u8 = 3;

pub struct DesktopBackend {
    a11y: AccessibilityConnection,
    app: AppInfo,
    source: TreeSource,
    ids: Ids,
    names: ActionNameCache,
    bound: HashMap<String, Bound>,
    bounds: HashMap<String, Bounds>,
    window_bounds: Option<Bounds>,
    events: EventCounter,
    x: Option<XInput>,
    display: Option<String>,
    ocr: DesktopOcr,
    /// XTest input was used since the current action began (`Executed::physical_input`).
    pub(crate) physical: bool,
    window: Option<ObjRef>,
}

/// Connects to the accessibility bus of the session bus at `session` (default: the
/// environment's), asking `org.a11y.Bus` for its address (D-Bus activation starts it).
pub async fn connect_bus(session: Option<&str>) -> Result<AccessibilityConnection, DesktopError> {
    let connect = async {
        let Some(session) = session else {
            return AccessibilityConnection::new()
                .await
                .map_err(|e| DesktopError::NoBus(e.to_string()));
        };
        let no_bus = |e: &dyn std::fmt::Display| DesktopError::NoBus(format!("{session}: {e}"));
        let bus = zbus::connection::Builder::address(session)
            .map_err(|e| no_bus(&e))?
            .build()
            .await
            .map_err(|e| no_bus(&e))?;
        let reply = bus
            .call_method(
                Some("org.a11y.Bus"),
                "/org/a11y/bus",
                Some("org.a11y.Bus"),
                "GetAddress",
                &(),
            )
            .await
            .map_err(|e| no_bus(&e))?;
        let addr: String = reply.body().deserialize().map_err(|e| no_bus(&e))?;
        let addr: zbus::Address = addr.as_str().try_into().map_err(|e| no_bus(&e))?;
        AccessibilityConnection::from_address(addr)
            .await
            .map_err(|e| no_bus(&e))
    };
    tokio::time::timeout(Duration::from_secs(5), connect)
        .await
        .map_err(|_| DesktopError::NoBus("no answer within 5 s".into()))?
}

impl DesktopBackend {
    pub async fn connect(opts: DesktopOptions) -> Result<DesktopBackend, DesktopError> {
        let a11y = connect_bus(opts.session_bus.as_deref()).await?;
        let app = apps::find(a11y.connection(), &opts.app, opts.find_timeout).await?;
        let events = EventCounter::start(&a11y, app.root.bus.clone())
            .await
            .map_err(|e| DesktopError::NoBus(format!("registering for events: {e}")))?;
        Ok(DesktopBackend {
            a11y,
            app,
            source: opts.tree,
            ids: Ids::default(),
            names: ActionNameCache::new(),
            bound: HashMap::new(),
            bounds: HashMap::new(),
            window_bounds: None,
            events,
            x: None,
            display: opts.display,
            physical: false,
            ocr: DesktopOcr::new(opts.ocr),
            window: opts.window,
        })
    }

    /// The window's on-screen box as the last observation measured it.
    pub(crate) fn window_bounds(&self) -> Option<Bounds> {
        self.window_bounds
    }

    /// The X display for input and screenshots (`None`: `$DISPLAY`).
    pub(crate) fn display(&self) -> Option<&str> {
        self.display.as_deref()
    }

    pub fn app(&self) -> &AppInfo {
        &self.app
    }

    fn conn(&self) -> &zbus::Connection {
        self.a11y.connection()
    }

    fn lost(&self, e: CallError) -> BackendError {
        if e.is_gone() {
            BackendError::failed(format!(
                "application {:?} (pid {}) exited or left the accessibility bus: {e}",
                self.app.name,
                self.app.pid.map_or("unknown".into(), |p| p.to_string())
            ))
        } else {
            BackendError::failed(e)
        }
    }

    /// The top-level window this backend is bound to, when it is bound to one.
    pub fn window(&self) -> Option<&ObjRef> {
        self.window.as_ref()
    }

    pub(crate) fn window_box(&self) -> Option<Bounds> {
        self.window_bounds
    }

    /// The window's top-left on the screen (point input is relative to it).
    pub(crate) fn window_origin(&self) -> Result<(f64, f64), BackendError> {
        self.window_bounds.map(|b| (b.x, b.y)).ok_or_else(|| {
            BackendError::failed(format!(
                "{:?} has no window box; observe first",
                self.app.name
            ))
        })
    }

    pub(crate) fn x(&mut self) -> Result<&XInput, BackendError> {
        if self.x.is_none() {
            self.x = Some(XInput::connect(self.display.as_deref()).map_err(BackendError::failed)?);
        }
        self.physical = true;
        Ok(self.x.as_ref().expect("just set"))
    }

    fn bound(&self, id: &ElementId) -> Result<&Bound, BackendError> {
        self.bound
            .get(id.as_str())
            .ok_or_else(|| BackendError::stale(Some(id), "not in the last observation"))
    }

    fn centre(&self, id: &ElementId) -> Result<(i32, i32), BackendError> {
        let b = self.bounds.get(id.as_str()).ok_or_else(|| {
            InvalidDecision::new("target_id", format!("{id} has no on-screen box"))
        })?;
        let (x, y) = b.center();
        Ok((x.round() as i32, y.round() as i32))
    }

    /// The centre of `id`'s on-screen box, after checking that the pointer would press
    /// `id` there (else stale: nothing is pressed).
    async fn aim(&mut self, id: &ElementId) -> Result<(i32, i32), BackendError> {
        let at = self.centre(id)?;
        if self.ocr.owns(id.as_str()) {
            // Pixels, not an object: the freshness check re-read them (same text box
            // in the same place); the point must still be inside the window.
            let inside = self.window_bounds.is_some_and(|w| {
                let (x, y) = (at.0 as f64, at.1 as f64);
                x >= w.x && y >= w.y && x < w.x + w.width && y < w.y + w.height
            });
            return if inside {
                // Another app's window may still lie over the drawn text.
                self.uncovered(at).map(|()| at)
            } else {
                Err(BackendError::stale(
                    Some(id),
                    format!("{at:?} is outside the window"),
                ))
            };
        }
        let b = self.bound(id)?;
        match bg::hits(self.conn(), &b.obj, &b.ancestors, at).await {
            // Within the app it hits; across apps the X stacking order decides.
            Ok(true) => self.uncovered(at).map(|()| at).map_err(|e| match e {
                BackendError::Stale { detail, .. } => BackendError::stale(Some(id), detail),
                e => e,
            }),
            Ok(false) => Err(BackendError::stale(
                Some(id),
                format!("something else is under its centre {at:?}"),
            )),
            Err(e) if e.is_gone() => Err(BackendError::stale(Some(id), "the object is gone")),
            Err(e) => Err(self.lost(e)),
        }
    }

    fn window_centre(&self) -> Result<(i32, i32), BackendError> {
        let b = self.window_bounds.ok_or_else(|| {
            BackendError::failed(format!("{:?} has no window box", self.app.name))
        })?;
        let (x, y) = b.center();
        Ok((x.round() as i32, y.round() as i32))
    }

    /// Re-reads the target just before mutating it: gone, hidden or disabled is stale.
    async fn recheck(&self, id: &ElementId) -> Result<(), BackendError> {
        if self.ocr.owns(id.as_str()) {
            return Ok(());
        }
        let obj = self.bound(id)?.obj.clone();
        match bg::states(self.conn(), &obj).await {
            Err(e) if e.is_gone() => Err(BackendError::stale(Some(id), "the object is gone")),
            Err(e) => Err(self.lost(e)),
            Ok(s) if s.contains(State::Defunct) => {
                Err(BackendError::stale(Some(id), "the object is defunct"))
            }
            Ok(s) if !s.contains(State::Showing) => {
                Err(BackendError::stale(Some(id), "no longer showing"))
            }
            Ok(s) if !(s.contains(State::Enabled) || s.contains(State::Sensitive)) => {
                Err(BackendError::stale(Some(id), "no longer enabled"))
            }
            Ok(_) => Ok(()),
        }
    }

    async fn click(&mut self, id: &ElementId) -> Result<(), BackendError> {
        if self.ocr.owns(id.as_str()) {
            let (x, y) = self.aim(id).await?;
            return self
                .x()?
                .click(x, y, Button::Left, 1)
                .map_err(BackendError::failed);
        }
        let b = self.bound(id)?.clone();
        let ok = match b.offers.click {
            Some(Offer::Action(i)) => bg::do_action(self.conn(), &b.obj, i).await,
            Some(Offer::Focus) => bg::grab_focus(self.conn(), &b.obj).await,
            Some(Offer::SelectInParent) => {
                let (parent, index) = b.parent.clone().ok_or_else(|| {
                    BackendError::stale(Some(id), "its selection container is gone")
                })?;
                bg::select_child(self.conn(), &parent, index).await
            }
            Some(Offer::Pointer) => {
                let (x, y) = self.aim(id).await?;
                self.x()?
                    .click(x, y, Button::Left, 1)
                    .map_err(BackendError::failed)?;
                return Ok(());
            }
            None => {
                return Err(BackendError::Unsupported {
                    kind: ActionKind::Click,
                    backend: "atspi",
                })
            }
        };
        self.refused(id, "CLICK", ok)
    }

    /// Presses `key` on the window (XTest), to whatever has its keyboard focus.
    fn key_on_window(&mut self, key: Key) -> Result<(), BackendError> {
        let (x, y) = self.window_centre()?;
        // Keys go to the X window focused here: it must be ours.
        self.uncovered((x, y))?;
        let xi = self.x()?;
        xi.focus_window_at(x, y).map_err(BackendError::failed)?;
        xi.key(key).map_err(BackendError::failed)
    }

    /// Presses `key` in the field `id` (a TYPE_TEXT's submit key): the field takes the
    /// keyboard focus through AT-SPI (a field only OCR sees has it from the click that
    /// typed into it), then the key goes to the window.
    async fn key_in(&mut self, id: &ElementId, key: Key) -> Result<(), BackendError> {
        if !self.ocr.owns(id.as_str()) {
            let obj = self.bound(id)?.obj.clone();
            let ok = bg::grab_focus(self.conn(), &obj).await;
            self.refused(id, "the focus before the key", ok)?;
        }
        self.key_on_window(key)
    }

    fn refused(
        &self,
        id: &ElementId,
        what: &str,
        ok: Result<bool, CallError>,
    ) -> Result<(), BackendError> {
        match ok {
            Ok(true) => Ok(()),
            Ok(false) => Err(BackendError::failed(format!(
                "{id}: the application refused {what}"
            ))),
            Err(e) if e.is_gone() => Err(BackendError::stale(Some(id), "the object is gone")),
            Err(e) => Err(self.lost(e)),
        }
    }

    async fn set_value(
        &mut self,
        id: &ElementId,
        text: &str,
        typing: bool,
    ) -> Result<(), BackendError> {
        if typing && self.ocr.owns(id.as_str()) {
            // A field only OCR sees: focus it with a click, then type as keys.
            let (x, y) = self.aim(id).await?;
            let xi = self.x()?;
            xi.click(x, y, Button::Left, 1)
                .map_err(BackendError::failed)?;
            return xi.type_text(text).map_err(BackendError::failed);
        }
        let b = self.bound(id)?.clone();
        if b.offers.editable {
            let ok = if typing {
                bg::type_over(self.conn(), &b.obj, text).await
            } else {
                bg::set_text(self.conn(), &b.obj, text).await
            };
            return self.refused(id, "the text edit", ok);
        }
        if b.offers.value && !typing {
            let v: f64 = text.trim().parse().map_err(|_| {
                InvalidDecision::new("input_key", format!("{id} takes a number, not {text:?}"))
            })?;
            if !v.is_finite() {
                return Err(InvalidDecision::new("input_key", format!("{v} is not finite")).into());
            }
            return bg::set_value(self.conn(), &b.obj, v)
                .await
                .map_err(|e| self.lost(e));
        }
        Err(BackendError::Unsupported {
            kind: if typing {
                ActionKind::TypeText
            } else {
                ActionKind::SetValue
            },
            backend: "atspi",
        })
    }

    async fn select_option(&mut self, id: &ElementId, wanted: &str) -> Result<(), BackendError> {
        let b = self.bound(id)?.clone();
        // Read live: the cache orders a closed popup's items arbitrarily.
        let options = bg::combo_options(self.conn(), &b.obj)
            .await
            .map_err(|e| self.lost(e))?;
        let index = options
            .iter()
            .position(|o| o == wanted)
            .or_else(|| {
                options
                    .iter()
                    .position(|o| o.trim().eq_ignore_ascii_case(wanted.trim()))
            })
            .ok_or_else(|| {
                InvalidDecision::new(
                    "input_key",
                    format!("{id} has no option {wanted:?}; options: {options:?}"),
                )
            })?;
        let ok = bg::select_child(self.conn(), &b.obj, index as i32).await;
        self.refused(id, "SELECT_OPTION", ok)
    }

    /// Performs the action; `physical` says whether it took XTest input.
    async fn act(
        &mut self,
        _snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<(), BackendError> {
        if let Some(id) = action.action.target() {
            self.recheck(id).await?;
        }
        match &action.action {
            // No accessibility interface holds a key down: the pointer does, hit-tested,
            // with the modifier's key pressed around the click (XTest).
            Action::Click {
                target,
                modifier: Some(m),
            } => {
                let (x, y) = self.aim(target).await?;
                self.x()?
                    .click_with(x, y, Button::Left, 1, &[m.modifier()])
                    .map_err(BackendError::failed)
            }
            Action::Click { target, .. } => self.click(target).await,
            Action::DoubleClick { target } | Action::RightClick { target } => {
                let (x, y) = self.aim(target).await?;
                let (button, count) = match action.action {
                    Action::DoubleClick { .. } => (Button::Left, 2),
                    _ => (Button::Right, 1),
                };
                self.x()?
                    .click(x, y, button, count)
                    .map_err(BackendError::failed)
            }
            Action::Hover { target } => {
                let (x, y) = self.aim(target).await?;
                self.x()?.move_to(x, y).map_err(BackendError::failed)
            }
            Action::TypeText { target, submit, .. } => {
                self.set_value(target, &text_of(action), true).await?;
                match submit {
                    Some(key) => self.key_in(target, key.key()).await,
                    None => Ok(()),
                }
            }
            Action::SetValue { target, .. } => {
                self.set_value(target, &text_of(action), false).await
            }
            Action::SelectOption { target, .. } => {
                self.select_option(target, &text_of(action)).await
            }
            Action::PressKey { key } => self.key_on_window(*key),
            Action::Hotkey { chord } => {
                let (x, y) = self.window_centre()?;
                self.uncovered((x, y))?;
                let xi = self.x()?;
                xi.focus_window_at(x, y).map_err(BackendError::failed)?;
                xi.chord(chord).map_err(BackendError::failed)
            }
            Action::Scroll { direction, target } => {
                let (x, y) = match target {
                    Some(t) => self.centre(t)?,
                    None => self.window_centre()?,
                };
                let button = match direction {
                    ScrollDirection::Up => Button::WheelUp,
                    ScrollDirection::Down => Button::WheelDown,
                    ScrollDirection::Left => Button::WheelLeft,
                    ScrollDirection::Right => Button::WheelRight,
                };
                self.uncovered((x, y))?;
                self.x()?
                    .click(x, y, button, WHEEL_CLICKS)
                    .map_err(BackendError::failed)
            }
            Action::DragBy { target, dx, dy } => {
                let (x, y) = self.centre(target)?;
                let to = (x + dx.round() as i32, y + dy.round() as i32);
                self.uncovered((x, y))?;
                self.uncovered(to)?;
                self.x()?.drag((x, y), to).map_err(BackendError::failed)
            }
            Action::DragTo {
                target,
                destination,
            } => {
                let from = self.centre(target)?;
                let to = self.centre(destination)?;
                self.uncovered(from)?;
                self.uncovered(to)?;
                self.x()?.drag(from, to).map_err(BackendError::failed)
            }
            Action::Wait => Ok(()),
            // Neither is offered by a desktop element (`offers.rs`); the executor refuses
            // them before they reach here.
            Action::Navigate { .. } | Action::SelectText { .. } => Err(BackendError::Unsupported {
                kind: action.action.kind(),
                backend: "atspi",
            }),
        }
    }
}

fn text_of(action: &ExecutableAction) -> String {
    match &action.value {
        Some(Scalar::Text(s)) => s.clone(),
        Some(v) => v.as_text().into_owned(),
        None => String::new(),
    }
}

#[async_trait]
impl Backend for DesktopBackend {
    fn name(&self) -> &'static str {
        "atspi"
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        let conn = self.a11y.connection().clone();
        let raw = tree::read(&conn, &self.app.root, self.source)
            .await
            .map_err(|e| self.lost(e))?;
        let raw = match &self.window {
            Some(w) => crate::window::restrict(raw, w).ok_or_else(|| {
                BackendError::failed(format!(
                    "window {}{} of {:?} closed",
                    w.bus, w.path, self.app.name
                ))
            })?,
            None => raw,
        };
        if raw.roots.is_empty() {
            return Err(DesktopError::NoWindow {
                app: self.app.name.clone(),
            }
            .into());
        }
        let p = perceive(&conn, &raw, &mut self.ids, &mut self.names)
            .await
            .map_err(|e| self.lost(e))?;
        self.bounds = p.hit_boxes;
        self.bound = p.bound;
        self.window_bounds = p.window_bounds;
        let mut elements = p.elements;
        let ocr = self
            .ocr
            .elements(self.display.as_deref(), p.window_bounds, &elements)
            .await?;
        for e in &ocr {
            if let Some(b) = e.bounds {
                self.bounds.insert(e.id.0.clone(), b);
            }
        }
        elements.extend(ocr);
        let mut snap = Snapshot::new(self.app.name.clone(), p.window, elements);
        snap.viewport = p.window_bounds;
        if let Some(pid) = self.app.pid {
            snap.facts.extra.insert("pid".into(), pid.into());
        }
        if raw.truncated {
            snap.facts
                .extra
                .insert("truncated_walk".into(), true.into());
        }
        snap.facts.scope = Some(if raw.left_out > 0 {
            ObservationScope::Viewport
        } else {
            ObservationScope::Full
        });
        if raw.left_out > 0 {
            snap.facts.left_out_elements = Some(raw.left_out as u64);
        }
        Ok(snap)
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        let targets = [action.action.target(), action.action.secondary_target()];
        if targets.iter().all(Option::is_none) {
            return Ok(true);
        }
        // A full re-read: the guard covers name, value, states and box, and the name of a
        // list row comes from its children.
        let now = self.observe().await?;
        for (id, guard) in [
            (action.action.target(), &action.target_guard),
            (
                action.action.secondary_target(),
                &action.secondary_target_guard,
            ),
        ] {
            let Some(id) = id else { continue };
            let Some(el) = now.element(id.as_str()) else {
                return Ok(false);
            };
            let expected = match guard {
                Some(g) => g.clone(),
                None => match snapshot.element(id.as_str()) {
                    Some(old) => old.effective_guard(),
                    None => return Ok(false),
                },
            };
            if el.effective_guard() != expected {
                return Ok(false);
            }
        }
        Ok(true)
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        self.physical = false;
        self.act(snapshot, action).await?;
        Ok(Executed {
            physical_input: std::mem::take(&mut self.physical),
            ..Executed::default()
        })
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        Ok(SettleSample {
            fingerprint: self.events.count(),
            busy: self.events.busy(),
        })
    }
}
