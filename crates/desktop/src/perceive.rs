//! From the raw tree to core elements: enrich the showing nodes (extents, text, value,
//! action names — all requests pipelined on one connection), decide what each node
//! really offers, and prune unnamed, inert containers.

use crate::dbus::{self, CallError};
use crate::ids::{Ids, ObjRef};
use crate::offers::{offers, Offers};
use crate::roles::role_of;
use crate::tree::RawTree;
use arc_core::element::{Bounds, Element, Source};
use arc_core::role::Role;
use arc_core::scalar::Scalar;
use atspi::{Interface, State};
use futures_util::future::join_all;
use std::collections::HashMap;
use std::sync::Arc;

/// What the backend keeps about each element of the last snapshot to act on it.
#[derive(Clone, Debug)]
pub struct Bound {
    pub obj: ObjRef,
    pub offers: Offers,
    /// The parent's object and this node's index in it (selection through the parent).
    pub parent: Option<(ObjRef, i32)>,
    /// Its ancestors, nearest first, up to its top-level window (the last): where a hit
    /// test starts, and what it may pass through.
    pub ancestors: Vec<ObjRef>,
}

/// Per-node data read on top of the cache item.
#[derive(Default, Clone)]
struct Extra {
    bounds: Option<Bounds>,
    text: Option<String>,
    value: Option<f64>,
    action_names: Arc<[String]>,
}

pub struct Perceived {
    pub elements: Vec<Element>,
    /// The on-screen part of each element's box (clipped by scroll panes and windows):
    /// where physical input aims.
    pub hit_boxes: HashMap<String, Bounds>,
    pub bound: HashMap<String, Bound>,
    pub window: String,
    pub window_bounds: Option<Bounds>,
}

/// Action names by object: they do not change during a session, and reading them costs
/// two or more round trips per node.
pub type ActionNameCache = HashMap<ObjRef, Arc<[String]>>;

const MAX_ACTIONS: i32 = 16;

pub async fn perceive(
    conn: &zbus::Connection,
    tree: &RawTree,
    ids: &mut Ids,
    names: &mut ActionNameCache,
) -> Result<Perceived, CallError> {
    let extras = enrich(conn, tree, names).await?;
    let mut elements = Vec::with_capacity(tree.nodes.len());
    let mut bound = HashMap::with_capacity(tree.nodes.len());
    let mut hit_boxes = HashMap::new();
    // Nearest kept ancestor's element index, and the clip (scroll panes, windows).
    let mut kept_of: Vec<Option<usize>> = vec![None; tree.nodes.len()];
    let mut clip_of: Vec<Option<Bounds>> = vec![None; tree.nodes.len()];
    let mut hidden: Vec<bool> = vec![false; tree.nodes.len()];
    for (i, node) in tree.nodes.iter().enumerate() {
        let parent_hidden = node.parent.is_some_and(|p| hidden[p]);
        let showing = node.states.contains(State::Showing) && !parent_hidden;
        hidden[i] = !showing;
        let parent_clip = node.parent.and_then(|p| clip_of[p]);
        let ex = &extras[i];
        let role = role_of(node.role);
        clip_of[i] = match (clips(node.role), ex.bounds) {
            (true, Some(b)) => Some(parent_clip.map_or(b, |c| intersect(c, b))),
            _ => parent_clip,
        };
        // A hidden node's subtree is not perceived beyond the node itself.
        if parent_hidden {
            kept_of[i] = node.parent.and_then(|p| kept_of[p]);
            continue;
        }
        let name = if node.name.is_empty() && names_from_children(&role) {
            child_text(tree, i)
        } else {
            node.name.clone()
        };
        let parent = node.parent.map(|p| &tree.nodes[p]);
        let offer = offers(node, parent, &ex.action_names, ex.bounds.is_some());
        let value = ex
            .text
            .clone()
            .map(Scalar::Text)
            .or_else(|| ex.value.map(number));
        let keep =
            !name.is_empty() || !offer.kinds.is_empty() || value.is_some() || structural(&role);
        if !keep {
            kept_of[i] = node.parent.and_then(|p| kept_of[p]);
            continue;
        }
        let visible = showing
            && ex.bounds.is_some_and(|b| {
                b.width > 0.0 && b.height > 0.0 && parent_clip.is_none_or(|c| overlaps(c, b))
            });
        let obj = node.obj.clone();
        let id = ids.id(&obj);
        if let (true, Some(b)) = (visible, ex.bounds) {
            hit_boxes.insert(id.clone(), parent_clip.map_or(b, |c| intersect(c, b)));
        }
        let mut el = Element::new(id.clone(), role.clone(), name);
        el.value = value;
        el.actions = offer.kinds;
        el.enabled = node.states.contains(State::Enabled) || node.states.contains(State::Sensitive);
        el.visible = visible;
        el.focused = node.states.contains(State::Focused);
        el.selected = node
            .states
            .contains(State::Selectable)
            .then(|| node.states.contains(State::Selected))
            .or_else(|| {
                (node.states.contains(State::Checkable) || role == Role::CheckBox)
                    .then(|| node.states.contains(State::Checked))
            });
        el.expanded = node
            .states
            .contains(State::Expandable)
            .then(|| node.states.contains(State::Expanded));
        el.bounds = ex.bounds;
        el.source = Source::Atspi;
        el.parent_id = node
            .parent
            .and_then(|p| kept_of[p])
            .map(|k: usize| elements_id(&elements, k));
        kept_of[i] = Some(elements.len());
        bound.insert(
            id,
            Bound {
                obj,
                offers: offer,
                parent: parent.map(|p| (p.obj.clone(), node.index_in_parent)),
                ancestors: ancestors(tree, i),
            },
        );
        elements.push(el);
    }
    let (window, window_bounds) = tree
        .roots
        .iter()
        .find(|&&r| tree.nodes[r].states.contains(State::Active))
        .or(tree.roots.first())
        .map(|&r| (tree.nodes[r].name.clone(), extras[r].bounds))
        .unwrap_or_default();
    Ok(Perceived {
        elements,
        hit_boxes,
        bound,
        window,
        window_bounds,
    })
}

