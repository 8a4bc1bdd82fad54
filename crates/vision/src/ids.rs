//! Spatial identity for OCR elements: an id says *where* a text is and how big, never
//! what it reads, so OCR noise ("Subrnit" for "Submit") is not new UI.
//!
//! A region first seen gets the id of its grid cell (`o{cx}.{cy}.{w}.{h}`: centre on a
//! 16 px grid, width on 32 px, height on 16 px). Later observations keep the id of the
//! previous region it overlaps most (IoU ≥ 0.5), so a box jittering across a cell boundary
//! keeps its id. Its guard is its current grid cell: moved or resized is stale.

use crate::geometry::iou;
use arc_core::element::{Bounds, Guard};
use std::collections::HashSet;

const CENTRE_CELL: f64 = 16.0;
const WIDTH_CELL: f64 = 32.0;
const HEIGHT_CELL: f64 = 16.0;
/// Overlap with last observation's region that keeps its id.
const KEEP_IOU: f64 = 0.5;
/// Regions remembered from one observation (a bound on memory; a window rarely has more).
const MAX_REMEMBERED: usize = 4096;

/// The grid cell of a box: what the id and the guard are made of.
pub fn cell(b: &Bounds) -> String {
    let (cx, cy) = b.center();
    format!(
        "{}.{}.{}.{}",
        (cx / CENTRE_CELL).floor() as i64,
        (cy / CENTRE_CELL).floor() as i64,
        (b.width / WIDTH_CELL).round() as i64,
        (b.height / HEIGHT_CELL).round() as i64
    )
}

pub fn guard(b: &Bounds) -> Guard {
    Guard(format!("ocr:{}", cell(b)))
}

/// The ids of one session's OCR regions, remembered from one observation to the next.
#[derive(Default)]
pub struct SpatialIds {
    last: Vec<(String, Bounds)>,
}

impl SpatialIds {
    /// Ids for `boxes`, in order; distinct within the call.
    pub fn assign(&mut self, boxes: &[Bounds]) -> Vec<String> {
        let mut taken: HashSet<String> = HashSet::new();
        let mut out = Vec::with_capacity(boxes.len());
        for b in boxes {
            let kept = self
                .last
                .iter()
                .map(|(id, old)| (id, iou(old, b)))
                .filter(|(id, o)| *o >= KEEP_IOU && !taken.contains(id.as_str()))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(id, _)| id.clone());
            let id = kept.unwrap_or_else(|| {
                let base = format!("o{}", cell(b));
                let mut id = base.clone();
                let mut n = 1;
                while taken.contains(&id) || self.last.iter().any(|(l, _)| *l == id) {
                    n += 1;
                    id = format!("{base}~{n}");
                }
                id
            });
            taken.insert(id.clone());
            out.push(id);
        }
        self.last = out
            .iter()
            .cloned()
            .zip(boxes.iter().copied())
            .take(MAX_REMEMBERED)
            .collect();
        out
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
    fn ids_follow_place_not_spelling_and_survive_jitter() {
        let mut ids = SpatialIds::default();
        let first = ids.assign(&[b(100.0, 40.0, 60.0, 14.0), b(300.0, 40.0, 60.0, 14.0)]);
        assert_eq!(first[0], "o8.2.2.1");
        // The centre crossed a cell boundary (x 130 → 128.5), the id stays.
        let second = ids.assign(&[b(300.0, 41.0, 58.0, 13.0), b(98.5, 40.0, 60.0, 14.0)]);
        assert_eq!(second, [first[1].clone(), first[0].clone()]);
    }

    #[test]
    fn two_regions_in_one_cell_get_distinct_ids_and_moved_boxes_new_ones() {
        let mut ids = SpatialIds::default();
        let got = ids.assign(&[b(0.0, 0.0, 30.0, 14.0), b(2.0, 1.0, 28.0, 14.0)]);
        assert_ne!(got[0], got[1]);
        let moved = ids.assign(&[b(400.0, 300.0, 30.0, 14.0)]);
        assert!(!got.contains(&moved[0]));
        assert_ne!(
            guard(&b(0.0, 0.0, 30.0, 14.0)),
            guard(&b(400.0, 300.0, 30.0, 14.0))
        );
    }
}
