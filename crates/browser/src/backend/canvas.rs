//! OCR over `<canvas>` regions: a canvas draws text the accessibility tree never sees.
//! Each visible canvas of the top document is screenshotted (CDP, at 2×) and read by
//! arc-vision; the text regions join the snapshot as `visible_text` elements, pressed at
//! their centre with the same trusted `Input.*` events as a point click, after checking
//! that the canvas is what is under that point.
//!
//! `OcrMode`: `auto` and `always` read the canvases (a canvas is by definition text the
//! tree lacks), `never` does not.

use super::point::{PointButton, PointInput};
use super::{failed, BrowserBackend};
use crate::cdp::methods::page;
use arc_core::{Action, BackendError, Bounds, Element, ElementId, ExecutableAction, Guard};
use arc_vision::{Frame, GrayImage, LazyProvider, OcrMode};
use serde::Deserialize;
use std::collections::HashMap;

/// Most canvases read per observation (each costs a screenshot and an OCR pass).
const MAX_CANVASES: usize = 8;
/// Screenshot scale: Chromium renders the clip at 2×, the upscale Tesseract needs.
const SHOT_SCALE: f64 = 2.0;

pub(super) struct CanvasOcr {
    mode: OcrMode,
    provider: LazyProvider,
    /// The risk gate's own reader ([`BrowserBackend::drawn_words_at`]): its reads must
    /// not move the observations' OCR ids.
    gate: LazyProvider,
    /// The last observation's OCR elements: their box (viewport CSS pixels) and guard.
    boxes: HashMap<String, (Bounds, Guard)>,
}

impl CanvasOcr {
    pub fn new(mode: OcrMode) -> CanvasOcr {
        CanvasOcr {
            mode,
            provider: LazyProvider::default(),
            gate: LazyProvider::default(),
            boxes: HashMap::new(),
        }
    }

    pub fn owns(&self, id: &ElementId) -> bool {
        self.boxes.contains_key(id.as_str())
    }
}

/// A canvas's visible part in the viewport, and the page's scroll (screenshot clips are
/// in document coordinates).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CanvasRect {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    sx: f64,
    sy: f64,
}

// Left out, as the scan leaves them out: a canvas under `aria-hidden` or `inert`, hidden,
// or off the viewport; and a canvas with nothing drawn (every pixel transparent black),
// such as a transparent overlay whose screenshot would only show the page's own text
// beneath it. Blankness is read by drawing the canvas onto one reused scratch canvas in
// our world and scanning its pixels as 32-bit words: it works for any context type and
// creates none on the page's canvas. It replaced comparing `toDataURL()` with a blank
// canvas's (two PNG encodes per canvas per observation): 1280×800 drawn 63 → 26 ms,
// blank 104 → 22 ms in headless Chromium. Only canvases in view are read. A tainted
// canvas throws: read it.
const CANVASES_JS: &str = "(() => {
  const vw = innerWidth, vh = innerHeight;
  const blank = (c) => {
    if (c.width === 0 || c.height === 0) return true;
    try {
      const s = globalThis.__arcBlankScratch ||= document.createElement('canvas');
      if (s.width !== c.width || s.height !== c.height) {
        s.width = c.width; s.height = c.height;
      }
      const g = s.getContext('2d', {willReadFrequently: true});
      g.clearRect(0, 0, s.width, s.height);
      g.drawImage(c, 0, 0);
      const px = new Uint32Array(g.getImageData(0, 0, s.width, s.height).data.buffer);
      for (let i = 0; i < px.length; i++) if (px[i] !== 0) return false;
      return true;
    } catch (e) { return false; }
  };
  return Array.from(document.querySelectorAll('canvas'))
    .filter(c => !c.closest('[aria-hidden=\"true\"], [inert]')).map(c => {
    const r = c.getBoundingClientRect();
    const x = Math.max(0, r.left), y = Math.max(0, r.top);
    const style = getComputedStyle(c);
    const shown = style.visibility !== 'hidden' && style.display !== 'none';
    return {c, x, y, width: shown ? Math.min(vw, r.right) - x : 0,
            height: shown ? Math.min(vh, r.bottom) - y : 0, sx: scrollX, sy: scrollY};
  }).filter(r => r.width >= 8 && r.height >= 8 && !blank(r.c))
    .map(({c, ...r}) => r);
})()";

/// Whether a press at the point lands on a picture: a canvas, an image or an SVG drawing.
const PICTURE_AT_JS: &str = "(x, y) => { const e = document.elementFromPoint(x, y); \
    return !!e && (['canvas', 'img', 'video', 'object', 'embed'].includes(e.localName) \
    || !!e.closest('svg')); }";
/// The clip read around a pressed point (CSS pixels): a drawn button and its label.
const AROUND: (f64, f64) = (400.0, 160.0);
/// How far from a word OCR read a press still presses it: a drawn button's face reaches
/// past its label (canvas.html's are 148×56 around a label ~80×22; its buttons are 24 px
/// apart, so a neighbour's label is ~58 px away).
const NEAR_WORD: f64 = 32.0;

