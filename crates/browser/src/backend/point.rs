//! Input at viewport points and at the focused element, for agents that aim by
//! coordinates (a screenshot) rather than by element: the same trusted `Input.*` events
//! as element actions (`input.rs`), plus the page reads the host's gates need — what a
//! press at a point would reach, and whether the focused element takes typed text.

use super::{failed, BrowserBackend};
use crate::cdp::methods::input::{InsertText, MouseButton};
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
    /// `count` clicks (1–3) at (x, y).
    Click {
        x: f64,
        y: f64,
        button: PointButton,
        count: u8,
    },
    /// The wheel turned at (x, y) by (dx, dy) pixels (positive dy scrolls down).
    Wheel { x: f64, y: f64, dx: f64, dy: f64 },
    /// Left button down at the first point, through the others, up at the last.
    Drag { points: Vec<(f64, f64)> },
    /// One trusted insertion where the focus is.
    TypeFocused { text: String },
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
    /// Dispatches one point input. Nothing is aimed or re-checked here: the caller has
    /// checked the point against the viewport and the gates.
    pub async fn input_at(&mut self, input: &PointInput) -> Result<(), BackendError> {
        self.shared.lock().action_serial += 1;
        self.landed = None;
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
            } => {
                let button = match button {
                    PointButton::Left => MouseButton::Left,
                    PointButton::Right => MouseButton::Right,
                };
                self.mouse(
                    crate::cdp::methods::input::MouseEventType::MouseMoved,
                    *x,
                    *y,
                    MouseButton::None,
                    0,
                )
                .await?;
                self.presses(*x, *y, button, i64::from(*count)).await
            }
            PointInput::Wheel { x, y, dx, dy } => self.wheel_at(*x, *y, *dx, *dy).await,
            PointInput::Drag { points } => self.drag_along(points).await,
            PointInput::TypeFocused { text } => self.input(InsertText { text: text.clone() }).await,
        }
    }

    /// What a press at viewport point (x, y) would reach; None over nothing (or while
    /// a dialog is open, when the page answers nothing).
    pub async fn pressable_at(
        &mut self,
        x: f64,
        y: f64,
    ) -> Result<Option<Pressable>, BackendError> {
        self.page_read(&format!("__arc.pointPressable({x}, {y})"))
            .await
            .map(Option::flatten)
    }

    /// The focused element of the page, as typing would find it.
    pub async fn focused_entry(&mut self) -> Result<FocusedEntry, BackendError> {
        self.page_read("__arc.focusedEntry()")
            .await
            .map(Option::unwrap_or_default)
    }

    /// One helper call in the main frame's world; None when a dialog is open or there
    /// is no document yet.
    async fn page_read<T: serde::de::DeserializeOwned>(
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
