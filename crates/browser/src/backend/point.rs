//! Input at viewport points and at the focused element, for agents that aim by
//! coordinates (a screenshot) rather than by element: the same trusted `Input.*` events
//! as element actions (`input.rs`), plus the page reads the host's gates need — what a
//! press at a point would reach, and whether the focused element takes typed text.

use super::doc::{frame_held, Doc, MAX_FRAME_DEPTH};
use super::{failed, BrowserBackend};
use crate::cdp::methods::dom::GetNodeForLocation;
use crate::cdp::methods::input::{DispatchMouseEvent, InsertText, MouseButton, MouseEventType};
use arc_core::key::Modifier;
use arc_core::{BackendError, Pressable};
use serde::Deserialize;

/// Arms the landing watch on the node and says what pressing it presses.
const PRESSED_AT: &str = "function() { return __arc.pressedAtNode(this); }";
/// What pressing a frame element presses, without arming the watch (the press goes on
/// into its document).
const PRESSED_BY: &str = "function() { return __arc.pressedByNode(this); }";

/// Which mouse button a point click uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointButton {
    Left,
    Right,
}

/// One input at viewport coordinates (CSS pixels of the top document) or at the focus.
#[derive(Clone, Debug, PartialEq)]
pub enum PointInput {
    /// `count` clicks (1–3) at (x, y), with `modifiers` held (the events' `shiftKey`,
    /// `ctrlKey`, `altKey`, `metaKey`).
    Click {
        x: f64,
        y: f64,
        button: PointButton,
        count: u8,
        modifiers: Vec<Modifier>,
    },
    /// The wheel turned at (x, y) by (dx, dy) pixels (positive dy scrolls down).
    Wheel { x: f64, y: f64, dx: f64, dy: f64 },
    /// Left button down at the first point, through the others, up at the last.
    Drag { points: Vec<(f64, f64)> },
    /// One trusted insertion where the focus is.
    TypeFocused { text: String },
}

/// CDP's modifier bit mask (Alt 1, Ctrl 2, Meta 4, Shift 8); `Mod` is Ctrl on Linux.
fn cdp_modifiers(modifiers: &[Modifier]) -> i64 {
    modifiers.iter().fold(0, |acc, m| {
        acc | match m {
            Modifier::Alt => 1,
            Modifier::Ctrl | Modifier::Mod => 2,
            Modifier::Meta => 4,
            Modifier::Shift => 8,
        }
    })
}

/// Where a point click's press went when the page says it was not the element under the
/// point when the gate judged it (`pressable_at` arms the watch): an overlay that
/// appeared in between took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointLanding {
    /// What received the press (or its release), with everything it acts through.
    pub element: Pressable,
    /// The press began on the judged element and only the release went elsewhere.
    pub began: bool,
}

/// The focused element, as typing would find it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FocusedEntry {
    /// Typed text would enter it (a text field, a textarea, an editable region).
    pub entry: bool,
    /// How a person would point at it (`input#email`); empty when nothing has focus.
    pub element: String,
    #[serde(default)]
    pub password: bool,
}

impl BrowserBackend {
    /// Dispatches one point input, and says where a click's press went when the page
    /// says it was not what the point's gate judged. Nothing is aimed or re-checked here:
    /// the caller has checked the point against the viewport and the gates.
    pub async fn input_at(
        &mut self,
        input: &PointInput,
    ) -> Result<Option<PointLanding>, BackendError> {
        self.shared.lock().action_serial += 1;
        if self.shared.lock().dialog.is_some() {
            return Err(BackendError::stale(
                None,
                "a JavaScript dialog is open; answer it first",
            ));
        }
        match input {
            PointInput::Click {
                x,
                y,
                button,
                count,
                modifiers,
            } => {
                let (button, held) = match button {
                    PointButton::Left => (MouseButton::Left, 1),
                    PointButton::Right => (MouseButton::Right, 2),
                };
                let flags = cdp_modifiers(modifiers);
                let event = |kind, button, clicks, buttons| {
                    let mut e = DispatchMouseEvent::new(kind, *x, *y);
                    e.button = Some(button);
                    e.click_count = Some(clicks);
                    e.buttons = Some(buttons);
                    e.modifiers = (flags != 0).then_some(flags);
                    e
                };
                self.input(event(MouseEventType::MouseMoved, MouseButton::None, 0, 0))
                    .await?;
                for n in 1..=i64::from(*count) {
                    self.input(event(MouseEventType::MousePressed, button, n, held))
                        .await?;
                    self.input(event(MouseEventType::MouseReleased, button, n, 0))
                        .await?;
                }
                Ok(self.landing_at().await)
            }
            PointInput::Wheel { x, y, dx, dy } => {
                self.wheel_at(*x, *y, *dx, *dy).await.map(|()| None)
            }
            PointInput::Drag { points } => self.drag_along(points).await.map(|()| None),
            PointInput::TypeFocused { text } => self
                .input(InsertText { text: text.clone() })
                .await
                .map(|()| None),
        }
    }

