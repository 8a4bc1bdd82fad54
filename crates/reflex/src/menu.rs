//! Menu paths: an object naming items separated by `>` or `›` ("Select Jinny>Lynett",
//! "open File > Save As") is walked item by item. Each decision finds the deepest path
//! item visible on the snapshot: the leaf is clicked (once); an item whose next item is
//! not visible yet is hovered (once), and if hovering did not reveal the next item after
//! one WAIT ([`HOVER_WAITS`] when the page reacted to the hover), clicked instead (many menus open on click) — but a path item is never
//! clicked twice, and a parent is never clicked while hovering opens it (some menus treat
//! a click on a parent as choosing it). The walk is bounded: at most twice the path's
//! length of hovers and clicks on its items.

use super::facts::Facts;
use super::history;
use super::inputs::describe;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::normalize;
use arc_core::{Action, ActionKind, ActionRecord};

const SEPARATORS: [char; 2] = ['>', '›'];

/// WAITs a hovered item gets to open its submenu before it is clicked instead, when the
/// page reacted to the hover (a highlight): hover menus often open on a timer (jQuery UI:
/// 300 ms after the pointer arrives), which one short WAIT (150 ms on a synchronous page)
/// can miss; the executor's default WAIT (500 ms) covers it at once. A hover the page
/// did not react to at all gets one WAIT.
pub const HOVER_WAITS: usize = 2;

/// The ordered, normalized items of a menu path, when `text` names one (two or more
/// non-empty items between separators).
pub fn path(text: &str) -> Option<Vec<String>> {
    if !text.contains(SEPARATORS) {
        return None;
    }
    let items: Vec<String> = text
        .split(SEPARATORS)
        .map(|part| {
            let n = normalize(part);
            n.strip_prefix("the ").map(str::to_owned).unwrap_or(n)
        })
        .collect();
    (items.len() >= 2 && items.iter().all(|i| !i.is_empty())).then_some(items)
}

/// The first visible element named exactly `item` that a pointer can act on.
fn visible(f: &Facts, item: &str) -> Option<usize> {
    (0..f.len()).find(|&i| {
        let e = &f.els[i];
        e.visible
            && f.name(i) == item
            && (e.actions.contains(ActionKind::Click) || e.actions.contains(ActionKind::Hover))
    })
}

fn named(r: &ActionRecord, item: &str) -> bool {
    r.target_name
        .as_deref()
        .is_some_and(|n| normalize(n) == item)
}

fn ran(h: &[ActionRecord], kind: ActionKind, item: &str) -> bool {
    h.iter().any(|r| r.action.kind() == kind && named(r, item))
}

/// The run's own evidence that the path was chosen: each item hovered or clicked in
/// order, the leaf clicked last among them (each click hit-tested on its target before
/// it was pressed). Menu items usually vanish once chosen, so the page cannot show it.
pub fn walked(h: &[ActionRecord], path: &[String]) -> Result<(), String> {
    let mut at = 0;
    for (k, item) in path.iter().enumerate() {
        let leaf = k + 1 == path.len();
        let found = h[at..].iter().position(|r| {
            let kind = r.action.kind();
            named(r, item)
                && r.on_target()
                && (kind == ActionKind::Click || (!leaf && kind == ActionKind::Hover))
        });
        match found {
            Some(p) => at += p + 1,
            None if leaf => return Err(format!("no click on {item:?} after its parents")),
            None => return Err(format!("{item:?} was never opened")),
        }
    }
    Ok(())
}

/// Where walking `path` stands on this snapshot.
pub fn status(f: &Facts, h: &[ActionRecord], path: &[String]) -> Status {
    let leaf = path.len() - 1;
    if walked(h, path).is_ok() {
        return Status::Done;
    }
    let steps = h
        .iter()
        .filter(|r| {
            matches!(r.action.kind(), ActionKind::Click | ActionKind::Hover)
                && path.iter().any(|item| named(r, item))
        })
        .count();
    if steps >= 2 * path.len() {
        return Status::Stop(Outcome::NeedsAgent(format!(
            "the menu path {:?} did not open within {steps} steps",
            path.join(" > ")
        )));
    }
    let Some((k, i)) = (0..path.len())
        .rev()
        .find_map(|k| visible(f, &path[k]).map(|i| (k, i)))
    else {
        return Status::Absent(format!(
            "no element matches {:?} (the first item of the menu path {:?})",
            path[0],
            path.join(" > ")
        ));
    };
    let click = |why: String| {
        Status::Pending(Act {
            action: Action::click(f.els[i].id.clone()),
            kind: StepKind::Click,
            confidence: 1.0,
            margin: 1.0,
            why,
            order: i,
        })
    };
    if k == leaf {
        return click(format!("menu path leaf → {}", describe(f, i)));
    }
    let item = &path[k];
    let hover = h
        .iter()
        .rev()
        .find(|r| r.action.kind() == ActionKind::Hover && named(r, item));
    let hovered = hover.is_some();
    let waits = if hover.is_some_and(|r| r.state_changed) {
        HOVER_WAITS
    } else {
        1
    };
    if !hovered && f.els[i].actions.contains(ActionKind::Hover) {
        return Status::Pending(Act {
            action: Action::Hover {
                target: f.els[i].id.clone(),
            },
            kind: StepKind::Hover,
            confidence: 1.0,
            margin: 1.0,
            why: format!(
                "open menu item {} to reach {:?}",
                describe(f, i),
                path[k + 1]
            ),
            order: i,
        });
    }
    if ran(h, ActionKind::Click, item) {
        return Status::Stop(Outcome::NeedsAgent(format!(
            "{} was hovered and clicked but {:?} did not appear",
            describe(f, i),
            path[k + 1]
        )));
    }
    // Hovered: give the submenu its timer before clicking the item instead.
    if hovered && history::trailing_waits(h) < waits {
        return Status::Stop(Outcome::Wait(format!(
            "waiting for {:?} to open under {}",
            path[k + 1],
            describe(f, i)
        )));
    }
    click(format!(
        "hovering did not open {}: clicking it to reach {:?}",
        describe(f, i),
        path[k + 1]
    ))
}

#[cfg(test)]
mod tests {
    use super::path;

    #[test]
    fn paths_split_at_either_separator() {
        assert_eq!(path("Jinny>Lynett").unwrap(), ["jinny", "lynett"]);
        assert_eq!(
            path("File › Save As › PDF").unwrap(),
            ["file", "save as", "pdf"]
        );
        assert_eq!(path("the File > Save As").unwrap(), ["file", "save as"]);
        assert!(path("a > ").is_none());
        assert!(path("Jinny").is_none());
    }
}
