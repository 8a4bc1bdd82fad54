//! The OCR perception provider: an image of the target plus the elements the backend
//! already has in, `visible_text` elements out.

use crate::engine::{OcrEngine, TextRegion};
use crate::error::VisionError;
use crate::geometry::{covered_share, iou};
use crate::ids::{self, SpatialIds};
use crate::image::GrayImage;
use crate::input_box::looks_like_input;
use arc_core::action::{ActionKind, ActionSet};
use arc_core::element::{Bounds, Element, ElementId, Source};
use arc_core::role::Role;

/// Two OCR regions overlapping more than this are one text read twice.
const DUP_IOU: f64 = 0.5;
/// An accessible element covering this share of a region, with the same text, already
/// represents it.
const COVER_SHARE: f64 = 0.6;
/// Normalized edit similarity at which OCR text counts as the same as an accessible name.
const SAME_TEXT: f64 = 0.7;
/// A covering element at most this many times the region's area: a window or pane named
/// like a drawn button does not represent that button.
const MAX_COVER_AREA_RATIO: f64 = 40.0;

/// An image of (part of) the target and where it lies in the target's coordinates.
pub struct Frame<'a> {
    pub image: &'a GrayImage,
    /// Where the image's top-left pixel lies (screen pixels for a window, CSS pixels for
    /// a page).
    pub origin: (f64, f64),
    /// Image pixels per target unit (a 2× screenshot: 2).
    pub scale: f64,
    /// The element the image shows (a canvas), parent of the regions.
    pub parent: Option<ElementId>,
}

/// One session's OCR: the engine (initialised once), the regions' spatial ids, and the
/// last observation's reads.
pub struct OcrProvider {
    engine: OcrEngine,
    ids: SpatialIds,
    /// One per frame of the last call: the same pixels read the same, so an unchanged
    /// window or canvas costs no Tesseract pass (≈ 100–300 ms each) on the next
    /// observation or freshness check.
    reads: Vec<Read>,
    passes: u64,
}

/// What one image read as: its regions in image pixels and whether each looks like an
/// input.
struct Read {
    image: GrayImage,
    upscale: bool,
    regions: Vec<(TextRegion, bool)>,
}

impl OcrProvider {
    pub fn new() -> Result<OcrProvider, VisionError> {
        Ok(OcrProvider {
            engine: OcrEngine::new()?,
            ids: SpatialIds::default(),
            reads: Vec::new(),
            passes: 0,
        })
    }

    /// Tesseract passes run so far (a frame whose pixels did not change needs none).
    pub fn passes(&self) -> u64 {
        self.passes
    }

    /// Forgets the last reads: the next call reads every frame (what `bench ocr` times).
    pub fn forget_reads(&mut self) {
        self.reads.clear();
    }

