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

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::{Element, Role};

    /// A white RGB PNG of `w`×`h`.
    fn white(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(png::ColorType::Rgb);
        e.set_depth(png::BitDepth::Eight);
        let mut writer = e.write_header().unwrap();
        writer
            .write_image_data(&vec![255; (w * h * 3) as usize])
            .unwrap();
        writer.finish().unwrap();
        out
    }

    fn gray(png: &[u8]) -> (u32, Vec<u8>) {
        let mut reader = png::Decoder::new(Cursor::new(png)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        let c = frame.color_type.samples();
        (frame.width, buf.chunks_exact(c).map(|p| p[0]).collect())
    }

    fn snapshot(viewport: Bounds, elements: Vec<Element>) -> Snapshot {
        let mut s = Snapshot::new("app", "window", elements);
        s.viewport = Some(viewport);
        s
    }

    #[test]
    fn the_box_is_black_at_the_image_s_scale_and_offset_and_the_rest_untouched() {
        let mut field = Element::new("e1", Role::PasswordField, "Password");
        // A window at (100, 50) on the screen, pictured at 2×.
        field.bounds = Some(Bounds {
            x: 110.0,
            y: 60.0,
            width: 20.0,
            height: 10.0,
        });
        let viewport = Bounds {
            x: 100.0,
            y: 50.0,
            width: 100.0,
            height: 50.0,
        };
        let png = masked(
            white(200, 100),
            &snapshot(viewport, vec![field]),
            &Redactor::default(),
        )
        .unwrap();
        let (w, px) = gray(&png);
        let at = |x: u32, y: u32| px[(y * w + x) as usize];
        // The box is (20, 20)–(60, 40) in image pixels, plus the margin.
        for (x, y) in [(20, 20), (59, 39), (40, 30), (18, 18), (61, 41)] {
            assert_eq!(at(x, y), 0, "({x}, {y})");
        }
        for (x, y) in [(16, 30), (64, 30), (40, 16), (40, 44), (150, 80)] {
            assert_eq!(at(x, y), 255, "({x}, {y})");
        }
    }

    #[test]
    fn a_picture_with_nothing_secret_leaves_as_it_came() {
        let png = white(64, 32);
        let mut echo = Element::new("e1", Role::StaticText, "Welcome back");
        echo.bounds = Some(Bounds {
            x: 1.0,
            y: 1.0,
            width: 30.0,
            height: 10.0,
        });
        let viewport = Bounds {
            x: 0.0,
            y: 0.0,
            width: 64.0,
            height: 32.0,
        };
        let s = snapshot(viewport, vec![echo]);
        let redactor = Redactor::new(["hunter22"]);
        assert_eq!(masked(png.clone(), &s, &redactor).unwrap(), png);
        // A box wholly outside the picture paints nothing either.
        let mut far = Element::new("e2", Role::PasswordField, "Password");
        far.bounds = Some(Bounds {
            x: 500.0,
            y: 500.0,
            width: 30.0,
            height: 10.0,
        });
        assert_eq!(
            masked(png.clone(), &snapshot(viewport, vec![far]), &redactor).unwrap(),
            png
        );
        // Not a PNG: an error, never the bytes as they are.
        let mut field = Element::new("e3", Role::PasswordField, "Password");
        field.bounds = Some(viewport);
        let s = snapshot(viewport, vec![field]);
        assert!(masked(b"not a png".to_vec(), &s, &redactor).is_err());
    }
}
