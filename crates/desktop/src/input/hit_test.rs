//! Is a screen point on the target window, or does another top-level window cover it?
//! AT-SPI's `GetAccessibleAtPoint` answers within one app only, so before physical input
//! the X server's own stacking order decides: the topmost viewable top-level window at
//! the point must be the target's (its process, and a box around the target window's),
//! else the press is refused, as the browser refuses when `elementFromPoint` disagrees.

use super::xtest::{XError, XInput};
use arc_core::element::Bounds;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, MapState, Window};

/// How far an X window's box may stick out of the AT-SPI window's (frames, shadows).
const SLACK: i32 = 64;

/// The topmost top-level X window at a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopWindow {
    pub window: Window,
    /// `_NET_WM_PID` of it or of its client (under a reparenting window manager).
    pub pid: Option<u32>,
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
    /// A popup or menu (not managed): it has no `_NET_WM_PID` of its own, as a rule.
    pub override_redirect: bool,
}

impl TopWindow {
    fn holds(&self, b: &Bounds) -> bool {
        let (bx, by) = (b.x.round() as i32, b.y.round() as i32);
        let (bw, bh) = (b.width.round() as i32, b.height.round() as i32);
        bx >= self.x - 1
            && by >= self.y - 1
            && bx + bw <= self.x + self.width + 1
            && by + bh <= self.y + self.height + 1
            && self.width - bw <= 2 * SLACK
            && self.height - bh <= 2 * SLACK
    }
}

/// Why the press at `at` would not reach the window of process `pid` whose box is
/// `window`; `None` when the point is on it.
pub fn covered(
    x: &XInput,
    at: (i32, i32),
    pid: Option<u32>,
    window: Option<Bounds>,
) -> Result<Option<String>, XError> {
    let Some(top) = top_at(x, at)? else {
        return Ok(Some(format!("no window is at {at:?}")));
    };
    if let (Some(ours), Some(theirs)) = (pid, top.pid) {
        if ours != theirs {
            return Ok(Some(format!(
                "another application's window (X window {:#x}, pid {theirs}) covers {at:?}",
                top.window
            )));
        }
    }
    // Our own popup (a menu, a combo list) over our window is part of it.
    if top.override_redirect && top.pid.is_none() {
        return Ok(None);
    }
    match window {
        Some(b) if !top.holds(&b) => Ok(Some(format!(
            "another window (X window {:#x}, {}×{} at ({}, {})) covers {at:?}",
            top.window, top.width, top.height, top.x, top.y
        ))),
        _ => Ok(None),
    }
}

/// The topmost viewable child of the root window containing `at` (QueryTree lists them
/// bottom to top).
pub fn top_at(x: &XInput, (px, py): (i32, i32)) -> Result<Option<TopWindow>, XError> {
    let conn = x.conn();
    let tree = conn
        .query_tree(x.root())
        .map_err(req)?
        .reply()
        .map_err(req)?;
    let mut hit = None;
    for &w in &tree.children {
        let Ok(attrs) = conn.get_window_attributes(w).map_err(req)?.reply() else {
            continue;
        };
        if attrs.map_state != MapState::VIEWABLE {
            continue;
        }
        let Ok(g) = conn.get_geometry(w).map_err(req)?.reply() else {
            continue;
        };
        let (gx, gy, gw, gh) = (g.x as i32, g.y as i32, g.width as i32, g.height as i32);
        if px >= gx && py >= gy && px < gx + gw && py < gy + gh {
            hit = Some(TopWindow {
                window: w,
                pid: None,
                x: gx,
                y: gy,
                width: gw,
                height: gh,
                override_redirect: attrs.override_redirect,
            });
        }
    }
    let Some(mut top) = hit else { return Ok(None) };
    top.pid = match pid_of(x, top.window)? {
        Some(p) => Some(p),
        // A window manager's frame: the pid is on the client inside it.
        None => {
            let kids = conn
                .query_tree(top.window)
                .map_err(req)?
                .reply()
                .map_err(req)?;
            let mut found = None;
            for &k in kids.children.iter().take(16) {
                if let Some(p) = pid_of(x, k)? {
                    found = Some(p);
                    break;
                }
            }
            found
        }
    };
    Ok(Some(top))
}

fn pid_of(x: &XInput, w: Window) -> Result<Option<u32>, XError> {
    let conn = x.conn();
    let atom = conn
        .intern_atom(true, b"_NET_WM_PID")
        .map_err(req)?
        .reply()
        .map_err(req)?
        .atom;
    if atom == 0 {
        return Ok(None);
    }
    let Ok(reply) = conn
        .get_property(false, w, atom, AtomEnum::CARDINAL, 0, 1)
        .map_err(req)?
        .reply()
    else {
        return Ok(None);
    };
    Ok(reply.value32().and_then(|mut v| v.next()))
}

fn req<E: std::fmt::Display>(e: E) -> XError {
    XError::Request(e.to_string())
}
