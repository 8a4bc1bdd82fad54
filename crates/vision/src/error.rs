use thiserror::Error;

#[derive(Debug, Error)]
pub enum VisionError {
    #[error("image of {width}×{height} pixels: empty or over the limit of {max_pixels} pixels")]
    ImageSize {
        width: u32,
        height: u32,
        max_pixels: u64,
    },
    #[error("unreadable image: {0}")]
    BadImage(String),
    #[error(
        "Tesseract could not start with English data ({0}); install tesseract-ocr and \
         tesseract-ocr-eng (scripts/setup-system.sh)"
    )]
    Init(String),
    #[error("Tesseract failed: {0}")]
    Ocr(String),
}
