//! Bounds on everything a client controls, published by `hello` and `manifest`.

use crate::protocol::{HostError, LimitName};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Characters of one literal (typed text, a value, an option, a URL).
    pub text_chars: usize,
    /// Longest `wait_for`.
    pub wait_ms: u64,
    /// Longest drag along either axis, in CSS pixels.
    pub drag_px: u32,
    /// Points of one drag path (`DRAG_PATH`).
    pub drag_points: usize,
    /// Bytes of one request frame or line.
    pub frame_bytes: usize,
    pub sessions_per_connection: usize,
    pub connections: usize,
    /// Requests served at once on one connection (past it the host refuses one); the MCP
    /// server instead reads no further request from its client while this many are
    /// unanswered.
    pub requests_in_flight: usize,
    /// Longest `run_subtask`.
    pub subtask_ms: u64,
    /// Largest view budget an `observe` may ask for.
    pub budget_tokens: usize,
    /// Time a new connection has to send `hello`.
    pub hello_ms: u64,
    /// Bytes of replies queued on one connection for a peer that is not reading them;
    /// while they are, the host reads no further request from it (one reply larger than
    /// this still goes, alone).
    pub reply_queue_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            text_chars: 10_000,
            wait_ms: 30_000,
            drag_px: 2_000,
            drag_points: 64,
            frame_bytes: 4 * 1024 * 1024,
            sessions_per_connection: 16,
            connections: 32,
            requests_in_flight: 32,
            subtask_ms: 300_000,
            budget_tokens: 20_000,
            hello_ms: 10_000,
            reply_queue_bytes: 8 * 1024 * 1024,
        }
    }
}

impl Limits {
    pub fn check_text(&self, what: &str, text: &str) -> Result<(), HostError> {
        let n = text.chars().count();
        if n > self.text_chars {
            return Err(HostError::limit(
                LimitName::TextChars,
                format!(
                    "{what} has {n} characters; the limit is {} (split it)",
                    self.text_chars
                ),
            ));
        }
        Ok(())
    }

    pub fn check_wait(&self, ms: u64) -> Result<(), HostError> {
        if ms > self.wait_ms {
            return Err(HostError::limit(
                LimitName::WaitMs,
                format!(
                    "timeout_ms {ms} is over the {} ms limit (wait again instead)",
                    self.wait_ms
                ),
            ));
        }
        Ok(())
    }

    pub fn check_drag(&self, dx: f64, dy: f64) -> Result<(), HostError> {
        let max = f64::from(self.drag_px);
        if dx.abs() > max || dy.abs() > max {
            return Err(HostError::limit(
                LimitName::DragPx,
                format!(
                    "a drag of ({dx}, {dy}) px is over the {} px limit per axis",
                    self.drag_px
                ),
            ));
        }
        Ok(())
    }

    /// A point must be a finite position inside the viewport the cited observation
    /// measured: input outside it would reach nothing the agent saw.
    pub fn check_point(
        &self,
        viewport: Option<arc_core::Bounds>,
        x: f64,
        y: f64,
    ) -> Result<(), HostError> {
        let Some(v) = viewport else {
            return Err(HostError::limit(
                LimitName::Viewport,
                "the cited observation has no viewport to check the point against; observe again",
            ));
        };
        let inside = x.is_finite()
            && y.is_finite()
            && (0.0..v.width).contains(&x)
            && (0.0..v.height).contains(&y);
        if !inside {
            return Err(HostError::limit(
                LimitName::Viewport,
                format!(
                    "point ({x}, {y}) is outside the viewport (0 ≤ x < {}, 0 ≤ y < {}); scroll to bring the target into view",
                    v.width, v.height
                ),
            ));
        }
        Ok(())
    }

    /// A drag path: 2 to `drag_points` points, each inside the viewport, each step
    /// within `drag_px` per axis.
    pub fn check_path(
        &self,
        viewport: Option<arc_core::Bounds>,
        points: &[[f64; 2]],
    ) -> Result<(), HostError> {
        if points.len() < 2 || points.len() > self.drag_points {
            return Err(HostError::limit(
                LimitName::DragPoints,
                format!(
                    "a drag takes 2–{} points (got {})",
                    self.drag_points,
                    points.len()
                ),
            ));
        }
        for [x, y] in points {
            self.check_point(viewport, *x, *y)?;
        }
        for pair in points.windows(2) {
            self.check_drag(pair[1][0] - pair[0][0], pair[1][1] - pair[0][1])?;
        }
        Ok(())
    }

    pub fn check_budget(&self, tokens: usize) -> Result<(), HostError> {
        if tokens == 0 || tokens > self.budget_tokens {
            return Err(HostError::limit(
                LimitName::BudgetTokens,
                format!(
                    "budget_tokens must be 1–{} (got {tokens}); use find for the rest",
                    self.budget_tokens
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::Bounds;

    const VIEW: Option<Bounds> = Some(Bounds {
        x: 0.0,
        y: 0.0,
        width: 1280.0,
        height: 800.0,
    });

    #[test]
    fn points_stay_in_the_viewport_and_paths_in_their_bounds() {
        let l = Limits::default();
        assert!(l.check_point(VIEW, 0.0, 799.5).is_ok());
        for (x, y) in [(1280.0, 1.0), (-0.1, 1.0), (1.0, 800.0), (f64::NAN, 1.0)] {
            let e = l.check_point(VIEW, x, y).unwrap_err();
            assert_eq!(e.limit, Some(LimitName::Viewport), "({x}, {y})");
        }
        assert_eq!(
            l.check_point(None, 1.0, 1.0).unwrap_err().limit,
            Some(LimitName::Viewport)
        );
        assert!(l.check_path(VIEW, &[[1.0, 1.0], [500.0, 700.0]]).is_ok());
        assert_eq!(
            l.check_path(VIEW, &[[1.0, 1.0]]).unwrap_err().limit,
            Some(LimitName::DragPoints)
        );
        let long = vec![[1.0, 1.0]; l.drag_points + 1];
        assert_eq!(
            l.check_path(VIEW, &long).unwrap_err().limit,
            Some(LimitName::DragPoints)
        );
        let short = Limits {
            drag_px: 100,
            ..Limits::default()
        };
        assert_eq!(
            short
                .check_path(VIEW, &[[1.0, 1.0], [50.0, 1.0], [200.0, 1.0]])
                .unwrap_err()
                .limit,
            Some(LimitName::DragPx)
        );
    }
}
