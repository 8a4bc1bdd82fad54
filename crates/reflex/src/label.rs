//! The label of an unnamed control, read the way a person reads a form: the nearest text
//! sibling before it, else the text just before it in document order, else the text to
//! its left on the same row — unless a caption sits right under the control, closer than
//! the text above it (then the text above is the previous control's caption). Text
//! before it in document order that the layout puts elsewhere (below it, in another
//! column) gives way to the caption `layout_label` reads beside or above it.

use super::facts::Facts;
use super::layout_label;
use arc_core::Role;

/// How far back a label may sit in document order.
const LOOKBACK: usize = 12;
/// How far left of a control a same-row label may sit, in pixels.
const ROW_REACH: f64 = 320.0;

fn is_text(role: &Role) -> bool {
    matches!(
        role,
        Role::StaticText
            | Role::Label
            | Role::Paragraph
            | Role::VisibleText
            | Role::Generic
            | Role::Cell
            | Role::RowHeader
    )
}

/// The index of the element whose text labels control `i`, if any.
pub fn adjacent_label(f: &Facts, i: usize) -> Option<usize> {
    let layout = layout_label::label(f, i);
    // Text before the field in document order that the layout puts elsewhere (below it,
    // in another column) is another field's caption when the layout offers one.
    let before = preceding_sibling(f, i)
        .or_else(|| preceding_text(f, i))
        .filter(|&p| !(layout.is_some_and(|l| l != p) && layout_label::misplaced(f, p, i)));
    match (before, caption_below(f, i)) {
        (Some(p), Some((n, below))) if below < gap_above(f, p, i) => Some(n),
        (Some(p), _) => Some(p),
        (None, Some((n, _))) => Some(n),
        (None, None) => layout,
    }
}

/// How far a caption under a control may sit, in pixels (about half a line).
const CAPTION_REACH: f64 = 8.0;

/// Vertical gap from text `p` down to control `i` (0 when they share a row).
fn gap_above(f: &Facts, p: usize, i: usize) -> f64 {
    match (f.els[p].bounds, f.els[i].bounds) {
        (Some(pb), Some(ib)) => (ib.y - (pb.y + pb.height)).max(0.0),
        _ => 0.0,
    }
}

/// The text sibling right after control `i`, just under it and overlapping it
/// horizontally: (index, gap in pixels).
fn caption_below(f: &Facts, i: usize) -> Option<(usize, f64)> {
    let b = f.els[i].bounds?;
    let parent = f.els[i].parent_id.as_ref();
    let j = (i + 1..f.len().min(i + 1 + LOOKBACK))
        .filter(|&j| f.els[j].parent_id.as_ref() == parent)
        .find(|&j| is_control(f, j) || usable(f, j))?;
    if is_control(f, j) {
        return None;
    }
    let lb = f.els[j].bounds?;
    let gap = lb.y - (b.y + b.height);
    let overlaps = lb.x < b.x + b.width && b.x < lb.x + lb.width;
    ((-2.0..=CAPTION_REACH).contains(&gap) && overlaps).then_some((j, gap.max(0.0)))
}

pub(super) fn usable(f: &Facts, j: usize) -> bool {
    let e = &f.els[j];
    e.visible && is_text(&e.role) && !f.name(j).is_empty() && e.actions.is_empty()
}

/// A control between a label and `i` means the label belongs to that control.
fn is_control(f: &Facts, j: usize) -> bool {
    let e = &f.els[j];
    e.visible && !e.actions.is_empty() && !is_text(&e.role)
}

fn preceding_sibling(f: &Facts, i: usize) -> Option<usize> {
    let parent = f.els[i].parent_id.as_ref();
    for j in (i.saturating_sub(LOOKBACK)..i).rev() {
        if f.els[j].parent_id.as_ref() != parent {
            continue;
        }
        if is_control(f, j) {
            return None;
        }
        if usable(f, j) {
            return Some(j);
        }
    }
    None
}

fn preceding_text(f: &Facts, i: usize) -> Option<usize> {
    for j in (i.saturating_sub(LOOKBACK)..i).rev() {
        if is_control(f, j) {
            return None;
        }
        if usable(f, j) && !f.is_descendant(i, j) {
            return Some(j);
        }
    }
    None
}

pub(super) fn left_on_row(f: &Facts, i: usize) -> Option<usize> {
    let b = f.els[i].bounds?;
    let (_, cy) = b.center();
    let mut best: Option<(f64, usize)> = None;
    for (j, e) in f.els.iter().enumerate() {
        if j == i || !usable(f, j) {
            continue;
        }
        let Some(lb) = e.bounds else { continue };
        let same_row = (lb.center().1 - cy).abs() <= b.height.max(lb.height) / 2.0;
        let gap = b.x - (lb.x + lb.width);
        if same_row && (-2.0..=ROW_REACH).contains(&gap) && best.is_none_or(|(g, _)| gap < g) {
            best = Some((gap, j));
        }
    }
    best.map(|(_, j)| j)
}
