//! A caption laid out beside or above its field in another container (a two-column grid
//! of captions and fields, a row of captions over a row of fields; no `<label>`, no aria):
//! read by layout, the way a person reads it — the text nearest to the left in the
//! field's row band, else the text just above that overlaps it horizontally. Document
//! order then misleads (the text before a column's first field is the previous column's
//! last caption), so a document-order candidate the layout contradicts gives way.

use super::facts::Facts;
use super::label::{left_on_row, usable};

/// How far above a field its caption may sit, in multiples of the field's height.
const ABOVE_REACH: f64 = 1.5;
/// Slack for borders and rounding, in pixels.
const SLACK: f64 = 2.0;

/// The caption layout gives field `i`: left on its row, else just above.
pub fn label(f: &Facts, i: usize) -> Option<usize> {
    left_on_row(f, i).or_else(|| above(f, i))
}

/// Whether text `p` cannot be field `i`'s caption by layout: it lies below the field,
/// right of it on its row, or above it without overlapping it horizontally.
pub fn misplaced(f: &Facts, p: usize, i: usize) -> bool {
    let (Some(pb), Some(ib)) = (f.els[p].bounds, f.els[i].bounds) else {
        return false;
    };
    let below = pb.y >= ib.y + ib.height - SLACK;
    let same_row = (pb.center().1 - ib.center().1).abs() <= ib.height.max(pb.height) / 2.0;
    let right = same_row && pb.x >= ib.x + ib.width - SLACK;
    let overlaps = pb.x < ib.x + ib.width && ib.x < pb.x + pb.width;
    let above_beside = !same_row && pb.y + pb.height <= ib.y + SLACK && !overlaps;
    below || right || above_beside
}

/// The nearest usable text just above field `i` that overlaps it horizontally.
fn above(f: &Facts, i: usize) -> Option<usize> {
    let b = f.els[i].bounds?;
    let reach = ABOVE_REACH * b.height.max(16.0);
    let mut best: Option<(f64, usize)> = None;
    for j in 0..f.len() {
        if j == i || !usable(f, j) || f.is_descendant(i, j) {
            continue;
        }
        let Some(lb) = f.els[j].bounds else { continue };
        let gap = b.y - (lb.y + lb.height);
        let overlaps = lb.x < b.x + b.width && b.x < lb.x + lb.width;
        if overlaps && (-SLACK..=reach).contains(&gap) && best.is_none_or(|(g, _)| gap < g) {
            best = Some((gap, j));
        }
    }
    best.map(|(_, j)| j)
}
