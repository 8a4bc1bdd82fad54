//! The one thing a session drives: a browser page or a desktop window. One enum, so the
//! session core (fence, grants, limits, risk gate, FIFO, journal) is written once and
//! only the few backend-specific reads (a page's front tab, a screenshot, what is under
//! a point) branch on it.

use arc_browser::backend::{BrowserBackend, PointButton, PointInput, PointLanding};
use arc_browser::Lost;
use arc_core::{
    Backend, BackendError, EffectSample, ExecutableAction, Executed, ExpectedEffect, PressFacts,
    Pressable, SettleSample, Snapshot,
};
use arc_desktop::screenshot::ScreenshotError;
use arc_desktop::DesktopBackend;
use async_trait::async_trait;
use std::time::Duration;

// One per session, built once and never moved on a hot path: the size gap is harmless.
#[allow(clippy::large_enum_variant)]
pub enum TargetBackend {
    Page(BrowserBackend),
    Window(Box<DesktopBackend>),
}

impl TargetBackend {
    fn dyn_ref(&self) -> &dyn Backend {
        match self {
            TargetBackend::Page(b) => b,
            TargetBackend::Window(b) => b.as_ref(),
        }
    }

    fn dyn_mut(&mut self) -> &mut dyn Backend {
        match self {
            TargetBackend::Page(b) => b,
            TargetBackend::Window(b) => b.as_mut(),
        }
    }

    pub fn page(&self) -> Option<&BrowserBackend> {
        match self {
            TargetBackend::Page(b) => Some(b),
            TargetBackend::Window(_) => None,
        }
    }

    pub fn page_mut(&mut self) -> Option<&mut BrowserBackend> {
        match self {
            TargetBackend::Page(b) => Some(b),
            TargetBackend::Window(_) => None,
        }
    }

    /// An observation of the whole target: a page walked whole, not only near its
    /// viewport (a window's tree is read whole anyway).
    pub async fn observe_whole(&mut self) -> Result<Snapshot, BackendError> {
        match self {
            TargetBackend::Page(b) => b.observe_whole().await,
            TargetBackend::Window(b) => b.observe().await,
        }
    }

    /// The browser or the page is gone (a window's app leaving is a backend failure).
    pub fn lost(&self) -> Option<Lost> {
        self.page().and_then(BrowserBackend::lost)
    }

    /// Dispatches point input: CDP `Input.*` on a page, XTest on a window (window-local
    /// points, each press hit-tested against the X stacking order). A page says where a
    /// click's press went when not on what the point's gate judged.
    pub async fn input_at(
        &mut self,
        input: &PointInput,
    ) -> Result<Option<PointLanding>, BackendError> {
        use arc_desktop::input::point::PointInput as Desk;
        match self {
            TargetBackend::Page(b) => b.input_at(input).await,
            TargetBackend::Window(b) => {
                let desk = match input {
                    PointInput::Click {
                        x,
                        y,
                        button,
                        count,
                        modifiers,
                    } => Desk::Click {
                        x: *x,
                        y: *y,
                        right: *button == PointButton::Right,
                        count: *count,
                        modifiers: modifiers.clone(),
                    },
                    PointInput::Wheel { x, y, dx, dy } => Desk::Wheel {
                        x: *x,
                        y: *y,
                        dx: *dx,
                        dy: *dy,
                    },
                    PointInput::Drag { points } => Desk::Drag {
                        points: points.clone(),
                    },
                    PointInput::TypeFocused { .. } => {
                        return Err(BackendError::Unsupported {
                            kind: arc_core::ActionKind::TypeText,
                            backend: "atspi",
                        })
                    }
                };
                b.input_at(&desk).await.map(|()| None)
            }
        }
    }

    /// A PNG of what the session sees: the page's viewport, or the window's box (one X11
    /// capture, refused over `MAX_SCREENSHOT_PIXELS`). Unmasked: `screenshot::masked`
    /// blacks out what must not leave.
    pub async fn screenshot_png(&self) -> Result<Vec<u8>, ScreenshotError> {
        use base64::Engine as _;
        match self {
            TargetBackend::Page(b) => {
                let encoded = b
                    .screenshot_png_base64()
                    .await
                    .map_err(|e| ScreenshotError::Failed(e.to_string()))?;
                base64::engine::general_purpose::STANDARD
                    .decode(encoded)
                    .map_err(|e| ScreenshotError::Failed(format!("the page's PNG: {e}")))
            }
            TargetBackend::Window(b) => b.screenshot_png().await,
        }
    }

    /// What a press at viewport point (x, y) would reach, for the risk gate: the page
    /// answers live; on a window, the smallest visible element of `snapshot` (the cited
    /// observation, which the press's hit test keeps honest) whose box holds the point.
    pub async fn pressable_at(
        &mut self,
        snapshot: &Snapshot,
        x: f64,
        y: f64,
    ) -> Result<Vec<Pressable>, BackendError> {
        match self {
            TargetBackend::Page(b) => b.pressable_at(x, y).await,
            TargetBackend::Window(_) => {
                let Some(v) = snapshot.viewport else {
                    return Ok(Vec::new());
                };
                let (sx, sy) = (v.x + x, v.y + y);
                let hit = snapshot
                    .elements
                    .iter()
                    .filter(|e| e.visible)
                    .filter_map(|e| e.bounds.map(|b| (e, b)))
                    .filter(|(_, b)| {
                        sx >= b.x && sy >= b.y && sx < b.x + b.width && sy < b.y + b.height
                    })
                    .min_by(|a, b| (a.1.width * a.1.height).total_cmp(&(b.1.width * b.1.height)));
                Ok(hit
                    .map(|(e, _)| Pressable {
                        element: format!("{} {} {}", e.id, e.role, arc_core::quote(&e.name)),
                        name: e.name.clone(),
                        text: e
                            .value
                            .as_ref()
                            .map(|v| v.as_text().into_owned())
                            .unwrap_or_default(),
                        also: Vec::new(),
                    })
                    .into_iter()
                    .collect())
            }
        }
    }
}

#[async_trait]
impl Backend for TargetBackend {
    fn name(&self) -> &'static str {
        self.dyn_ref().name()
    }

    async fn observe(&mut self) -> Result<Snapshot, BackendError> {
        self.dyn_mut().observe().await
    }

    async fn is_fresh(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<bool, BackendError> {
        self.dyn_mut().is_fresh(snapshot, action).await
    }

    async fn execute(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<Executed, BackendError> {
        self.dyn_mut().execute(snapshot, action).await
    }

    async fn press_facts(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        self.dyn_mut().press_facts(snapshot, action).await
    }

    async fn settle_probe(&mut self) -> Result<SettleSample, BackendError> {
        self.dyn_mut().settle_probe().await
    }

    async fn settle_probe_for(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        self.dyn_mut().settle_probe_for(effect).await
    }

    fn min_settle_cap(&self) -> Duration {
        self.dyn_ref().min_settle_cap()
    }
}
