//! Box arithmetic for deduplication and coverage.

use arc_core::element::Bounds;

pub fn intersection(a: &Bounds, b: &Bounds) -> f64 {
    let w = (a.x + a.width).min(b.x + b.width) - a.x.max(b.x);
    let h = (a.y + a.height).min(b.y + b.height) - a.y.max(b.y);
    if w <= 0.0 || h <= 0.0 {
        0.0
    } else {
        w * h
    }
}

/// Intersection over union, 0 for disjoint or empty boxes.
pub fn iou(a: &Bounds, b: &Bounds) -> f64 {
    let i = intersection(a, b);
    let u = a.area() + b.area() - i;
    if u <= 0.0 {
        0.0
    } else {
        i / u
    }
}

/// The share of `inner`'s area that lies inside `outer`.
pub fn covered_share(inner: &Bounds, outer: &Bounds) -> f64 {
    let a = inner.area();
    if a <= 0.0 {
        0.0
    } else {
        intersection(inner, outer) / a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f64, y: f64, w: f64, h: f64) -> Bounds {
        Bounds {
            x,
            y,
            width: w,
            height: h,
        }
    }

    #[test]
    fn iou_of_known_boxes() {
        assert_eq!(iou(&b(0.0, 0.0, 10.0, 10.0), &b(0.0, 0.0, 10.0, 10.0)), 1.0);
        assert_eq!(
            iou(&b(0.0, 0.0, 10.0, 10.0), &b(20.0, 0.0, 10.0, 10.0)),
            0.0
        );
        // Half of each overlaps: 50 / 150.
        assert!((iou(&b(0.0, 0.0, 10.0, 10.0), &b(5.0, 0.0, 10.0, 10.0)) - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(
            covered_share(&b(2.0, 2.0, 4.0, 4.0), &b(0.0, 0.0, 10.0, 10.0)),
            1.0
        );
        assert_eq!(
            covered_share(&b(0.0, 0.0, 0.0, 4.0), &b(0.0, 0.0, 10.0, 10.0)),
            0.0
        );
    }
}
