//! The pixels of the target window, for OCR and screenshots: one X11 `GetImage` of the
//! window's rectangle on the root window (screen coordinates, as AT-SPI reports extents),
//! so what overlaps the window is what a person sees there too.

use arc_core::element::Bounds;
use arc_vision::GrayImage;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, ImageOrder, Window};
use x11rb::rust_connection::RustConnection;

#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    #[error("cannot open the X display for a screenshot (is DISPLAY set?): {0}")]
    Connect(String),
    #[error("X GetImage failed: {0}")]
    Request(String),
    #[error("the window box {0:?} lies off the {1}×{2} screen")]
    OffScreen(Bounds, u16, u16),
    #[error("unsupported screen format: depth {depth}, {bpp} bits per pixel, {order}")]
    Format {
        depth: u8,
        bpp: u8,
        order: &'static str,
    },
    #[error("screenshot: {0}")]
    Image(#[from] arc_vision::VisionError),
    #[error(
        "the window's visible box is {width}×{height} pixels, over the screenshot limit of \
         {max_pixels} pixels"
    )]
    TooLarge {
        width: u16,
        height: u16,
        max_pixels: u64,
    },
}

pub struct Screen {
    conn: RustConnection,
    root: Window,
    width: u16,
    height: u16,
}

impl Screen {
    /// Opens `display` (`None`: `$DISPLAY`).
    pub fn connect(display: Option<&str>) -> Result<Screen, CaptureError> {
        let (conn, n) =
            x11rb::connect(display).map_err(|e| CaptureError::Connect(e.to_string()))?;
        let s = &conn.setup().roots[n];
        let (root, width, height) = (s.root, s.width_in_pixels, s.height_in_pixels);
        Ok(Screen {
            conn,
            root,
            width,
            height,
        })
    }

    /// The grayscale pixels inside `rect` (clipped to the screen), and the screen point of
    /// the image's top-left pixel.
    pub fn grab(&self, rect: &Bounds) -> Result<(GrayImage, (f64, f64)), CaptureError> {
        let raw = self.get_image(rect, u64::MAX)?;
        let img = GrayImage::from_bgrx(raw.width, raw.height, raw.stride, &raw.data)?;
        Ok((img, raw.origin))
    }

    /// The pixels inside `rect` (clipped to the screen) as 8-bit RGB rows, refused when
    /// the clipped box holds more than `max_pixels`.
    pub fn grab_rgb(&self, rect: &Bounds, max_pixels: u64) -> Result<RgbShot, CaptureError> {
        let raw = self.get_image(rect, max_pixels)?;
        let (w, h) = (raw.width as usize, raw.height as usize);
        let mut rgb = Vec::with_capacity(w * h * 3);
        for row in raw.data.chunks(raw.stride).take(h) {
            for p in row[..w * 4].chunks_exact(4) {
                rgb.extend_from_slice(&[p[2], p[1], p[0]]);
            }
        }
        Ok(RgbShot {
            width: raw.width,
            height: raw.height,
            rgb,
        })
    }

    /// One `GetImage` of `rect` clipped to the screen, as BGRX rows (checked).
    fn get_image(&self, rect: &Bounds, max_pixels: u64) -> Result<Raw, CaptureError> {
        let x0 = rect.x.round().clamp(0.0, self.width as f64) as i32;
        let y0 = rect.y.round().clamp(0.0, self.height as f64) as i32;
        let x1 = (rect.x + rect.width).round().clamp(0.0, self.width as f64) as i32;
        let y1 = (rect.y + rect.height)
            .round()
            .clamp(0.0, self.height as f64) as i32;
        if x1 <= x0 || y1 <= y0 {
            return Err(CaptureError::OffScreen(*rect, self.width, self.height));
        }
        let (w, h) = ((x1 - x0) as u16, (y1 - y0) as u16);
        if w as u64 * h as u64 > max_pixels {
            return Err(CaptureError::TooLarge {
                width: w,
                height: h,
                max_pixels,
            });
        }
        let req = |e: &dyn std::fmt::Display| CaptureError::Request(e.to_string());
        let reply = self
            .conn
            .get_image(
                ImageFormat::Z_PIXMAP,
                self.root,
                x0 as i16,
                y0 as i16,
                w,
                h,
                !0,
            )
            .map_err(|e| req(&e))?
            .reply()
            .map_err(|e| req(&e))?;
        let setup = self.conn.setup();
        let bpp = setup
            .pixmap_formats
            .iter()
            .find(|f| f.depth == reply.depth)
            .map_or(0, |f| f.bits_per_pixel);
        let lsb = setup.image_byte_order == ImageOrder::LSB_FIRST;
        if bpp != 32 || reply.depth < 24 || !lsb {
            return Err(CaptureError::Format {
                depth: reply.depth,
                bpp,
                order: if lsb { "LSB first" } else { "MSB first" },
            });
        }
        let stride = reply.data.len() / h as usize;
        if stride < w as usize * 4 {
            return Err(CaptureError::Request(format!(
                "{} bytes for {w}×{h} pixels",
                reply.data.len()
            )));
        }
        Ok(Raw {
            width: w as u32,
            height: h as u32,
            stride,
            data: reply.data,
            origin: (x0 as f64, y0 as f64),
        })
    }
}

struct Raw {
    width: u32,
    height: u32,
    stride: usize,
    data: Vec<u8>,
    origin: (f64, f64),
}

/// A screenshot: 8-bit RGB rows, top to bottom.
pub struct RgbShot {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}