    /// What a press at viewport point (x, y) would press: the element there (in whatever
    /// frame or closed root), the control it acts through, the control a label there
    /// activates, and on a nameless picture the words drawn near the point; empty over
    /// nothing (or while a dialog is open, when the page answers nothing). Arms the watch
    /// of where the next press lands (`input_at` answers it).
    pub async fn pressable_at(&mut self, x: f64, y: f64) -> Result<Vec<Pressable>, BackendError> {
        self.point_doc = None;
        let mut found = match self.hit_node_at(x, y).await {
            Some(found) => found,
            None => self
                .page_read(&format!("__arc.pointPressable({x}, {y})"))
                .await
                .map(Option::unwrap_or_default)?,
        };
        if let Some(drawn) = self.drawn_words_at(x, y, &found).await {
            found.push(drawn);
        }
        Ok(found)
    }

    /// What the renderer's own hit test finds at (x, y), and what pressing it presses:
    /// the node inside a closed shadow root or a frame, read in our world of the frame it
    /// belongs to — one of the page's own (same-origin, or cross-origin in the same
    /// renderer) — and, where the hit test stops at an `<iframe>` whose document lives in
    /// another renderer (a cross-site frame), the node that frame's own hit test finds at
    /// the point less the frame's offset, up to [`MAX_FRAME_DEPTH`] frames deep; each
    /// frame element passed on the way is judged too. The landing watch is armed in the
    /// document the press reaches. None when a read fails: the page's own answer
    /// (`pointPressable`) is used then.
    async fn hit_node_at(&mut self, x: f64, y: f64) -> Option<Vec<Pressable>> {
        if self.shared.lock().dialog.is_some() {
            return None;
        }
        let (main, loader) = self.main_frame().cloned()?;
        let mut doc = Doc::Own {
            frame: main.clone(),
            loader,
        };
        let (mut px, mut py) = (x, y);
        let mut passed: Vec<Pressable> = Vec::new();
        for depth in 0..=MAX_FRAME_DEPTH {
            let hit = self
                .doc_page(&doc)
                .call(GetNodeForLocation {
                    x: px.round() as i64,
                    y: py.round() as i64,
                    include_user_agent_shadow_dom: Some(false),
                    ignore_pointer_events_none: Some(true),
                })
                .await
                .ok()?;
            // A node of another frame of the page's own renderer: read in that frame.
            if matches!(&doc, Doc::Own { frame, .. } if *frame != hit.frame_id) {
                doc = Doc::Own {
                    loader: self.own_loader(&hit.frame_id).await?,
                    frame: hit.frame_id.clone(),
                };
            }
            let node = hit.backend_node_id;
            let object = self.doc_resolve(&mut doc, node).await.ok()??;
            let inner = match self.doc_describe(&doc, node.into()).await {
                Some(described) if depth < MAX_FRAME_DEPTH => frame_held(&described).cloned(),
                _ => None,
            };
            if let Some(inner) = inner {
                if let Some(next @ Doc::Remote(_)) = self.doc_of_frame(&inner).await {
                    let own: Vec<Pressable> = self
                        .doc_call_on(&doc, &object, PRESSED_BY, vec![])
                        .await
                        .ok()?;
                    let (ox, oy) = self.frame_origin(&doc, node).await?;
                    passed.extend(own);
                    (px, py) = (px - ox, py - oy);
                    doc = next;
                    continue;
                }
            }
            let mut found: Vec<Pressable> = self
                .doc_call_on(&doc, &object, PRESSED_AT, vec![])
                .await
                .ok()?;
            found.extend(passed);
            let main_world = matches!(&doc, Doc::Own { frame, .. } if *frame == main);
            self.point_doc = (!main_world).then_some(doc);
            return Some(found);
        }
        None
    }

    /// The focused element of the page, as typing would find it.
    pub async fn focused_entry(&mut self) -> Result<FocusedEntry, BackendError> {
        self.page_read("__arc.focusedEntry()")
            .await
            .map(Option::unwrap_or_default)
    }

    /// One helper call in the main frame's world; None when a dialog is open or there
    /// is no document yet.
    pub(super) async fn page_read<T: serde::de::DeserializeOwned>(
        &mut self,
        expression: &str,
    ) -> Result<Option<T>, BackendError> {
        if self.shared.lock().dialog.is_some() {
            return Ok(None);
        }
        let Some((frame, loader)) = self.main_frame().cloned() else {
            return Ok(None);
        };
        self.worlds
            .eval(&self.page, &frame, &loader, expression)
            .await
            .map(Some)
            .map_err(failed)
    }
}
