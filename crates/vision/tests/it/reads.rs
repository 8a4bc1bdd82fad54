//! The provider reads a frame with Tesseract only when its pixels (or the upscale they
//! need) changed since the last call: an unchanged window or canvas costs no OCR pass.

use arc_vision::{Frame, GrayImage, OcrProvider};

fn frame(image: &GrayImage, scale: f64) -> Frame<'_> {
    Frame {
        image,
        origin: (0.0, 0.0),
        scale,
        parent: None,
    }
}

/// White, with a dark block at `x` (a change a person would see).
fn image(x: usize) -> GrayImage {
    let (w, h) = (160, 48);
    let mut px = vec![255u8; w * h];
    for y in 16..32 {
        px[y * w + x..y * w + x + 24].fill(0);
    }
    GrayImage::new(w as u32, h as u32, px).unwrap()
}

#[test]
fn only_changed_pixels_are_read_again() {
    let mut p = OcrProvider::new().expect("Tesseract starts (scripts/setup-system.sh)");
    let (a, b) = (image(10), image(90));
    p.perceive(&[frame(&a, 1.0)], &[]).unwrap();
    p.perceive(&[frame(&a, 1.0)], &[]).unwrap();
    assert_eq!(p.passes(), 1, "the same pixels were read twice");
    // Two frames, one unchanged and one new: only the new one is read.
    p.perceive(&[frame(&b, 1.0), frame(&a, 1.0)], &[]).unwrap();
    assert_eq!(p.passes(), 2);
    // The same pixels at 2× need no upscale: a different read.
    p.perceive(&[frame(&b, 2.0)], &[]).unwrap();
    assert_eq!(p.passes(), 3);
    p.forget_reads();
    p.perceive(&[frame(&b, 2.0)], &[]).unwrap();
    assert_eq!(p.passes(), 4, "forget_reads makes the next call read");
}
