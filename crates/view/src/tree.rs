//! The element tree as indices: `parent_id`s resolved once per render, plus the facts
//! the budget needs from it (depth, modal ancestry, list sizes).
//!
//! Backends are trusted for ids but not for shape: a dangling parent is a root, a parent
//! cycle is cut where the walk meets itself, and neither can loop or panic.

use arc_core::Element;
use rustc_hash::FxHashMap;

pub(crate) struct Tree {
    /// Index of each element's parent, when it names an element of the snapshot.
    pub parent: Vec<Option<u32>>,
    /// Number of ancestors reachable by `parent` (0 for roots).
    pub depth: Vec<u32>,
    /// Has a visible modal container ([`Role::is_modal_container`]) above it.
    ///
    /// [`Role::is_modal_container`]: arc_core::Role::is_modal_container
    pub in_modal: Vec<bool>,
    /// Is a visible modal container or one of its ancestors.
    pub holds_modal: Vec<bool>,
    /// Number of children naming it as parent.
    pub children: Vec<u32>,
}

const UNKNOWN: u8 = 0;
const WALKING: u8 = 1;
const DONE: u8 = 2;

impl Tree {
    pub fn build(elements: &[Element]) -> Tree {
        let n = elements.len();
        let mut index: FxHashMap<&str, u32> =
            FxHashMap::with_capacity_and_hasher(n, Default::default());
        for (i, e) in elements.iter().enumerate() {
            // A duplicated id keeps its first element, like a document lookup would.
            index.entry(e.id.as_str()).or_insert(i as u32);
        }
        let parent: Vec<Option<u32>> = elements
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let p = *index.get(e.parent_id.as_ref()?.as_str())?;
                (p as usize != i).then_some(p)
            })
            .collect();

        let mut children = vec![0u32; n];
        for p in parent.iter().flatten() {
            children[*p as usize] += 1;
        }

        let is_modal = |i: usize| elements[i].visible && elements[i].role.is_modal_container();
        let mut depth = vec![0u32; n];
        let mut in_modal = vec![false; n];
        let mut state = vec![UNKNOWN; n];
        let mut path = Vec::new();
        for start in 0..n {
            // Walk up to the first resolved ancestor, then resolve the path top-down.
            let mut at = start;
            while state[at] == UNKNOWN {
                state[at] = WALKING;
                path.push(at);
                match parent[at] {
                    Some(p) => at = p as usize,
                    None => break,
                }
            }
            while let Some(i) = path.pop() {
                match parent[i].map(|p| p as usize) {
                    // A parent still WALKING closes a cycle: treat `i` as a root.
                    Some(p) if state[p] == DONE => {
                        depth[i] = depth[p] + 1;
                        in_modal[i] = in_modal[p] || is_modal(p);
                    }
                    _ => {}
                }
                state[i] = DONE;
            }
        }

        let mut holds_modal = vec![false; n];
        for i in (0..n).filter(|&i| is_modal(i)) {
            // Marks up the chain; stops where an earlier walk already marked (or a cycle
            // closes), so the whole pass stays linear.
            let mut at = Some(i);
            while let Some(a) = at {
                if holds_modal[a] {
                    break;
                }
                holds_modal[a] = true;
                at = parent[a].map(|p| p as usize);
            }
        }

        Tree {
            parent,
            depth,
            in_modal,
            holds_modal,
            children,
        }
    }

    /// Ancestors of `i`, nearest first, along the same (cycle-free) chain as `depth`.
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = i;
        (0..self.depth[i]).filter_map(move |_| {
            at = self.parent[at]? as usize;
            Some(at)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::Role;

    fn el(id: &str, role: Role, parent: Option<&str>) -> Element {
        let mut e = Element::new(id, role, "");
        e.parent_id = parent.map(Into::into);
        e
    }

    #[test]
    fn depth_and_modal_facts() {
        let t = Tree::build(&[
            el("doc", Role::Document, None),
            el("dlg", Role::Dialog, Some("doc")),
            el("grp", Role::Group, Some("dlg")),
            el("ok", Role::Button, Some("grp")),
            el("page", Role::Button, Some("doc")),
            el("orphan", Role::Button, Some("missing")),
        ]);
        assert_eq!(t.depth, [0, 1, 2, 3, 1, 0]);
        assert_eq!(t.in_modal, [false, false, true, true, false, false]);
        assert_eq!(t.holds_modal, [true, true, false, false, false, false]);
        assert_eq!(t.children, [2, 1, 1, 0, 0, 0]);
        assert_eq!(t.ancestors(3).collect::<Vec<_>>(), [2, 1, 0]);
    }

    #[test]
    fn cycles_terminate() {
        let t = Tree::build(&[
            el("a", Role::Group, Some("b")),
            el("b", Role::Menu, Some("a")),
            el("c", Role::Button, Some("c")),
        ]);
        assert!(t.depth.iter().all(|&d| d <= 1));
        assert_eq!(t.ancestors(0).count(), t.depth[0] as usize);
        assert_eq!(t.depth[2], 0);
    }
}
