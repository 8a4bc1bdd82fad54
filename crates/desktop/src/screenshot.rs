//! A PNG of the bound window, for the host's `screenshot` and `include_png`: the same
//! X11 `GetImage` of the window's box that OCR reads, in colour, encoded as PNG.

use crate::backend::DesktopBackend;
use crate::capture::{CaptureError, RgbShot, Screen};
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum ScreenshotError {
    /// The window's visible box holds more than [`MAX_SCREENSHOT_PIXELS`].
    #[error(
        "the window's visible box is {width}×{height} pixels, over the screenshot limit of \
         {max_pixels} pixels (screenshot_pixels)"
    )]
    TooLarge {
        width: u16,
        height: u16,
        max_pixels: u64,
    },
    #[error("{0}")]
    Failed(String),
}

/// Most pixels one window screenshot may hold: a 4K window (≈ 25 MB of RGB before
/// encoding). A bigger visible box is refused with this limit named.
pub const MAX_SCREENSHOT_PIXELS: u64 = 3840 * 2160;
/// The capture and the encoding together: the X server answers a local `GetImage` in
/// milliseconds; a display that stops answering must not hang the session.
const SCREENSHOT_TIMEOUT: Duration = Duration::from_secs(5);

impl DesktopBackend {
    /// A PNG of the window's box as the last observation measured it (what is on screen
    /// there, as a person sees it).
    pub async fn screenshot_png(&self) -> Result<Vec<u8>, ScreenshotError> {
        let Some(window) = self.window_bounds() else {
            return Err(ScreenshotError::Failed(format!(
                "{:?} reports no on-screen window box to capture; observe again",
                self.app().name
            )));
        };
        let display = self.display().map(str::to_owned);
        let task = tokio::task::spawn_blocking(move || {
            let screen = Screen::connect(display.as_deref())?;
            let shot = screen.grab_rgb(&window, MAX_SCREENSHOT_PIXELS)?;
            encode_png(&shot).map_err(ScreenshotError::Failed)
        });
        match tokio::time::timeout(SCREENSHOT_TIMEOUT, task).await {
            Ok(Ok(png)) => png,
            Ok(Err(e)) => Err(ScreenshotError::Failed(format!(
                "the screenshot task failed: {e}"
            ))),
            Err(_) => Err(ScreenshotError::Failed(format!(
                "the window screenshot took over {} s",
                SCREENSHOT_TIMEOUT.as_secs()
            ))),
        }
    }
}

impl From<CaptureError> for ScreenshotError {
    fn from(e: CaptureError) -> ScreenshotError {
        match e {
            CaptureError::TooLarge {
                width,
                height,
                max_pixels,
            } => ScreenshotError::TooLarge {
                width,
                height,
                max_pixels,
            },
            other => ScreenshotError::Failed(other.to_string()),
        }
    }
}

/// RGB rows as an 8-bit PNG (fast compression: a screenshot is read once).
pub fn encode_png(shot: &RgbShot) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, shot.width, shot.height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().map_err(|e| format!("PNG header: {e}"))?;
    writer
        .write_image_data(&shot.rgb)
        .map_err(|e| format!("PNG data: {e}"))?;
    writer.finish().map_err(|e| format!("PNG end: {e}"))?;
    Ok(out)
}
