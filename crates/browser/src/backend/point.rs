//! Input at viewport points and at the focused element, for agents that aim by
//! coordinates (a screenshot) rather than by element: the same trusted `Input.*` events
//! as element actions (`input.rs`), plus the page reads the host's gates need — what a
//! press at a point would reach, and whether the focused element takes typed text.

use super::raw::NodeHandle;
use super::{failed, BrowserBackend};
use crate::cdp::methods::dom::GetNodeForLocation;
use crate::cdp::methods::input::{DispatchMouseEvent, InsertText, MouseButton, MouseEventType};
use arc_core::key::Modifier;
use arc_core::{BackendError, Pressable};
use serde::Deserialize;

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

    /// What a press at viewport point (x, y) would press: the element there, the
    /// control it acts through, the control a label there activates; empty over nothing
    /// (or while a dialog is open, when the page answers nothing). Arms the page's watch
    /// of where the next press lands (`input_at` answers it).
    pub async fn pressable_at(&mut self, x: f64, y: f64) -> Result<Vec<Pressable>, BackendError> {
        if let Some(found) = self.hit_node_at(x, y).await {
            return Ok(found);
        }
        self.page_read(&format!("__arc.pointPressable({x}, {y})"))
            .await
            .map(Option::unwrap_or_default)
    }

    /// What the renderer's own hit test finds at (x, y), read in our world of the top
    /// document (a same-origin frame's nodes are reachable there): the node inside a
    /// closed shadow root or a same-origin frame that the page's `elementFromPoint` stops
    /// short of (it answers the shadow host, the iframe). None when the hit test or the
    /// read fails (a cross-origin frame's node): the page's own answer is used then.
    async fn hit_node_at(&mut self, x: f64, y: f64) -> Option<Vec<Pressable>> {
        if self.shared.lock().dialog.is_some() {
            return None;
        }
        let (main, loader) = self.main_frame().cloned()?;
        let hit = self
            .page
            .call(GetNodeForLocation {
                x: x.round() as i64,
                y: y.round() as i64,
                include_user_agent_shadow_dom: Some(false),
                ignore_pointer_events_none: Some(true),
            })
            .await
            .ok()?;
        let handle = NodeHandle::Backend {
            frame: main,
            node: hit.backend_node_id,
        };
        let object = self
            .worlds
            .resolve(&self.page, &handle, &loader)
            .await
            .ok()??;
        self.worlds
            .call_on(
                &self.page,
                &object,
                "function() { return __arc.pressedAtNode(this); }",
                vec![],
            )
            .await
            .ok()
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
