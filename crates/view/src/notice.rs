//! The in-band truncation notice: what the budget dropped, said in the text itself so a
//! model cannot mistake a partial view for the whole screen.

use super::line::write_clean;
use arc_core::Role;
use arc_core::{Element, ElementId};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What a truncated view left out. Counts cover visible elements only (hidden ones are
/// never in the view, so they are not "dropped").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TruncationNotice {
    /// Dropped elements per role, most-dropped first.
    pub evicted_roles: Vec<(Role, usize)>,
    /// Every dropped element a person could act on now ([`Element::is_actionable`]),
    /// in document order. The text lists only the first few.
    pub dropped_actionable_ids: Vec<ElementId>,
    pub dropped_actionable_count: usize,
    pub dropped_node_count: usize,
}

/// How much of the notice the text carries; the budget picks the richest that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detail {
    Full,
    Short,
    Counts,
    Bare,
}

impl Detail {
    pub const ALL: [Detail; 4] = [Detail::Full, Detail::Short, Detail::Counts, Detail::Bare];

    fn roles_shown(self) -> usize {
        match self {
            Detail::Full => 12,
            Detail::Short => 3,
            _ => 0,
        }
    }

    fn ids_shown(self) -> usize {
        match self {
            Detail::Full => 20,
            Detail::Short => 5,
            _ => 0,
        }
    }
}

const MAX_IDS_SHOWN: usize = 20;

/// Per-render bookkeeping of the visible elements, so each candidate notice costs one
/// pass over the kept lines and the actionable ids, not over the whole snapshot.
pub(crate) struct Inventory<'a> {
    roles: Vec<&'a Role>,
    role_index: FxHashMap<&'a Role, u32>,
    /// Role index per element (meaningful for visible ones).
    role_of: Vec<u32>,
    role_totals: Vec<usize>,
    /// Visible, actionable elements in document order.
    actionable: Vec<u32>,
    visible: usize,
}

/// A candidate notice for one kept set, borrowing from the snapshot.
pub(crate) struct Draft<'a> {
    pub total: usize,
    pub dropped: usize,
    pub dropped_actionable: usize,
    /// Evicted roles, most-dropped first.
    pub roles: Vec<(&'a Role, usize)>,
    pub first_ids: Vec<&'a ElementId>,
}

impl<'a> Inventory<'a> {
    pub fn new(len: usize) -> Self {
        Inventory {
            roles: Vec::new(),
            role_index: FxHashMap::default(),
            role_of: vec![0; len],
            role_totals: Vec::new(),
            actionable: Vec::new(),
            visible: 0,
        }
    }

    /// Records a visible element.
    pub fn add(&mut self, i: usize, e: &'a Element) {
        let next = self.roles.len() as u32;
        let r = *self.role_index.entry(&e.role).or_insert(next);
        if r == next {
            self.roles.push(&e.role);
            self.role_totals.push(0);
        }
        self.role_of[i] = r;
        self.role_totals[r as usize] += 1;
        if e.is_actionable() {
            self.actionable.push(i as u32);
        }
        self.visible += 1;
    }

    /// The notice for keeping exactly `kept` (element indices).
    pub fn draft(&self, elements: &'a [Element], kept: &[u32]) -> Draft<'a> {
        let mut is_kept = vec![false; elements.len()];
        let mut evicted = self.role_totals.clone();
        for &i in kept {
            is_kept[i as usize] = true;
            evicted[self.role_of[i as usize] as usize] -= 1;
        }
        let mut roles: Vec<(&Role, usize)> = self
            .roles
            .iter()
            .zip(evicted)
            .filter(|(_, n)| *n > 0)
            .map(|(r, n)| (*r, n))
            .collect();
        roles.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.as_str().cmp(b.0.as_str())));
        let mut dropped_actionable = 0;
        let mut first_ids = Vec::new();
        for &i in &self.actionable {
            if !is_kept[i as usize] {
                dropped_actionable += 1;
                if first_ids.len() < MAX_IDS_SHOWN {
                    first_ids.push(&elements[i as usize].id);
                }
            }
        }
        Draft {
            total: self.visible,
            dropped: self.visible - kept.len(),
            dropped_actionable,
            roles,
            first_ids,
        }
    }

    /// The full notice for keeping exactly `kept`, every dropped id included.
    pub fn notice(&self, elements: &'a [Element], kept: &[u32]) -> TruncationNotice {
        let draft = self.draft(elements, kept);
        let mut is_kept = vec![false; elements.len()];
        for &i in kept {
            is_kept[i as usize] = true;
        }
        TruncationNotice {
            evicted_roles: draft
                .roles
                .iter()
                .map(|(r, n)| ((*r).clone(), *n))
                .collect(),
            dropped_actionable_ids: self
                .actionable
                .iter()
                .filter(|&&i| !is_kept[i as usize])
                .map(|&i| elements[i as usize].id.clone())
                .collect(),
            dropped_actionable_count: draft.dropped_actionable,
            dropped_node_count: draft.dropped,
        }
    }
}

impl Draft<'_> {
    /// The notice line at `detail`, e.g. `# truncated: 4812 of 5033 elements dropped
    /// (actionable: 3) — evicted roles: cell 2800, row 2000; dropped actionable ids:
    /// e5012, e5013, e5014; use find to reach them`.
    pub fn write(&self, out: &mut String, detail: Detail) {
        out.push_str("# truncated");
        match detail {
            Detail::Bare => {}
            Detail::Counts => {
                let _ = write!(
                    out,
                    ": {} of {} dropped (actionable: {}); use find",
                    self.dropped, self.total, self.dropped_actionable
                );
            }
            Detail::Full | Detail::Short => {
                let _ = write!(
                    out,
                    ": {} of {} elements dropped (actionable: {}) — evicted roles: ",
                    self.dropped, self.total, self.dropped_actionable
                );
                let shown = detail.roles_shown();
                for (k, (role, n)) in self.roles.iter().take(shown).enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    write_clean(out, role.as_str(), 40, false);
                    let _ = write!(out, " {n}");
                }
                if self.roles.len() > shown {
                    out.push_str(", …");
                }
                if self.dropped_actionable > 0 {
                    out.push_str("; dropped actionable ids: ");
                    let shown = detail.ids_shown().min(self.first_ids.len());
                    for (k, id) in self.first_ids[..shown].iter().enumerate() {
                        if k > 0 {
                            out.push_str(", ");
                        }
                        write_clean(out, id.as_str(), 40, false);
                    }
                    if self.dropped_actionable > shown {
                        let _ = write!(out, ", … (+{} more)", self.dropped_actionable - shown);
                    }
                }
                out.push_str("; use find to reach them");
            }
        }
    }
}