/// Bounded by depth: a broken tree cannot loop.
fn ancestors(tree: &RawTree, i: usize) -> Vec<ObjRef> {
    let mut out = Vec::new();
    let mut at = tree.nodes[i].parent;
    while let Some(p) = at {
        if out.len() >= 64 {
            break;
        }
        out.push(tree.nodes[p].obj.clone());
        at = tree.nodes[p].parent;
    }
    out
}

fn elements_id(elements: &[Element], k: usize) -> arc_core::element::ElementId {
    elements[k].id.clone()
}

fn number(v: f64) -> Scalar {
    Scalar::Float(v)
}

/// Roles kept even unnamed: the structure a planner needs to read a window.
fn structural(role: &Role) -> bool {
    matches!(
        role,
        Role::Window
            | Role::Dialog
            | Role::Alert
            | Role::MenuBar
            | Role::Menu
            | Role::ListBox
            | Role::List
            | Role::Tree
            | Role::Table
            | Role::TabList
    )
}

/// Rows and items whose label is a child (GTK list rows): named by the child's text.
fn names_from_children(role: &Role) -> bool {
    matches!(
        role,
        Role::ListItem | Role::Option | Role::TreeItem | Role::Row | Role::Cell | Role::Tab
    )
}

fn child_text(tree: &RawTree, i: usize) -> String {
    let mut out = String::new();
    let mut stack: Vec<usize> = tree.nodes[i].children.iter().rev().copied().collect();
    let mut seen = 0;
    while let Some(c) = stack.pop() {
        seen += 1;
        if seen > 32 || out.len() > 120 {
            break;
        }
        let n = &tree.nodes[c];
        if !n.name.is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&n.name);
        } else {
            stack.extend(n.children.iter().rev().copied());
        }
    }
    out
}

fn clips(role: atspi::Role) -> bool {
    matches!(
        role,
        atspi::Role::ScrollPane
            | atspi::Role::Viewport
            | atspi::Role::Frame
            | atspi::Role::Dialog
            | atspi::Role::Window
    )
}

