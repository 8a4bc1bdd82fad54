//! Which text regions look like text inputs, decided from pixels alone.
//!
//! The rule: a region is an input when it sits in a **bordered box** (a contrasting edge
//! close above, below and left of it, and somewhere to its right) and the text is **left
//! aligned with room after it**: the empty run right of the text is at least twice the
//! one left of it and at least one text height. That is a field holding a value or a
//! placeholder; a button's label is centred (equal runs) and plain text has no box.
//! Not found: an empty box with no text in it (nothing to anchor the search on).

use crate::image::GrayImage;
use arc_core::element::Bounds;

/// A grey-level difference from the background that counts as an edge.
const EDGE_CONTRAST: i32 = 48;

/// Whether `r` (in `img`'s pixels) looks like the text of an input field.
pub fn looks_like_input(img: &GrayImage, r: &Bounds) -> bool {
    let h = r.height.max(4.0);
    let (x0, y0) = (r.x.floor() as i64, r.y.floor() as i64);
    let (x1, y1) = (
        (r.x + r.width).ceil() as i64,
        (r.y + r.height).ceil() as i64,
    );
    let cy = (y0 + y1) / 2;
    let cx = (x0 + x1) / 2;
    let near = (1.5 * h).ceil() as i64 + 2;
    let far = (40.0 * h).ceil() as i64;
    // Each scan starts one pixel out: a box read from a line crop can sit a pixel inside
    // its antialiased ink, and that fringe is not the field's border.
    let Some(left) = run(img, x0 - 2, cy, -1, 0, near) else {
        return false;
    };
    let Some(right) = run(img, x1 + 1, cy, 1, 0, far) else {
        return false;
    };
    if run(img, cx, y0 - 2, 0, -1, near).is_none() || run(img, cx, y1 + 1, 0, 1, near).is_none() {
        return false;
    }
    right as f64 >= (2.0 * left as f64).max(h)
}

/// Steps from (x, y) by (dx, dy) over background until a pixel contrasts with it;
/// the number of background pixels crossed, or `None` when no edge is within `limit`.
fn run(img: &GrayImage, x: i64, y: i64, dx: i64, dy: i64, limit: i64) -> Option<i64> {
    let bg = img.get(x, y) as i32;
    (1..=limit).find_map(|i| {
        let (px, py) = (x + dx * i, y + dy * i);
        if px < 0 || py < 0 || px >= img.width() as i64 || py >= img.height() as i64 {
            return Some(None);
        }
        ((img.get(px, py) as i32 - bg).abs() >= EDGE_CONTRAST).then_some(Some(i))
    })?
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white canvas with a one-pixel grey rectangle border and a dark "text" block.
    fn canvas(border: Option<(i64, i64, i64, i64)>, text: (i64, i64, i64, i64)) -> GrayImage {
        let (w, h) = (400u32, 100u32);
        let mut px = vec![255u8; (w * h) as usize];
        let mut set = |x: i64, y: i64, v: u8| px[(y * w as i64 + x) as usize] = v;
        if let Some((bx, by, bw, bh)) = border {
            for x in bx..bx + bw {
                set(x, by, 120);
                set(x, by + bh - 1, 120);
            }
            for y in by..by + bh {
                set(bx, y, 120);
                set(bx + bw - 1, y, 120);
            }
        }
        let (tx, ty, tw, th) = text;
        for y in ty..ty + th {
            for x in tx..tx + tw {
                if (x + y) % 3 == 0 {
                    set(x, y, 0);
                }
            }
        }
        GrayImage::new(w, h, px).unwrap()
    }

    fn text_box(t: (i64, i64, i64, i64)) -> Bounds {
        Bounds {
            x: t.0 as f64,
            y: t.1 as f64,
            width: t.2 as f64,
            height: t.3 as f64,
        }
    }

    #[test]
    fn left_aligned_text_in_a_wide_box_is_an_input() {
        let t = (26, 40, 50, 12);
        assert!(looks_like_input(
            &canvas(Some((20, 34, 300, 24)), t),
            &text_box(t)
        ));
    }

    #[test]
    fn a_centred_label_in_a_box_is_a_button_not_an_input() {
        let t = (145, 40, 50, 12);
        assert!(!looks_like_input(
            &canvas(Some((20, 34, 300, 24)), t),
            &text_box(t)
        ));
    }

    #[test]
    fn text_without_a_box_is_not_an_input() {
        let t = (26, 40, 50, 12);
        assert!(!looks_like_input(&canvas(None, t), &text_box(t)));
    }

    #[test]
    fn a_box_too_far_above_and_below_is_not_this_texts_field() {
        let t = (26, 45, 50, 12);
        assert!(!looks_like_input(
            &canvas(Some((20, 2, 300, 96)), t),
            &text_box(t)
        ));
    }
}