const CANVAS_AT_JS: &str = "(x, y) => { const e = document.elementFromPoint(x, y); \
    return !!e && e.tagName === 'CANVAS'; }";

impl BrowserBackend {
    /// What [`Self::canvas_text`] leaves when the page has no canvas: no OCR elements.
    pub(super) fn no_canvas_text(&mut self) {
        self.canvas.boxes.clear();
    }

    /// The OCR'd text of the page's visible canvases, as elements (none with `never`, or
    /// without canvases). `existing`: the page's elements, for dedup and the parent id.
    pub(super) async fn canvas_text(
        &mut self,
        existing: &[Element],
    ) -> Result<Vec<Element>, BackendError> {
        self.canvas.boxes.clear();
        if self.canvas.mode == OcrMode::Never {
            return Ok(Vec::new());
        }
        let Some((frame, loader)) = self.frames.first().cloned() else {
            return Ok(Vec::new());
        };
        let mut rects: Vec<CanvasRect> = self
            .worlds
            .eval(&self.page, &frame, &loader, CANVASES_JS)
            .await
            .map_err(failed)?;
        if rects.is_empty() {
            return Ok(Vec::new());
        }
        rects.truncate(MAX_CANVASES);
        let mut shots = Vec::with_capacity(rects.len());
        for r in &rects {
            let shot = self
                .page
                .call(page::CaptureScreenshot {
                    format: Some(page::ImageFormat::Png),
                    clip: Some(page::Viewport {
                        x: r.x + r.sx,
                        y: r.y + r.sy,
                        width: r.width,
                        height: r.height,
                        scale: SHOT_SCALE,
                    }),
                    ..Default::default()
                })
                .await
                .map_err(failed)?;
            let png = shot
                .decode()
                .map_err(|e| failed(format!("canvas screenshot: {e}")))?;
            let image = GrayImage::from_png(&png).map_err(failed)?;
            let bounds = Bounds {
                x: r.x,
                y: r.y,
                width: r.width,
                height: r.height,
            };
            shots.push((image, bounds, parent_of(existing, &bounds)));
        }
        let mut provider = match self.canvas.provider.take() {
            Ok(p) => p,
            Err(why) => {
                return if self.canvas.mode == OcrMode::Always {
                    Err(failed(format!("OCR (--ocr always): {why}")))
                } else {
                    tracing::warn!("canvas OCR skipped (--ocr auto): {why}");
                    Ok(Vec::new())
                };
            }
        };
        let existing = existing.to_vec();
        // Tesseract holds the CPU for ~100 ms a canvas: off the async workers.
        let (provider, found) = tokio::task::spawn_blocking(move || {
            let frames: Vec<Frame<'_>> = shots
                .iter()
                .map(|(image, b, parent)| Frame {
                    image,
                    origin: (b.x, b.y),
                    scale: image.width() as f64 / b.width.max(1.0),
                    parent: parent.clone(),
                })
                .collect();
            let found = provider.perceive(&frames, &existing);
            (provider, found)
        })
        .await
        .map_err(|e| failed(format!("the OCR task failed: {e}")))?;
        self.canvas.provider.put(provider);
        let found = found.map_err(failed)?;
        self.canvas.boxes = found
            .iter()
            .filter_map(|e| Some((e.id.0.clone(), (e.bounds?, e.guard.clone()))))
            .collect();
        Ok(found)
    }

