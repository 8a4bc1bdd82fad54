//! The label of an unnamed control, read the way a person reads a form: the nearest text
//! sibling before it, else the text just before it in document order, else the text to
//! its left on the same row.

use super::facts::Facts;
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
    preceding_sibling(f, i)
        .or_else(|| preceding_text(f, i))
        .or_else(|| left_on_row(f, i))
}

fn usable(f: &Facts, j: usize) -> bool {
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

fn left_on_row(f: &Facts, i: usize) -> Option<usize> {
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
