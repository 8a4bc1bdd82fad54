//! `--ocr auto|always|never`: when OCR'd text joins a snapshot (a desktop window's
//! pixels, a page's `<canvas>` regions).

use arc_vision::OcrMode;
use clap::Args;

#[derive(Args, Clone, Copy, Debug, Default)]
pub struct OcrArgs {
    /// OCR (Tesseract): `auto` reads a desktop window only when it exposes no labelled,
    /// enabled control, and a page's <canvas> regions; `always`; `never`.
    #[arg(long = "ocr", value_name = "MODE", default_value = "auto", value_parser = parse_mode)]
    pub mode: OcrMode,
}

fn parse_mode(s: &str) -> Result<OcrMode, String> {
    s.parse()
}
