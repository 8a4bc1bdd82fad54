//! The accessibility tree of every frame → one raw tree.
//!
//! Chromium's own accessible names and roles are the truth here (label[for],
//! aria-labelledby, CSS content): we do not recompute them. Child frames' trees hang under
//! their `<iframe>` node, found through the DOM snapshot's owner map.

use super::layout::{Layout, NodeFacts};
use super::prune::guard_of;
use super::raw::{Kind, NodeHandle, RawNode, RawTree};
use crate::cdp::methods::accessibility::{AxNode, AxValue};
use crate::cdp::{AxNodeId, FrameId};
use arc_core::{InputType, Role};
use std::collections::HashMap;

/// One frame's accessibility nodes.
pub struct FrameNodes {
    pub frame: FrameId,
    pub nodes: Vec<AxNode>,
}

/// Reasons that mean "nobody can perceive this", so the subtree goes.
const HIDDEN_REASONS: &[&str] = &[
    "notRendered",
    "notVisible",
    "ariaHiddenElement",
    "ariaHiddenSubtree",
    "inertElement",
    "inertSubtree",
];

/// Converts one AX node (with its DOM facts, when known).
pub fn raw_from_ax(n: &AxNode, frame: &FrameId, facts: Option<&NodeFacts>) -> RawNode {
    let ax_role = n.role();
    let kind = if n.ignored {
        let hidden =
            n.ignored_reasons.iter().flatten().any(|r| {
                HIDDEN_REASONS.contains(&r.name.as_str()) && r.value.as_bool() != Some(false)
            });
        if hidden {
            Kind::Hidden
        } else {
            Kind::PassThrough
        }
    } else {
        match ax_role {
            "InlineTextBox" | "LineBreak" => Kind::Fragment,
            "StaticText" => Kind::Text,
            _ => Kind::Node,
        }
    };
    let attr = |k: &str| facts.and_then(|f| f.attributes.get(k)).map(String::as_str);
    let mut role = Role::parse(ax_role);
    if role == Role::TextField && attr("type").is_some_and(is_password_type) {
        role = Role::PasswordField;
    }
    let set_only = facts.is_some_and(is_date_input);
    if set_only {
        // Chromium shows a date/time input as a group of per-part spinbuttons; it is one
        // field holding one value.
        role = Role::TextField;
    }
    let mut node = RawNode::new(kind, role);
    node.name = n.name().to_owned();
    let ax_value = n
        .value
        .as_ref()
        .and_then(value_text)
        .filter(|v| !v.is_empty());
    node.value = match facts.and_then(|f| live_value(&node.role, f)) {
        // What a script reads from `.value` (a jQuery UI spinner's aria-valuenow lags
        // typing; a date input's AX value is its parts).
        Some(live) => Some(live.to_owned()).filter(|v| !v.is_empty()),
        None => ax_value.clone(),
    };
    let prop = |k: &str| n.bool_property(k);
    let s = &mut node.states;
    s.set_only = set_only;
    s.disabled = prop("disabled") == Some(true);
    s.focused = prop("focused") == Some(true);
    s.focusable = prop("focusable") == Some(true);
    s.editable = n.property("editable").is_some();
    s.readonly = prop("readonly") == Some(true);
    s.multiline = prop("multiline") == Some(true);
    s.selected = prop("checked").or(prop("selected")).or(prop("pressed"));
    s.expanded = prop("expanded");
    s.draggable = n.property("grabbed").is_some()
        || attr("aria-grabbed").is_some()
        || attr("draggable") == Some("true");
    s.drop_target =
        n.property("dropeffect").is_some() || attr("aria-dropeffect").is_some_and(|v| v != "none");
    if let Some(f) = facts {
        s.clickable = f.clickable;
        s.scrollable = f.scrollable;
        s.native_select = f.tag == "SELECT";
        s.block = f.block;
        node.bounds = f.bounds;
        node.add_selector_facts(&f.tag, |k| f.attributes.get(k));
    }
    // From the AX node alone: a freshness re-read has no DOM snapshot.
    node.guard = guard_of(
        ax_role,
        &node.name,
        ax_value.as_deref(),
        node.states.disabled,
        node.states.selected,
        node.states.expanded,
    );
    if let Some(backend) = n.backend_dom_node_id {
        node.handle = Some(NodeHandle::Backend {
            frame: frame.clone(),
            node: backend,
        });
    }
    node
}

