//! OCR for the desktop backend: when the mode asks for it, the target window's pixels
//! (X11 `GetImage`) go through arc-vision and its text regions join the snapshot as
//! `visible_text` elements, pressed with XTest at their centre.

use crate::capture::Screen;
use arc_core::element::{Bounds, Element};
use arc_core::error::BackendError;
use arc_vision::{Frame, LazyProvider, OcrMode};
use std::collections::HashSet;

pub struct DesktopOcr {
    mode: OcrMode,
    /// Started on first use, then reused. When it cannot start, `auto` goes on without
    /// OCR and `always` fails.
    provider: LazyProvider,
    screen: Option<Screen>,
    /// The last observation's OCR element ids.
    ids: HashSet<String>,
}

impl DesktopOcr {
    pub fn new(mode: OcrMode) -> DesktopOcr {
        DesktopOcr {
            mode,
            provider: LazyProvider::default(),
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
        let provider = match self.provider.take() {
            Ok(p) => p,
            Err(why) => return fail(why),
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
        self.provider.put(provider);
        let found = match found {
            Ok(f) => f,
            Err(e) => return fail(e.to_string()),
        };
        self.ids = found.iter().map(|e| e.id.0.clone()).collect();
        Ok(found)
    }
}
