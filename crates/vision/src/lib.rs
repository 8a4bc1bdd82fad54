//! OCR perception for targets whose accessibility tree does not show their text: a
//! canvas-only window, a `<canvas>` in a page.
//!
//! Handed an image of the target and the elements the backend already has, it returns
//! `visible_text` elements (`Source::Ocr`) with spatial ids (`ids.rs`), deduplicated by
//! IoU and minus what an accessible element already covers (`provider.rs`); only regions
//! that look like inputs offer TYPE_TEXT (`input_box.rs`). Tesseract runs in process on
//! one thread (`engine.rs`), its library loaded at run time on first use (`tess.rs`): the
//! crate builds without it, and only OCR needs it installed. No I/O beyond the image it
//! is handed: taking screenshots is the backends' job.

pub mod engine;
pub mod error;
mod geometry;
pub mod ids;
pub mod image;
mod input_box;
mod layout;
pub mod lazy;
pub mod mode;
pub mod provider;
mod tess;

pub use engine::{OcrEngine, TextRegion, SINGLE_THREAD_ENV};
pub use error::VisionError;
pub use geometry::{covered_share, iou};
pub use image::GrayImage;
pub use input_box::looks_like_input;
pub use lazy::LazyProvider;
pub use mode::OcrMode;
pub use provider::{dedup, drop_covered, Found, Frame, OcrProvider};
