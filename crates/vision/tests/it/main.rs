//! arc-vision's tests: merging OCR regions with accessible elements (synthetic boxes),
//! and which frames the provider reads again.

mod merge;
mod reads;
