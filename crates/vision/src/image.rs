//! The 8-bit grayscale image OCR reads, and the few operations it needs: from X11's
//! BGRX rows or a PNG, crop, 2× upscale, and PGM (a dump any image viewer opens).

use crate::error::VisionError;

/// Most pixels one image may hold (a 4K screen at 2×): a bound on memory and OCR time.
pub const MAX_PIXELS: u64 = 3840 * 2160 * 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrayImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

/// ITU-R BT.601 luma in integers.
fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((r as u32 * 299 + g as u32 * 587 + b as u32 * 114) / 1000) as u8
}

fn check_size(width: u32, height: u32) -> Result<(), VisionError> {
    let n = width as u64 * height as u64;
    if width == 0 || height == 0 || n > MAX_PIXELS {
        return Err(VisionError::ImageSize {
            width,
            height,
            max_pixels: MAX_PIXELS,
        });
    }
    Ok(())
}

impl GrayImage {
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Result<GrayImage, VisionError> {
        check_size(width, height)?;
        if pixels.len() != width as usize * height as usize {
            return Err(VisionError::BadImage(format!(
                "{} bytes for {width}×{height} grayscale pixels",
                pixels.len()
            )));
        }
        Ok(GrayImage {
            width,
            height,
            pixels,
        })
    }

    /// Four bytes per pixel in blue, green, red, pad order (X11 ZPixmap at depth 24/32 on a
    /// little-endian server), `stride` bytes per row.
    pub fn from_bgrx(
        width: u32,
        height: u32,
        stride: usize,
        data: &[u8],
    ) -> Result<GrayImage, VisionError> {
        check_size(width, height)?;
        let w = width as usize;
        if stride < w * 4 || data.len() < stride * (height as usize - 1) + w * 4 {
            return Err(VisionError::BadImage(format!(
                "{} bytes, stride {stride}, for {width}×{height} BGRX pixels",
                data.len()
            )));
        }
        let mut pixels = Vec::with_capacity(w * height as usize);
        for row in data.chunks(stride).take(height as usize) {
            pixels.extend(row[..w * 4].chunks_exact(4).map(|p| luma(p[2], p[1], p[0])));
        }
        GrayImage::new(width, height, pixels)
    }

    /// A PNG (a CDP screenshot): any colour type, 8 or 16 bits, alpha over white.
    pub fn from_png(bytes: &[u8]) -> Result<GrayImage, VisionError> {
        let bad = |e: &dyn std::fmt::Display| VisionError::BadImage(format!("PNG: {e}"));
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(|e| bad(&e))?;
        let (w, h) = (reader.info().width, reader.info().height);
        check_size(w, h)?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| bad(&"image too large"))?;
        let mut buf = vec![0; size];
        let frame = reader.next_frame(&mut buf).map_err(|e| bad(&e))?;
        let data = &buf[..frame.buffer_size()];
        let over_white =
            |v: u8, a: u8| ((v as u32 * a as u32 + 255 * (255 - a as u32)) / 255) as u8;
        let pixels: Vec<u8> = match frame.color_type {
            png::ColorType::Grayscale => data.to_vec(),
            png::ColorType::GrayscaleAlpha => data
                .chunks_exact(2)
                .map(|p| over_white(p[0], p[1]))
                .collect(),
            png::ColorType::Rgb => data
                .chunks_exact(3)
                .map(|p| luma(p[0], p[1], p[2]))
                .collect(),
            png::ColorType::Rgba => data
                .chunks_exact(4)
                .map(|p| over_white(luma(p[0], p[1], p[2]), p[3]))
                .collect(),
            png::ColorType::Indexed => return Err(bad(&"palette not expanded")),
        };
        GrayImage::new(w, h, pixels)
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The pixel at (x, y); outside the image reads as white (paper).
    pub fn get(&self, x: i64, y: i64) -> u8 {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return 255;
        }
        self.pixels[y as usize * self.width as usize + x as usize]
    }

    /// The part inside (x, y, w, h), clipped to the image; `None` when nothing is left.
    pub fn crop(&self, x: i64, y: i64, w: i64, h: i64) -> Option<GrayImage> {
        let x0 = x.clamp(0, self.width as i64);
        let y0 = y.clamp(0, self.height as i64);
        let x1 = (x + w).clamp(0, self.width as i64);
        let y1 = (y + h).clamp(0, self.height as i64);
        if x1 <= x0 || y1 <= y0 {
            return None;
        }
        let mut pixels = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
        for row in y0..y1 {
            let start = row as usize * self.width as usize;
            pixels.extend_from_slice(&self.pixels[start + x0 as usize..start + x1 as usize]);
        }
        Some(GrayImage {
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
            pixels,
        })
    }

    /// Twice as wide and high, each pixel repeated: Tesseract reads small UI text far
    /// better at 2× (platform notes), and repeating keeps edges sharp.
    pub fn upscale2(&self) -> Result<GrayImage, VisionError> {
        let (w, h) = (self.width as usize, self.height as usize);
        check_size(self.width * 2, self.height * 2)?;
        let mut pixels = Vec::with_capacity(w * h * 4);
        for row in self.pixels.chunks_exact(w) {
            let start = pixels.len();
            pixels.extend(row.iter().flat_map(|&p| [p, p]));
            pixels.extend_from_within(start..);
        }
        Ok(GrayImage {
            width: self.width * 2,
            height: self.height * 2,
            pixels,
        })
    }

    /// The image as a binary PGM file.
    pub fn to_pgm(&self) -> Vec<u8> {
        let mut out = format!("P5\n{} {}\n255\n", self.width, self.height).into_bytes();
        out.extend_from_slice(&self.pixels);
        out
    }
}
