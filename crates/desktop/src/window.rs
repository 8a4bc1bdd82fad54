//! Binding one window: a session on a window of an app sees and acts on that window's
//! subtree only, never on the app's other windows or dialogs.

use crate::ids::ObjRef;
use crate::tree::RawTree;

/// The subtree of `tree` under the top-level window `window`, re-indexed; `None` when the
/// window is no longer one of the app's top-level nodes (it closed).
pub fn restrict(tree: RawTree, window: &ObjRef) -> Option<RawTree> {
    let root = *tree.roots.iter().find(|&&r| tree.nodes[r].obj == *window)?;
    // Depth-first order: a root's subtree is the run of nodes from it up to the next
    // node whose parent chain does not reach it. Collect it by following children.
    let mut keep = Vec::new();
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        if keep.len() > tree.nodes.len() {
            break; // a cycle in a broken tree
        }
        keep.push(i);
        stack.extend(tree.nodes[i].children.iter().rev().copied());
    }
    keep.sort_unstable();
    keep.dedup();
    let mut new_of = vec![usize::MAX; tree.nodes.len()];
    for (n, &old) in keep.iter().enumerate() {
        new_of[old] = n;
    }
    let mut old_nodes: Vec<Option<crate::tree::RawNode>> =
        tree.nodes.into_iter().map(Some).collect();
    let nodes = keep
        .iter()
        .map(|&old| {
            let mut n = old_nodes[old].take().expect("kept once");
            n.parent = n.parent.map(|p| new_of[p]).filter(|&p| p != usize::MAX);
            n.children = n
                .children
                .iter()
                .map(|&c| new_of[c])
                .filter(|&c| c != usize::MAX)
                .collect();
            n
        })
        .collect();
    Some(RawTree {
        nodes,
        roots: vec![new_of[root]],
        truncated: tree.truncated,
        from_cache: tree.from_cache,
        left_out: tree.left_out,
    })
}