    /// The text regions of `frame` as elements, minus duplicates and minus those an
    /// element of `existing` already covers with the same text.
    pub fn perceive(
        &mut self,
        frames: &[Frame<'_>],
        existing: &[Element],
    ) -> Result<Vec<Element>, VisionError> {
        let mut previous = std::mem::take(&mut self.reads);
        let mut found = Vec::new();
        for f in frames {
            // Screen pixels are upscaled 2×; an image already at ≥ 2× is read as it is.
            let upscale = f.scale < 2.0;
            let read = match previous
                .iter()
                .position(|r| r.upscale == upscale && r.image == *f.image)
            {
                Some(i) => previous.swap_remove(i),
                None => self.read(f.image, upscale)?,
            };
            for (r, input) in &read.regions {
                let bounds = Bounds {
                    x: f.origin.0 + r.bounds.x / f.scale,
                    y: f.origin.1 + r.bounds.y / f.scale,
                    width: r.bounds.width / f.scale,
                    height: r.bounds.height / f.scale,
                };
                found.push(Found {
                    region: TextRegion {
                        bounds,
                        ..r.clone()
                    },
                    input: *input,
                    parent: f.parent.clone(),
                });
            }
            self.reads.push(read);
        }
        let kept = drop_covered(dedup(found), existing);
        let boxes: Vec<Bounds> = kept.iter().map(|f| f.region.bounds).collect();
        let ids = self.ids.assign(&boxes);
        Ok(kept
            .into_iter()
            .zip(ids)
            .map(|(f, id)| element(id, f))
            .collect())
    }

    fn read(&mut self, image: &GrayImage, upscale: bool) -> Result<Read, VisionError> {
        self.passes += 1;
        let regions = self
            .engine
            .read(image, upscale)?
            .into_iter()
            .map(|r| {
                let input = looks_like_input(image, &r.bounds);
                (r, input)
            })
            .collect();
        Ok(Read {
            image: image.clone(),
            upscale,
            regions,
        })
    }
}

/// A region in target coordinates, before it has an id.
#[derive(Clone, Debug)]
pub struct Found {
    pub region: TextRegion,
    pub input: bool,
    pub parent: Option<ElementId>,
}

fn element(id: String, f: Found) -> Element {
    let mut actions = ActionSet::EMPTY
        .with(ActionKind::Click)
        .with(ActionKind::DoubleClick)
        .with(ActionKind::RightClick)
        .with(ActionKind::Hover);
    if f.input {
        actions.insert(ActionKind::TypeText);
    }
    let mut e = Element::new(id, Role::VisibleText, f.region.text);
    e.actions = actions;
    e.bounds = Some(f.region.bounds);
    e.source = Source::Ocr;
    e.parent_id = f.parent;
    e.guard = ids::guard(&f.region.bounds);
    e
}

/// Of regions overlapping by IoU > 0.5, the most confident one; reading order kept.
pub fn dedup(found: Vec<Found>) -> Vec<Found> {
    let mut order: Vec<usize> = (0..found.len()).collect();
    order.sort_by(|&a, &b| {
        found[b]
            .region
            .confidence
            .total_cmp(&found[a].region.confidence)
    });
    let mut keep = vec![false; found.len()];
    for &i in &order {
        let clash = (0..found.len())
            .any(|j| keep[j] && iou(&found[i].region.bounds, &found[j].region.bounds) > DUP_IOU);
        keep[i] = !clash;
    }
    found
        .into_iter()
        .zip(keep)
        .filter_map(|(f, k)| k.then_some(f))
        .collect()
}

/// Drops regions an accessible element already shows: its box covers most of the
/// region, is not far larger than it, and its name or value reads the same (OCR noise
/// allowed).
pub fn drop_covered(found: Vec<Found>, existing: &[Element]) -> Vec<Found> {
    found
        .into_iter()
        .filter(|f| {
            !existing.iter().any(|e| {
                e.source != Source::Ocr
                    && e.visible
                    && e.bounds.is_some_and(|b| {
                        covered_share(&f.region.bounds, &b) >= COVER_SHARE
                            && b.area() <= MAX_COVER_AREA_RATIO * f.region.bounds.area()
                    })
                    && same_text(&f.region.text, e)
            })
        })
        .collect()
}

fn normalize(s: &str) -> Vec<char> {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn same_text(ocr: &str, e: &Element) -> bool {
    let o = normalize(ocr);
    if o.is_empty() {
        return false;
    }
    let value = e.value.as_ref().map(|v| v.as_text().into_owned());
    let same = [Some(e.name.as_str()), value.as_deref()]
        .into_iter()
        .flatten()
        .map(normalize)
        .any(|t| contains(&t, &o) || similarity(&t, &o) >= SAME_TEXT);
    same
}

fn contains(hay: &[char], needle: &[char]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// 1 − Levenshtein distance / longer length.
fn similarity(a: &[char], b: &[char]) -> f64 {
    let longer = a.len().max(b.len());
    if longer == 0 {
        return 1.0;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    1.0 - prev[b.len()] as f64 / longer as f64
}