fn intersect(a: Bounds, b: Bounds) -> Bounds {
    let x = a.x.max(b.x);
    let y = a.y.max(b.y);
    let r = (a.x + a.width).min(b.x + b.width);
    let btm = (a.y + a.height).min(b.y + b.height);
    Bounds {
        x,
        y,
        width: (r - x).max(0.0),
        height: (btm - y).max(0.0),
    }
}

fn overlaps(a: Bounds, b: Bounds) -> bool {
    let i = intersect(a, b);
    i.width > 0.0 && i.height > 0.0
}

/// Reads extents, text, value and action names for the nodes that need them, all at once.
async fn enrich(
    conn: &zbus::Connection,
    tree: &RawTree,
    names: &mut ActionNameCache,
) -> Result<Vec<Extra>, CallError> {
    let n = tree.nodes.len();
    let mut hidden = vec![false; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        hidden[i] = !node.states.contains(State::Showing) || node.parent.is_some_and(|p| hidden[p]);
    }
    let hidden = &hidden;
    let extents = join_all(tree.nodes.iter().enumerate().map(|(i, node)| async move {
        if hidden[i] || !node.ifaces.contains(Interface::Component) {
            return None;
        }
        // CoordType 0: screen coordinates (what XTest takes).
        let r: Result<(i32, i32, i32, i32), _> = dbus::call(
            conn,
            &node.obj,
            "org.a11y.atspi.Component",
            "GetExtents",
            &(0u32,),
        )
        .await;
        r.ok().map(|(x, y, w, h)| Bounds {
            x: x as f64,
            y: y as f64,
            width: w as f64,
            height: h as f64,
        })
    }));
    let texts = join_all(tree.nodes.iter().enumerate().map(|(i, node)| async move {
        let editable = node.ifaces.contains(Interface::EditableText);
        if hidden[i] || !node.ifaces.contains(Interface::Text) || !editable {
            return None;
        }
        dbus::call::<_, String>(
            conn,
            &node.obj,
            "org.a11y.atspi.Text",
            "GetText",
            &(0i32, -1i32),
        )
        .await
        .ok()
    }));
    let values = join_all(tree.nodes.iter().enumerate().map(|(i, node)| async move {
        if hidden[i]
            || !node.ifaces.contains(Interface::Value)
            || node.ifaces.contains(Interface::EditableText)
        {
            return None;
        }
        let v = dbus::property(conn, &node.obj, "org.a11y.atspi.Value", "CurrentValue")
            .await
            .ok()?;
        f64::try_from(v).ok()
    }));
    let missing: Vec<usize> = (0..n)
        .filter(|&i| {
            !hidden[i]
                && tree.nodes[i].ifaces.contains(Interface::Action)
                && !names.contains_key(&tree.nodes[i].obj)
        })
        .collect();
    let fetched = join_all(
        missing
            .iter()
            .map(|&i| action_names(conn, &tree.nodes[i].obj)),
    );
    let (extents, texts, values, fetched) = tokio::join!(extents, texts, values, fetched);
    for (&i, got) in missing.iter().zip(fetched) {
        match got {
            Ok(list) => {
                names.insert(tree.nodes[i].obj.clone(), list);
            }
            Err(e) if e.is_gone() && tree.nodes[i].parent.is_none() => return Err(e),
            Err(_) => {}
        }
    }
    let empty: Arc<[String]> = Arc::from(Vec::new());
    Ok((0..n)
        .map(|i| Extra {
            bounds: extents[i],
            text: texts[i].clone(),
            value: values[i],
            action_names: names
                .get(&tree.nodes[i].obj)
                .cloned()
                .unwrap_or_else(|| empty.clone()),
        })
        .collect())
}

async fn action_names(conn: &zbus::Connection, obj: &ObjRef) -> Result<Arc<[String]>, CallError> {
    let count = dbus::property(conn, obj, "org.a11y.atspi.Action", "NActions").await?;
    let count = i32::try_from(count).unwrap_or(0).clamp(0, MAX_ACTIONS);
    let names = join_all((0..count).map(|i| async move {
        dbus::call::<_, String>(conn, obj, "org.a11y.atspi.Action", "GetName", &(i,))
            .await
            .unwrap_or_default()
    }))
    .await;
    Ok(names.into())
}