/// A native date/time `<input>` ([`InputType::is_date_or_time`]): typed part by part in
/// the page but set (SET_VALUE) as one string.
pub fn is_date_input(f: &NodeFacts) -> bool {
    f.tag == "INPUT"
        && f.attributes
            .get("type")
            .is_some_and(|t| InputType::parse(t).is_date_or_time())
}

/// `type="password"`, however it is capitalized (HTML attribute values are not
/// case-sensitive here).
pub fn is_password_type(t: &str) -> bool {
    t.eq_ignore_ascii_case("password")
}

/// The DOM value of a text-like `<input>`/`<textarea>`; never a password's.
fn live_value<'a>(role: &Role, f: &'a NodeFacts) -> Option<&'a str> {
    let textual = matches!(
        role,
        Role::TextField | Role::SpinButton | Role::ComboBox | Role::Slider
    );
    (textual
        && !f
            .attributes
            .get("type")
            .is_some_and(|t| is_password_type(t)))
    .then_some(f.live_value.as_deref())
    .flatten()
}

fn value_text(v: &AxValue) -> Option<String> {
    match v.value.as_ref()? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Builds one tree from the frames' nodes; `frames[0]` is the main frame.
pub fn build_tree(frames: &[FrameNodes], layout: &Layout) -> RawTree {
    let mut tree = RawTree::default();
    if let Some(main) = frames.first() {
        let by_frame: HashMap<&FrameId, &FrameNodes> =
            frames.iter().map(|f| (&f.frame, f)).collect();
        add_frame(&mut tree, main, &by_frame, layout, 0);
    }
    tree
}

/// Adds a frame's tree, returns the index of its root.
fn add_frame(
    tree: &mut RawTree,
    frame: &FrameNodes,
    by_frame: &HashMap<&FrameId, &FrameNodes>,
    layout: &Layout,
    depth: usize,
) -> Option<usize> {
    let index: HashMap<&AxNodeId, &AxNode> = frame.nodes.iter().map(|n| (&n.node_id, n)).collect();
    let root = frame.nodes.iter().find(|n| n.parent_id.is_none())?;
    // Depth-first, iteratively: pages can be deep.
    let root_raw = tree.push(convert(root, frame, layout));
    let mut stack = vec![(root, root_raw)];
    while let Some((ax, at)) = stack.pop() {
        let mut kids = Vec::new();
        if tree.nodes[at].states.set_only {
            // A date/time input's parts (Month, Day, Year, the picker button) are its own.
            continue;
        }
        for child_id in ax.child_ids.iter().flatten() {
            if let Some(child) = index.get(child_id) {
                let i = tree.push(convert(child, frame, layout));
                kids.push(i);
                stack.push((child, i));
            }
        }
        // An <iframe>: its document's tree hangs here.
        if let Some(owned) = ax.backend_dom_node_id.and_then(|b| layout.owners.get(&b)) {
            if let Some(child_frame) = by_frame.get(owned).filter(|_| depth < 8) {
                if let Some(i) = add_frame(tree, child_frame, by_frame, layout, depth + 1) {
                    kids.push(i);
                }
            }
        }
        tree.nodes[at].children = kids;
    }
    Some(root_raw)
}

fn convert(n: &AxNode, frame: &FrameNodes, layout: &Layout) -> RawNode {
    let facts = n
        .backend_dom_node_id
        .and_then(|b| layout.get(&frame.frame, b));
    raw_from_ax(n, &frame.frame, facts)
}
