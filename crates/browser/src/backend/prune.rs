//! Raw tree → snapshot elements.
//!
//! - hidden subtrees are dropped, layout fragments (`InlineTextBox`) never emitted;
//! - unlabelled, non-actionable containers are collapsed: their children take their place;
//! - adjacent text leaves are coalesced into one run, verbatim (a per-glyph page must not
//!   spend the budget one letter per line; concatenating in DOM order keeps RTL and CJK
//!   sentences in reading order, since Chromium orders children logically);
//! - text that only repeats its parent's name is dropped, and a nameless container whose
//!   only content is one text run takes that text as its name.

use super::raw::{legal_actions, Kind, NodeHandle, RawNode, RawTree};
use arc_core::{ActionSet, Element, ElementId, Guard, Role, Scalar, Source};
use xxhash_rust::xxh3::Xxh3;

/// Deeper than any sane page; past it, nodes are treated as leaves rather than risking
/// the stack.
const MAX_DEPTH: usize = 400;

/// The guard of a node as a one-node re-read sees it: the backend's own role string,
/// name, value and the states a person would notice changing. Nothing derived: no
/// bounds (the click is aimed at the live position anyway) and no offered actions (a
/// one-node re-read cannot see listeners).
pub fn guard_of(
    role: &str,
    name: &str,
    value: Option<&str>,
    disabled: bool,
    selected: Option<bool>,
    expanded: Option<bool>,
) -> Guard {
    let mut h = Xxh3::new();
    for part in [role, name, value.unwrap_or("\u{0}")] {
        h.update(part.as_bytes());
        h.update(&[0]);
    }
    let tri = |o: Option<bool>| o.map_or(0u8, |b| 1 + b as u8);
    h.update(&[disabled as u8, tri(selected), tri(expanded)]);
    Guard(format!("{:016x}", h.digest()))
}

/// One item in a node's flattened child list.
enum Item {
    Node(usize),
    /// A block boundary inside a collapsed container: text does not run across it.
    Break,
    /// Coalesced adjacent text leaves: the first leaf (for id and guard) and the text.
    Text(usize, String),
}

pub struct Pruner<'a, F: FnMut(&NodeHandle) -> ElementId> {
    tree: &'a RawTree,
    id_for: F,
    out: Vec<Element>,
}

impl<'a, F: FnMut(&NodeHandle) -> ElementId> Pruner<'a, F> {
    pub fn new(tree: &'a RawTree, id_for: F) -> Self {
        Pruner {
            tree,
            id_for,
            out: Vec::new(),
        }
    }

    /// Emits the elements of the tree in document order.
    pub fn run(mut self) -> Vec<Element> {
        if !self.tree.nodes.is_empty() {
            self.emit(0, None, true, 0);
        }
        drop_echoed_labels(&mut self.out);
        self.out
    }

    fn actionable(&self, i: usize) -> bool {
        let n = &self.tree.nodes[i];
        !legal_actions(&n.role, &n.states).is_empty()
    }

