//! Search over the whole snapshot, evicted elements included: the way back to whatever
//! the budget dropped (`# truncated: … use find to reach them`).

use super::line::{clean, has_text, write_clean, write_line, write_quoted};
use super::tree::Tree;
use arc_core::ElementId;
use arc_core::Role;
use arc_core::Snapshot;
use serde::{Deserialize, Serialize};

/// What to look for. Both filters must match; with neither, every visible element does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FindQuery {
    /// Case-insensitive, whitespace-normalized substring of the name or the value.
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub role: Option<Role>,
    /// Most hits returned.
    #[serde(default = "default_limit")]
    pub limit: usize,
}

fn default_limit() -> usize {
    20
}

impl Default for FindQuery {
    fn default() -> Self {
        FindQuery {
            text: None,
            role: None,
            limit: default_limit(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindHit {
    pub id: ElementId,
    /// The element's line as the view renders it (without indentation).
    pub line: String,
    /// Named ancestors, outermost first: `dialog "Confirm export" > group "Options"`.
    pub context: String,
}

/// Names in a context are cut shorter than in a line: they only locate the hit.
const CONTEXT_NAME_CHARS: usize = 40;

/// Visible elements matching `query`, in document order, at most `query.limit`.
pub fn find(snapshot: &Snapshot, query: &FindQuery) -> Vec<FindHit> {
    if query.limit == 0 {
        return Vec::new();
    }
    let elements = &snapshot.elements[..];
    let needle = query
        .text
        .as_deref()
        .map(|t| clean(t, usize::MAX).to_lowercase())
        .filter(|t| !t.is_empty());
    let mut tree = None;
    let mut hits = Vec::new();
    for (i, e) in elements.iter().enumerate() {
        if !e.visible || query.role.as_ref().is_some_and(|r| *r != e.role) {
            continue;
        }
        if let Some(needle) = &needle {
            let value = e.value.as_ref().map(|v| v.as_text());
            let matches = |s: &str| {
                clean(s, usize::MAX)
                    .to_lowercase()
                    .contains(needle.as_str())
            };
            if !matches(&e.name) && !value.is_some_and(|v| matches(&v)) {
                continue;
            }
        }
        // Built on the first hit only: a query that matches nothing stays one pass.
        let tree = tree.get_or_insert_with(|| Tree::build(elements));
        let mut line = String::new();
        write_line(&mut line, e, snapshot.on_screen(e));
        hits.push(FindHit {
            id: e.id.clone(),
            line,
            context: context(snapshot, tree, i),
        });
        if hits.len() == query.limit {
            break;
        }
    }
    hits
}

fn context(snapshot: &Snapshot, tree: &Tree, i: usize) -> String {
    let named: Vec<usize> = tree
        .ancestors(i)
        .filter(|&a| has_text(&snapshot.elements[a].name))
        .collect();
    let mut out = String::new();
    for &a in named.iter().rev() {
        if !out.is_empty() {
            out.push_str(" > ");
        }
        let e = &snapshot.elements[a];
        write_clean(&mut out, e.role.as_str(), CONTEXT_NAME_CHARS, false);
        out.push(' ');
        write_quoted(&mut out, &e.name, CONTEXT_NAME_CHARS);
    }
    out
}
