//! Physical input at window-local points (the host's `click_at`, `scroll_at`, `drag`):
//! XTest only, each press hit-tested against the X stacking order first
//! (`hit_test::covered`), so a point another window covers presses nothing.

use super::hit_test;
use super::xtest::Button;
use crate::backend::DesktopBackend;
use arc_core::error::BackendError;
use arc_core::key::Modifier;

/// One input at a point of the window (its top-left is (0, 0), as the snapshot's
/// viewport measures it).
#[derive(Clone, Debug, PartialEq)]
pub enum PointInput {
    /// `count` clicks (1–3), the `modifiers` held around them.
    Click {
        x: f64,
        y: f64,
        right: bool,
        count: u8,
        modifiers: Vec<Modifier>,
    },
    /// Wheel clicks at (x, y): the sign of `dx` / `dy` picks the direction (positive dy
    /// scrolls down), each 40 px of it one click (at least one, at most 10).
    Wheel { x: f64, y: f64, dx: f64, dy: f64 },
    /// Left button down at the first point, through the others, up at the last.
    Drag { points: Vec<(f64, f64)> },
}

/// Pixels of one wheel click, as browsers count a wheel notch.
const WHEEL_STEP_PX: f64 = 40.0;
const MAX_WHEEL_CLICKS: f64 = 10.0;

impl DesktopBackend {
    /// Dispatches one point input after checking each pressed point is on the window.
    pub async fn input_at(&mut self, input: &PointInput) -> Result<(), BackendError> {
        self.physical = false;
        let origin = self.window_origin()?;
        let screen =
            |x: f64, y: f64| ((origin.0 + x).round() as i32, (origin.1 + y).round() as i32);
        match input {
            PointInput::Click {
                x,
                y,
                right,
                count,
                modifiers,
            } => {
                let at = screen(*x, *y);
                self.uncovered(at)?;
                let button = if *right { Button::Right } else { Button::Left };
                self.x()?
                    .click_with(at.0, at.1, button, *count, modifiers)
                    .map_err(BackendError::failed)
            }
            PointInput::Wheel { x, y, dx, dy } => {
                let at = screen(*x, *y);
                self.uncovered(at)?;
                let clicks = |d: f64| {
                    (d.abs() / WHEEL_STEP_PX)
                        .ceil()
                        .clamp(1.0, MAX_WHEEL_CLICKS) as u8
                };
                let xi = self.x()?;
                if *dy != 0.0 {
                    let b = if *dy > 0.0 {
                        Button::WheelDown
                    } else {
                        Button::WheelUp
                    };
                    xi.click(at.0, at.1, b, clicks(*dy))
                        .map_err(BackendError::failed)?;
                }
                if *dx != 0.0 {
                    let b = if *dx > 0.0 {
                        Button::WheelRight
                    } else {
                        Button::WheelLeft
                    };
                    xi.click(at.0, at.1, b, clicks(*dx))
                        .map_err(BackendError::failed)?;
                }
                Ok(())
            }
            PointInput::Drag { points } => {
                let (Some(first), Some(last)) = (points.first(), points.last()) else {
                    return Ok(());
                };
                let (from, to) = (screen(first.0, first.1), screen(last.0, last.1));
                self.uncovered(from)?;
                self.uncovered(to)?;
                self.x()?.drag(from, to).map_err(BackendError::failed)
            }
        }
    }

    /// Stale (nothing pressed) when another window covers `at`.
    pub(crate) fn uncovered(&mut self, at: (i32, i32)) -> Result<(), BackendError> {
        let (pid, window) = (self.app().pid, self.window_box());
        let reason = {
            let xi = self.x()?;
            hit_test::covered(xi, at, pid, window).map_err(BackendError::failed)?
        };
        // Only a press sets the physical flag; a refused one pressed nothing.
        self.physical = false;
        match reason {
            None => Ok(()),
            Some(why) => Err(BackendError::stale(
                None,
                format!("{why}; nothing was pressed"),
            )),
        }
    }
}
