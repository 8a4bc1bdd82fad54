//! arc-vision's tests: merging OCR regions with accessible elements (synthetic boxes).

mod merge;