    /// A container that adds nothing a reader needs: unnamed, not actionable, not modal;
    /// paragraphs and forms only when they hold elements, not text of their own.
    fn collapsible(&self, i: usize) -> bool {
        let n = &self.tree.nodes[i];
        let holds_text = || self.holds_text(i, 0);
        match n.kind {
            Kind::PassThrough => true,
            Kind::Node
                if !n.name.trim().is_empty()
                    || self.actionable(i)
                    || n.role.is_modal_container() =>
            {
                false
            }
            Kind::Node => match n.role {
                Role::Generic | Role::Group | Role::Other(_) => true,
                Role::Paragraph | Role::Form | Role::ListItem => !holds_text(),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether text is among a node's own content: directly, or inside unnamed inline
    /// wrappers (the per-glyph spans of a paragraph).
    fn holds_text(&self, i: usize, depth: usize) -> bool {
        depth < 8
            && self.tree.nodes[i].children.iter().any(|&c| {
                let child = &self.tree.nodes[c];
                child.kind == Kind::Text
                    || (matches!(child.kind, Kind::PassThrough | Kind::Node)
                        && child.role == Role::Generic
                        && child.name.trim().is_empty()
                        && !child.states.block
                        && self.holds_text(c, depth + 1))
            })
    }

    fn flat_children(&self, i: usize, depth: usize, items: &mut Vec<Item>) {
        if depth > MAX_DEPTH {
            return;
        }
        for &c in &self.tree.nodes[i].children {
            let child = &self.tree.nodes[c];
            match child.kind {
                Kind::Hidden | Kind::Fragment => {}
                Kind::Text
                    if child
                        .children
                        .iter()
                        .all(|&g| self.tree.nodes[g].kind == Kind::Fragment) =>
                {
                    if let Some(Item::Text(_, run)) = items.last_mut() {
                        run.push_str(&child.name);
                    } else {
                        items.push(Item::Text(c, child.name.clone()));
                    }
                }
                _ if self.collapsible(c) => {
                    let block = child.states.block;
                    if block {
                        items.push(Item::Break);
                    }
                    self.flat_children(c, depth + 1, items);
                    if block {
                        items.push(Item::Break);
                    }
                }
                _ => items.push(Item::Node(c)),
            }
        }
    }

    fn emit(&mut self, i: usize, parent: Option<&ElementId>, parent_visible: bool, depth: usize) {
        let node = &self.tree.nodes[i];
        let mut items = Vec::new();
        self.flat_children(i, depth, &mut items);
        items.retain(|it| {
            !matches!(it, Item::Break) && !matches!(it, Item::Text(_, t) if t.trim().is_empty())
        });

        let texts: Vec<&str> = items
            .iter()
            .filter_map(|it| match it {
                Item::Text(_, t) => Some(t.as_str()),
                Item::Node(_) | Item::Break => None,
            })
            .collect();
        let mut name = node.name.clone();
        if !name.trim().is_empty() && squash(&texts.concat()) == squash(&name) {
            // The text only repeats the name (a button's label, a heading's words).
            items.retain(|it| matches!(it, Item::Node(_)));
        } else if name.trim().is_empty() && items.len() == 1 && matches!(items[0], Item::Text(..)) {
            if let Some(Item::Text(_, text)) = items.pop() {
                name = text;
            }
        }

        let actions = match node.facts.input_type {
            // A file input takes files (SET_VALUE with a path the subtask lists), never
            // a click: its chooser is a native dialog no one could answer.
            Some(arc_core::InputType::File) => {
                ActionSet::from([arc_core::ActionKind::SetValue, arc_core::ActionKind::Hover])
            }
            _ => legal_actions(&node.role, &node.states),
        };
        let emptiness = name.trim().is_empty() && items.is_empty() && node.value.is_none();
        let droppable_leaf = emptiness && actions.is_empty() && !node.role.is_modal_container();
        let visible = parent_visible && node.bounds.is_none_or(|b| b.width > 0.0 && b.height > 0.0);
        // A hidden control hides its label too; a zero-size plain container may still
        // show overflowing children, so only actionable elements propagate.
        let child_visible = if actions.is_empty() {
            parent_visible
        } else {
            visible
        };

        let own_id = match (&node.handle, droppable_leaf && i != 0) {
            (Some(h), false) => {
                let id = (self.id_for)(h);
                self.out
                    .push(element(node, id.clone(), name, actions, parent, visible));
                Some(id)
            }
            _ => None,
        };
        let parent_for_children = own_id.as_ref().or(parent).cloned();
        for item in items {
            match item {
                Item::Node(c) => {
                    self.emit(c, parent_for_children.as_ref(), child_visible, depth + 1)
                }
                Item::Text(first, text) => {
                    self.emit_text(first, text, parent_for_children.as_ref(), child_visible)
                }
                Item::Break => {}
            }
        }
    }

    fn emit_text(&mut self, first: usize, text: String, parent: Option<&ElementId>, visible: bool) {
        let node = &self.tree.nodes[first];
        if let Some(h) = &node.handle {
            let id = (self.id_for)(h);
            let mut e = element(node, id, text, ActionSet::EMPTY, parent, visible);
            e.role = Role::StaticText;
            self.out.push(e);
        }
    }
}

fn element(
    node: &RawNode,
    id: ElementId,
    name: String,
    actions: ActionSet,
    parent: Option<&ElementId>,
    visible: bool,
) -> Element {
    let mut e = Element::new(id, node.role.clone(), name);
    e.value = node.value.clone().map(Scalar::Text);
    e.actions = actions;
    e.enabled = !node.states.disabled;
    e.visible = visible;
    e.focused = node.states.focused;
    e.selected = node.states.selected;
    e.expanded = node.states.expanded;
    e.parent_id = parent.cloned();
    e.bounds = node.bounds;
    e.source = Source::Cdp;
    e.accepts_drop = node.states.drop_target;
    e.facts = node.facts.clone();
    e.facts.multiline = node.states.multiline;
    e.guard = node.guard.clone();
    e
}

/// Removes a plain label or text whose words are exactly a sibling control's name
/// ("Email" beside the text field named "Email"): the control line already says it.
/// An unlinked label (the control has no name) stays, since it is the only clue.
fn drop_echoed_labels(out: &mut Vec<Element>) {
    use std::collections::HashSet;
    let named: HashSet<(Option<&ElementId>, String)> = out
        .iter()
        .filter(|e| e.role != Role::Label && !e.actions.is_empty() && !e.name.trim().is_empty())
        .map(|e| (e.parent_id.as_ref(), squash(&e.name)))
        .collect();
    let echoes: HashSet<ElementId> = out
        .iter()
        .filter(|e| e.role == Role::Label || (e.role == Role::StaticText && e.actions.is_empty()))
        .filter(|e| named.contains(&(e.parent_id.as_ref(), squash(&e.name))))
        .map(|e| e.id.clone())
        .collect();
    if echoes.is_empty() {
        return;
    }
    let has_children: HashSet<&ElementId> =
        out.iter().filter_map(|e| e.parent_id.as_ref()).collect();
    let echoes: HashSet<ElementId> = echoes
        .into_iter()
        .filter(|id| !has_children.contains(id))
        .collect();
    out.retain(|e| !echoes.contains(&e.id));
}

/// Whitespace-insensitive comparison form.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdp::{BackendNodeId, FrameId};
    use arc_core::Bounds;

    fn tree(spec: &[(Kind, Role, &str, &[usize])]) -> RawTree {
        let mut t = RawTree::default();
        for (i, (kind, role, name, kids)) in spec.iter().enumerate() {
            let mut n = RawNode::new(*kind, role.clone());
            n.name = name.to_string();
            n.children = kids.to_vec();
            n.handle = Some(NodeHandle::Backend {
                frame: FrameId("f".into()),
                node: BackendNodeId(i as i64),
            });
            n.bounds = Some(Bounds {
                x: 0.0,
                y: 0.0,
                width: 10.0,
                height: 10.0,
            });
            t.push(n);
        }
        t
    }

    fn ids(t: &RawTree) -> Vec<Element> {
        Pruner::new(t, |h| match h {
            NodeHandle::Backend { node, .. } => ElementId(format!("n{}", node.0)),
            NodeHandle::Scan { key, .. } => ElementId(format!("s{key}")),
        })
        .run()
    }

    #[test]
    fn per_glyph_spans_coalesce_into_one_run_in_order() {
        use Kind::*;
        let t = tree(&[
            (Node, Role::Document, "Glyphs", &[1]),
            (Node, Role::Paragraph, "", &[2, 3, 4]),
            (Node, Role::Generic, "", &[5]),
            (Node, Role::Generic, "", &[6]),
            (Node, Role::Generic, "", &[7]),
            (Text, Role::StaticText, "م", &[8]),
            (Text, Role::StaticText, "ر", &[]),
            (Text, Role::StaticText, "ح", &[]),
            (Fragment, Role::StaticText, "م", &[]),
        ]);
        let els = ids(&t);
        let names: Vec<(&str, &str)> = els
            .iter()
            .map(|e| (e.role.as_str(), e.name.as_str()))
            .collect();
        // The paragraph takes its only text as its name: two lines, not four.
        assert_eq!(names, vec![("document", "Glyphs"), ("paragraph", "مرح")]);
    }

    #[test]
    fn a_button_label_is_not_repeated_and_hidden_subtrees_vanish() {
        use Kind::*;
        let t = tree(&[
            (Node, Role::Document, "P", &[1, 3]),
            (Node, Role::Button, "Sign up", &[2]),
            (Text, Role::StaticText, "Sign up", &[]),
            (Hidden, Role::Button, "Secret", &[]),
        ]);
        let names: Vec<String> = ids(&t)
            .iter()
            .map(|e| format!("{} {}", e.role, e.name))
            .collect();
        assert_eq!(names, vec!["document P", "button Sign up"]);
    }

    #[test]
    fn a_zero_size_button_is_emitted_invisible() {
        use Kind::*;
        let mut t = tree(&[
            (Node, Role::Document, "P", &[1]),
            (Node, Role::Button, "Zero", &[]),
        ]);
        t.nodes[1].bounds = Some(Bounds {
            x: 5.0,
            y: 5.0,
            width: 0.0,
            height: 0.0,
        });
        let els = ids(&t);
        assert!(!els[1].visible);
    }

    #[test]
    fn children_of_collapsed_containers_attach_to_the_nearest_kept_ancestor() {
        use Kind::*;
        let t = tree(&[
            (Node, Role::Document, "P", &[1]),
            (Node, Role::Generic, "", &[2]),
            (Node, Role::Button, "Go", &[]),
        ]);
        let els = ids(&t);
        assert_eq!(els.len(), 2);
        assert_eq!(els[1].parent_id.as_ref().unwrap().as_str(), "n0");
    }
}
