use thiserror::Error;

#[derive(Clone, Debug, Error)]
pub enum VisionError {
    #[error("image of {width}×{height} pixels: empty or over the limit of {max_pixels} pixels")]
    ImageSize {
        width: u32,
        height: u32,
        max_pixels: u64,
    },
    #[error("unreadable image: {0}")]
    BadImage(String),
    /// No Tesseract library could be loaded (OCR loads it at run time, on first use).
    #[error(
        "OCR needs Tesseract, which is not installed: could not load {tried} ({detail}); \
         install it with `apt install libtesseract5 tesseract-ocr-eng` (or \
         scripts/setup-system.sh)"
    )]
    NoTesseract {
        /// The library names tried, in order.
        tried: String,
        /// Why each failed (the loader's messages).
        detail: String,
    },
    /// A library loaded under Tesseract's name lacks a function of its C API.
    #[error(
        "{library} is not a usable Tesseract (4 or 5): {detail}; install \
         `apt install libtesseract5 tesseract-ocr-eng` (or scripts/setup-system.sh)"
    )]
    BadTesseract { library: String, detail: String },
    #[error(
        "Tesseract could not start with English data ({0}); install tesseract-ocr and \
         tesseract-ocr-eng (scripts/setup-system.sh)"
    )]
    Init(String),
    #[error("Tesseract failed: {0}")]
    Ocr(String),
}
