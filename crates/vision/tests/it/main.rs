//! arc-vision's tests: merging OCR regions with accessible elements (synthetic boxes),
//! which frames the provider reads again, and what real Tesseract reads on a fixture.

mod merge;
mod reads;
mod recognize;