    /// What a press at viewport point (x, y) presses when it lands on a picture with no
    /// name of its own (a button drawn on a canvas, a nameless image): the words drawn
    /// within [`NEAR_WORD`] of the point, read now by OCR in a clip around it, whatever the
    /// observations' OCR mode — the gate must see what a person sees there. None when
    /// `found` (what the page says the press reaches) already has a name, when no picture
    /// is there, nothing is drawn near, or OCR is unavailable (then only the element is
    /// judged, as docs/SECURITY.md says).
    pub(super) async fn drawn_words_at(
        &mut self,
        x: f64,
        y: f64,
        found: &[arc_core::Pressable],
    ) -> Option<arc_core::Pressable> {
        if found
            .iter()
            .any(|p| p.labels().any(|l| !l.trim().is_empty()))
        {
            return None;
        }
        let (frame, loader) = self.frames.first().cloned()?;
        let expr = format!(
            "({PICTURE_AT_JS})({x}, {y}) ? [scrollX, scrollY, innerWidth, innerHeight] : null"
        );
        let [sx, sy, vw, vh]: [f64; 4] = self
            .worlds
            .eval::<Option<[f64; 4]>>(&self.page, &frame, &loader, &expr)
            .await
            .ok()??;
        let (width, height) = (AROUND.0.min(vw), AROUND.1.min(vh));
        let left = (x - width / 2.0).clamp(0.0, (vw - width).max(0.0));
        let top = (y - height / 2.0).clamp(0.0, (vh - height).max(0.0));
        let shot = self
            .page
            .call(page::CaptureScreenshot {
                format: Some(page::ImageFormat::Png),
                clip: Some(page::Viewport {
                    x: left + sx,
                    y: top + sy,
                    width,
                    height,
                    scale: SHOT_SCALE,
                }),
                ..Default::default()
            })
            .await
            .ok()?;
        let image = GrayImage::from_png(&shot.decode().ok()?).ok()?;
        let mut provider = match self.canvas.gate.take() {
            Ok(p) => p,
            Err(why) => {
                tracing::warn!("a press on a picture is judged without its drawn words: {why}");
                return None;
            }
        };
        let (provider, read) = tokio::task::spawn_blocking(move || {
            let frame = Frame {
                image: &image,
                origin: (left, top),
                scale: image.width() as f64 / width.max(1.0),
                parent: None,
            };
            let read = provider.perceive(&[frame], &[]);
            (provider, read)
        })
        .await
        .ok()?;
        self.canvas.gate.put(provider);
        let near = |b: &Bounds| {
            x >= b.x - NEAR_WORD
                && x <= b.x + b.width + NEAR_WORD
                && y >= b.y - NEAR_WORD
                && y <= b.y + b.height + NEAR_WORD
        };
        let words: Vec<String> = read
            .ok()?
            .into_iter()
            .filter(|e| e.bounds.as_ref().is_some_and(near))
            .map(|e| e.name)
            .collect();
        if words.is_empty() {
            return None;
        }
        let text = words.join(" ");
        Some(arc_core::Pressable {
            element: format!("the picture at ({x:.0}, {y:.0}), whose drawn words OCR read"),
            name: text.clone(),
            text,
            also: Vec::new(),
        })
    }

    /// The guard of OCR element `id` as the canvas shows it now (`None`: gone).
    pub(super) async fn reread_canvas_guard(
        &mut self,
        id: &ElementId,
    ) -> Result<Option<Guard>, BackendError> {
        let existing: Vec<Element> = Vec::new();
        let now = self.canvas_text(&existing).await?;
        Ok(now.into_iter().find(|e| &e.id == id).map(|e| e.guard))
    }

    /// Acts on an OCR element: at its centre, once the canvas is under that point.
    pub(super) async fn act_on_canvas(
        &mut self,
        action: &ExecutableAction,
        text: &str,
    ) -> Result<(), BackendError> {
        let id = action.target().expect("called for targeted actions");
        let (b, _) = self.canvas.boxes[id.as_str()].clone();
        let (x, y) = b.center();
        let Some((frame, loader)) = self.frames.first().cloned() else {
            return Err(BackendError::stale(Some(id), "the page has no document"));
        };
        let expr = format!("({CANVAS_AT_JS})({x}, {y})");
        let on_canvas: bool = self
            .worlds
            .eval(&self.page, &frame, &loader, &expr)
            .await
            .map_err(failed)?;
        if !on_canvas {
            return Err(BackendError::stale(
                Some(id),
                format!("no canvas under its centre ({x:.0}, {y:.0})"),
            ));
        }
        let click = |button, count| PointInput::Click {
            x,
            y,
            button,
            count,
            modifiers: action
                .action
                .click_modifier()
                .map(|m| m.modifier())
                .into_iter()
                .collect(),
        };
        // No gate judged a point here, so nothing watches where the press lands.
        let pressed = match &action.action {
            Action::Click { .. } => self.input_at(&click(PointButton::Left, 1)).await,
            Action::DoubleClick { .. } => self.input_at(&click(PointButton::Left, 2)).await,
            Action::RightClick { .. } => self.input_at(&click(PointButton::Right, 1)).await,
            Action::Hover { .. } => self
                .mouse(
                    crate::cdp::methods::input::MouseEventType::MouseMoved,
                    x,
                    y,
                    crate::cdp::methods::input::MouseButton::None,
                    0,
                )
                .await
                .map(|()| None),
            Action::TypeText { submit, .. } => {
                self.input_at(&click(PointButton::Left, 1)).await?;
                let typed = self
                    .input_at(&PointInput::TypeFocused {
                        text: text.to_owned(),
                    })
                    .await?;
                if let Some(key) = submit {
                    self.press(key.key(), 0, None).await?;
                }
                Ok(typed)
            }
            other => Err(BackendError::Unsupported {
                kind: other.kind(),
                backend: "cdp (OCR text)",
            }),
        };
        pressed.map(|_| ())
    }
}

/// The element whose box is the canvas (IoU ≥ 0.9), if the tree has one.
fn parent_of(existing: &[Element], canvas: &Bounds) -> Option<ElementId> {
    // The innermost (last in document order) element with the canvas's box.
    existing
        .iter()
        .rfind(|e| e.bounds.is_some_and(|b| arc_vision::iou(&b, canvas) >= 0.9))
        .map(|e| e.id.clone())
}
