//! OCR for the desktop backend: when the mode asks for it, the target window's pixels
//! (X11 `GetImage`) go through arc-vision and its text regions join the snapshot as
//! `visible_text` elements, pressed with XTest at their centre.

use crate::capture::Screen;
use arc_core::element::{Bounds, Element};
use arc_core::error::BackendError;
use arc_vision::{Frame, OcrMode, OcrProvider};
use std::collections::HashSet;
use std::sync::Mutex;

pub struct DesktopOcr {
    mode: OcrMode,
    /// Started on first use (≈ 66 ms), then reused across observations. In a mutex only
    /// so the backend stays `Sync` (Tesseract's handle is not); never contended.
    provider: Mutex<Option<OcrProvider>>,
    /// Why OCR could not start: `auto` then goes on without it, `always` fails.
    unavailable: Option<String>,
    screen: Option<Screen>,
    /// The last observation's OCR element ids.
    ids: HashSet<String>,
}

impl DesktopOcr {
    pub fn new(mode: OcrMode) -> DesktopOcr {
        DesktopOcr {
            mode,
            provider: Mutex::new(None),
            unavailable: None,
            screen: None,
            ids: HashSet::new(),
        }
    }

    /// Whether `id` names an OCR element of the last observation.
    pub fn owns(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    /// The OCR elements to add to `existing` (the window's accessible elements), or none
    /// when the mode does not ask for them.
    pub async fn elements(
        &mut self,
        display: Option<&str>,
        window: Option<Bounds>,
        existing: &[Element],
    ) -> Result<Vec<Element>, BackendError> {
        self.ids.clear();
        if !self.mode.wants_ocr(existing) {
            return Ok(Vec::new());
        }
        let fail = |why: String| -> Result<Vec<Element>, BackendError> {
            if self.mode == OcrMode::Always {
                Err(BackendError::failed(format!("OCR (--ocr always): {why}")))
            } else {
                tracing::warn!("OCR skipped (--ocr auto): {why}");
                Ok(Vec::new())
            }
        };
        if let Some(why) = &self.unavailable {
            return fail(why.clone());
        }
        let Some(window) = window else {
            return fail("the window reports no on-screen box".into());
        };
        if self.screen.is_none() {
            match Screen::connect(display) {
                Ok(s) => self.screen = Some(s),
                Err(e) => return fail(e.to_string()),
            }
        }
        let grabbed = self.screen.as_ref().expect("just set").grab(&window);
        let (image, origin) = match grabbed {
            Ok(g) => g,
            Err(e) => return fail(e.to_string()),
        };
        let slot = self.provider.get_mut().unwrap_or_else(|p| p.into_inner());
        let provider = match slot.take() {
            Some(p) => p,
            None => match OcrProvider::new() {
                Ok(p) => p,
                Err(e) => {
                    self.unavailable = Some(e.to_string());
                    return fail(e.to_string());
                }
            },
        };
        let existing = existing.to_vec();
        // Tesseract holds the CPU for ~100 ms: off the async workers.
        let (provider, found) = tokio::task::spawn_blocking(move || {
            let mut provider = provider;
            let frame = Frame {
                image: &image,
                origin,
                scale: 1.0,
                parent: None,
            };
            let found = provider.perceive(&[frame], &existing);
            (provider, found)
        })
        .await
        .map_err(|e| BackendError::failed(format!("the OCR task failed: {e}")))?;
        *self.provider.get_mut().unwrap_or_else(|p| p.into_inner()) = Some(provider);
        let found = match found {
            Ok(f) => f,
            Err(e) => return fail(e.to_string()),
        };
        self.ids = found.iter().map(|e| e.id.0.clone()).collect();
        Ok(found)
    }
}
