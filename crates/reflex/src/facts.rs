//! One decision's view of a snapshot: every visible element's name normalized once into
//! one buffer (no per-element allocation), and tree helpers. Backends list elements in
//! document (pre-)order, parents before children; the helpers rely on that for speed and
//! stay correct, only slower, when it does not hold.

use super::text::normalize_name_into;
use arc_core::{ActionKind, Element, Role, Snapshot};

/// Pieces a split sentence may have ([`Facts::sentence`]): a message with a link or two.
const MAX_SENTENCE_PIECES: usize = 8;

pub struct Facts<'s> {
    pub snapshot: &'s Snapshot,
    pub els: &'s [Element],
    names: String,
    spans: Vec<(u32, u32)>,
}

impl<'s> Facts<'s> {
    pub fn new(snapshot: &'s Snapshot) -> Facts<'s> {
        let els = &snapshot.elements[..];
        let mut names = String::with_capacity(els.len() * 16);
        let mut spans = Vec::with_capacity(els.len());
        for e in els {
            let start = names.len();
            if e.visible {
                normalize_name_into(&e.name, &mut names);
            }
            spans.push((start as u32, names.len() as u32));
        }
        Facts {
            snapshot,
            els,
            names,
            spans,
        }
    }

    /// The normalized name ("" for hidden elements).
    pub fn name(&self, i: usize) -> &str {
        let (a, b) = self.spans[i];
        &self.names[a as usize..b as usize]
    }

    pub fn len(&self) -> usize {
        self.els.len()
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.els.iter().position(|e| e.id.as_str() == id)
    }

    /// The parent's index: searched backwards first (pre-order puts it before).
    pub fn parent(&self, i: usize) -> Option<usize> {
        let pid = self.els[i].parent_id.as_ref()?.as_str();
        (0..i)
            .rev()
            .find(|&j| self.els[j].id.as_str() == pid)
            .or_else(|| (i + 1..self.els.len()).find(|&j| self.els[j].id.as_str() == pid))
    }

    /// The ancestors of `i`, nearest first (bounded depth: UI trees are shallow).
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent(i), move |&p| self.parent(p)).take(64)
    }

    /// Whether `ancestor` is above `i`.
    pub fn is_descendant(&self, i: usize, ancestor: usize) -> bool {
        self.ancestors(i).any(|p| p == ancestor)
    }

    /// Indices of the subtree under `i` (the contiguous run after it in pre-order).
    pub fn descendants(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        (i + 1..self.els.len()).take_while(move |&j| self.is_descendant(j, i))
    }

    /// What `i` holds: its subtree, or for a heading the section it titles — what follows
    /// it within its parent up to the next heading as high in the tree ("in the address
    /// book" under a heading "Address book" speaks of the table below it, and a heading
    /// holds nothing itself).
    pub fn held_by(&self, i: usize) -> Vec<usize> {
        if self.els[i].role != Role::Heading {
            return self.descendants(i).collect();
        }
        let depth = self.ancestors(i).count();
        let parent = self.parent(i);
        let after_heading = i + self.descendants(i).count() + 1;
        (after_heading..self.els.len())
            .take_while(|&j| parent.is_none_or(|p| self.is_descendant(j, p)))
            .take_while(|&j| self.els[j].role != Role::Heading || self.ancestors(j).count() > depth)
            .collect()
    }

    /// The sentence a nameless element reads as, when inline links split it into pieces:
    /// its children's raw names joined ("The user “" + link "tnguyen" + "” was added
    /// successfully.", a message Django's admin writes). None unless every descendant is
    /// text or a link, and at least one is each.
    pub fn sentence(&self, i: usize) -> Option<String> {
        if !self.els[i].visible || !self.name(i).is_empty() {
            return None;
        }
        let (mut text, mut link, mut out) = (false, false, String::new());
        for (n, d) in self.descendants(i).enumerate() {
            match self.els[d].role {
                Role::StaticText => text = true,
                Role::Link => link = true,
                _ => return None,
            }
            // A message is short; a list of links is not a sentence.
            if n >= MAX_SENTENCE_PIECES {
                return None;
            }
            out.push_str(&self.els[d].name);
            out.push(' ');
        }
        (text && link).then_some(out)
    }

    /// Visible, enabled and offering `kind`.
    pub fn offers(&self, i: usize, kind: ActionKind) -> bool {
        let e = &self.els[i];
        e.visible && e.offers(kind)
    }

    /// A native `<select>`: it takes SELECT_OPTION, so its options are not clicked.
    pub fn is_native_select(&self, i: usize) -> bool {
        self.els[i].actions.contains(ActionKind::SelectOption)
    }

    /// Options of a native select are chosen through it, never clicked.
    pub fn in_native_select(&self, i: usize) -> bool {
        self.native_select_of(i).is_some()
    }

    /// The native select an option belongs to (directly, or through its optgroup).
    pub fn native_select_of(&self, i: usize) -> Option<usize> {
        if self.els[i].role != Role::Option {
            return None;
        }
        let p = self.parent(i)?;
        if self.is_native_select(p) {
            return Some(p);
        }
        (self.els[p].role == Role::Group)
            .then(|| self.parent(p))
            .flatten()
            .filter(|&g| self.is_native_select(g))
    }

    /// The elements `admit` accepts, when at most one is wanted: none, the one, or the
    /// first two (for a reason that names the ambiguity).
    pub fn only(&self, admit: impl Fn(usize) -> bool) -> Only {
        let mut found = None;
        for i in (0..self.len()).filter(|&i| admit(i)) {
            match found {
                Some(a) => return Only::Two(a, i),
                None => found = Some(i),
            }
        }
        found.map_or(Only::None, Only::One)
    }

    pub fn url(&self) -> Option<&str> {
        self.snapshot.url()
    }
}

/// What [`Facts::only`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Only {
    None,
    One(usize),
    Two(usize, usize),
}

impl Only {
    /// The element when it is the only one.
    pub fn one(self) -> Option<usize> {
        match self {
            Only::One(i) => Some(i),
            _ => None,
        }
    }
}
