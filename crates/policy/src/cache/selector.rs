//! A stable description of an element that survives a new session (where ids differ):
//! the ids a page author gave it (test id, DOM id, automation id), its role and
//! normalized name, and its structural path. Resolution tries them strongest first,
//! then self-heals by normalized edit distance over live labels of the same role.

use arc_core::{ActionKind, Element, ElementId, Role, Snapshot};
use serde::{Deserialize, Serialize};

/// Below this similarity a renamed label is a different control, not a heal.
pub const HEAL_THRESHOLD: f64 = 0.75;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selector {
    pub role: Role,
    /// The accessible name, normalized as the gate and the grounding read it
    /// (`arc_core::name`).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dom_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automation_id: Option<String>,
    /// Roles from the root down, each with its index among same-role siblings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<(Role, u32)>,
}

/// How a selector found its element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Match {
    AuthorId,
    RoleAndName,
    Path,
    /// Matched a renamed label by edit distance (the score is kept for the record).
    Healed,
}

use arc_core::name::normalize_name as normalize;

/// An author-given identifier, when it says something.
fn author_id(id: &Option<String>) -> Option<String> {
    id.clone().filter(|s| !s.is_empty())
}

impl Selector {
    /// Describes `element` as it stands in `snapshot`.
    pub fn of(element: &Element, snapshot: &Snapshot) -> Selector {
        Selector {
            role: element.role.clone(),
            name: normalize(&element.name),
            test_id: author_id(&element.facts.test_id),
            dom_id: author_id(&element.facts.dom_id),
            automation_id: author_id(&element.facts.automation_id),
            path: path_of(element, snapshot),
        }
    }

    /// Finds the element this selector names in `snapshot`, among those offering `kind`.
    pub fn resolve(
        &self,
        snapshot: &Snapshot,
        kind: Option<ActionKind>,
    ) -> Option<(ElementId, Match, f64)> {
        let usable =
            |e: &&Element| e.visible && e.enabled && kind.is_none_or(|k| e.actions.contains(k));
        let candidates: Vec<&Element> = snapshot.elements.iter().filter(usable).collect();
        let by_author = |get: fn(&Element) -> &Option<String>, want: &Option<String>| {
            want.as_ref()
                .and_then(|w| candidates.iter().find(|e| get(e).as_ref() == Some(w)))
        };
        if let Some(e) = by_author(|e| &e.facts.test_id, &self.test_id)
            .or_else(|| by_author(|e| &e.facts.automation_id, &self.automation_id))
            .or_else(|| by_author(|e| &e.facts.dom_id, &self.dom_id))
        {
            // An author id that now names a different role is not the same control.
            if e.role == self.role {
                return Some((e.id.clone(), Match::AuthorId, 1.0));
            }
        }
        let same_role: Vec<&&Element> = candidates.iter().filter(|e| e.role == self.role).collect();
        // Normalized again: a selector stored before names were normalized this way.
        let want = normalize(&self.name);
        let named: Vec<&&&Element> = same_role
            .iter()
            .filter(|e| normalize(&e.name) == want)
            .collect();
        if named.len() == 1 {
            return Some((named[0].id.clone(), Match::RoleAndName, 1.0));
        }
        if named.len() > 1 {
            // Several same-named controls: the structural path decides.
            if let Some(e) = named.iter().find(|e| path_of(e, snapshot) == self.path) {
                return Some((e.id.clone(), Match::Path, 1.0));
            }
            return None;
        }
        let mut scored: Vec<(f64, &Element)> = same_role
            .iter()
            .map(|e| {
                (
                    strsim::normalized_levenshtein(&normalize(&e.name), &want),
                    **e,
                )
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        match scored.as_slice() {
            [(best, e), rest @ ..]
                if *best >= HEAL_THRESHOLD && rest.first().is_none_or(|(r, _)| best - r > 0.1) =>
            {
                Some((e.id.clone(), Match::Healed, *best))
            }
            _ => None,
        }
    }
}

fn path_of(element: &Element, snapshot: &Snapshot) -> Vec<(Role, u32)> {
    let mut path = Vec::new();
    let mut current = Some(element);
    let mut guard = 0;
    while let Some(e) = current {
        let parent = e.parent_id.as_ref();
        let index = snapshot
            .elements
            .iter()
            .filter(|s| s.parent_id.as_ref() == parent && s.role == e.role)
            .position(|s| s.id == e.id)
            .unwrap_or(0) as u32;
        path.push((e.role.clone(), index));
        current = parent.and_then(|p| snapshot.element(p.as_str()));
        guard += 1;
        if guard > 64 {
            break;
        }
    }
    path.reverse();
    path
}
