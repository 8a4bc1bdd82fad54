//! The compact text view: what a planner or model reads each step.
//!
//! One visible element per line, id first, under an enforced token budget:
//!
//! ```text
//! [e1] heading "Create your account"
//! [e2] text_field "Email" = "ada@example.com" (focused)
//! [e9] checkbox "I accept the terms" (checked)
//! [e12] button "Submit order" (disabled)
//! ```
//!
//! When the page does not fit, elements are evicted by role tier (data rows and cells
//! first, on-screen controls last, modal containers and their ancestors never while
//! anything else is left) and the last line says what went: `# truncated: …`. [`find`]
//! searches the whole snapshot, so nothing evicted is out of reach.

mod budget;
mod find;
mod line;
mod notice;
mod tier;
mod tokens;
mod tree;

pub use find::{find, FindHit, FindQuery};
pub use notice::TruncationNotice;
pub use tokens::{count_tokens, warm_up};

use arc_core::Snapshot;
use serde::{Deserialize, Serialize};
use tier::{classify, Facts, CLASS_COUNT};

/// How to render a view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewOptions {
    /// Hard ceiling on the text's o200k_base token count, notice included.
    pub budget_tokens: usize,
    /// Indent each line two spaces per tree level (capped at 12 levels).
    ///
    /// On by default: nesting is what tells a model that "OK" belongs to the dialog and
    /// not the page, where a dialog ends, and which row a cell is in. The price is about
    /// two tokens per nested line (the run of spaces, and ` [` no longer merging with the
    /// id's first letter): measured 80 instead of 92 lines at 1,200 tokens on the
    /// 25,000-element dialog-over-table page. A page under budget pays nothing that
    /// matters, and on a truncated one the lines it costs are table rows `find` reaches.
    pub indent: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            budget_tokens: 1_200,
            indent: true,
        }
    }
}

/// A rendered view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactView {
    /// The lines, then the notice line when truncated.
    pub text: String,
    /// o200k_base tokens in `text`; never above the budget.
    pub tokens: usize,
    /// Some visible element is missing from `text`: perception is incomplete.
    pub truncated: bool,
    pub notice: Option<TruncationNotice>,
}

/// Renders the visible elements of `snapshot` within `opts.budget_tokens`.
pub fn render(snapshot: &Snapshot, opts: &ViewOptions) -> CompactView {
    let elements = &snapshot.elements[..];
    let tree = tree::Tree::build(elements);
    let mut inventory = notice::Inventory::new(elements.len());
    let mut classes: [Vec<u32>; CLASS_COUNT] = Default::default();
    for (i, e) in elements.iter().enumerate() {
        if !e.visible {
            continue;
        }
        let facts = Facts {
            on_screen: snapshot.on_screen(e),
            in_modal: tree.in_modal[i],
            holds_modal: tree.holds_modal[i],
            siblings: tree.parent[i].map_or(0, |p| tree.children[p as usize]),
        };
        classes[classify(e, &facts) as usize].push(i as u32);
        inventory.add(i, e);
    }
    // Keep order: last-evicted class first, each class in document order.
    let order: Vec<u32> = classes.iter().rev().flatten().copied().collect();
    budget::Fitter::new(
        snapshot,
        &tree,
        &inventory,
        order,
        opts.indent,
        opts.budget_tokens,
    )
    .fit()
}
