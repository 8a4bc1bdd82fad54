//! A screenshot as it may leave the host: the target's PNG with every box the session's
//! redactor names (password fields, whatever shows a secret: `Redactor::secret_boxes`)
//! painted black, then encoded again. The bytes go out unchanged when no box meets the
//! image; a PNG that cannot be masked is an error, never sent as it is.

use arc_core::{Bounds, Redactor, Snapshot};
use std::io::Cursor;

/// Pixels painted beyond each box's edge: a glyph's antialiased edge, a field's border.
const MARGIN_PX: i64 = 2;

/// `png`, a picture of `snapshot`'s viewport (the page's, or the window's box on the
/// screen), with the secret boxes blacked out.
pub(crate) fn masked(
    png: Vec<u8>,
    snapshot: &Snapshot,
    redactor: &Redactor,
) -> Result<Vec<u8>, String> {
    let boxes = redactor.secret_boxes(snapshot);
    if boxes.is_empty() {
        return Ok(png);
    }
    let mut decoder = png::Decoder::new(Cursor::new(&png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| format!("PNG: {e}"))?;
    let size = reader
        .output_buffer_size()
        .ok_or("PNG: the image is too large")?;
    let mut pixels = vec![0; size];
    let frame = reader
        .next_frame(&mut pixels)
        .map_err(|e| format!("PNG: {e}"))?;
    pixels.truncate(frame.buffer_size());
    let image = Image {
        width: frame.width,
        height: frame.height,
        channels: frame.color_type.samples(),
        alpha: matches!(
            frame.color_type,
            png::ColorType::Rgba | png::ColorType::GrayscaleAlpha
        ),
    };
    let (origin, scale) = match snapshot.viewport {
        Some(v) if v.width > 0.0 => ((v.x, v.y), frame.width as f64 / v.width),
        _ => ((0.0, 0.0), 1.0),
    };
    let mut painted = false;
    for b in &boxes {
        painted |= image.black_out(&mut pixels, b, origin, scale);
    }
    if !painted {
        return Ok(png);
    }
    image.encode(&pixels, frame.color_type)
}

struct Image {
    width: u32,
    height: u32,
    channels: usize,
    alpha: bool,
}

impl Image {
    /// Paints `b` (snapshot coordinates) black and opaque; whether any pixel was in it.
    fn black_out(&self, pixels: &mut [u8], b: &Bounds, origin: (f64, f64), scale: f64) -> bool {
        let px = |v: f64, o: f64| ((v - o) * scale) as i64;
        let x0 = (px(b.x, origin.0) - MARGIN_PX).max(0);
        let y0 = (px(b.y, origin.1) - MARGIN_PX).max(0);
        let x1 =
            (((b.x + b.width - origin.0) * scale).ceil() as i64 + MARGIN_PX).min(self.width as i64);
        let y1 = (((b.y + b.height - origin.1) * scale).ceil() as i64 + MARGIN_PX)
            .min(self.height as i64);
        if x0 >= x1 || y0 >= y1 {
            return false;
        }
        let c = self.channels;
        let row = self.width as usize * c;
        for y in y0 as usize..y1 as usize {
            let line = &mut pixels[y * row + x0 as usize * c..y * row + x1 as usize * c];
            for p in line.chunks_exact_mut(c) {
                p.fill(0);
                if self.alpha {
                    p[c - 1] = 255;
                }
            }
        }
        true
    }

    /// 8-bit PNG, fast compression: a screenshot is read once.
    fn encode(&self, pixels: &[u8], color: png::ColorType) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header().map_err(|e| format!("PNG: {e}"))?;
        writer
            .write_image_data(pixels)
            .map_err(|e| format!("PNG: {e}"))?;
        writer.finish().map_err(|e| format!("PNG: {e}"))?;
        Ok(out)
    }
}
