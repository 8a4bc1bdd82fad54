//! A snapshot: the whole observable state of one target at one moment.
//!
//! Elements live behind an `Arc<[Element]>` so a snapshot is cheap to hand to a policy,
//! an event stream and a record at once. Lookups by id scan until a snapshot has been
//! asked often enough to pay for an index (measured: building a 1,000-entry index cost
//! ~40 µs, most of the loop's per-step budget, while the loop itself looks up ~3 ids).

use crate::action::ActionSet;
use crate::element::{Bounds, Element, ElementId};
use crate::facts::PageFacts;
use crate::role::Role;
use crate::scalar::Scalar;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use xxhash_rust::xxh3::Xxh3;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    pub application: String,
    pub window: String,
    /// Fingerprint of the whole state: equal revisions mean nothing observable changed.
    pub revision: String,
    pub elements: Arc<[Element]>,
    /// URL, title, observation scope, …, plus a backend's private extras: the
    /// reference's `context` map on the wire.
    #[serde(
        default,
        rename = "context",
        skip_serializing_if = "PageFacts::is_empty"
    )]
    pub facts: PageFacts,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_at_ms: Option<u64>,
    /// The visible area, in the same coordinates as element bounds. Elements outside it
    /// are off-screen (a view keeps on-screen controls first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewport: Option<Bounds>,
    /// What the page's password fields held (the elements show them masked), for a
    /// redactor to learn: a page may echo them elsewhere or show the field as text.
    #[serde(skip)]
    passwords: PasswordValues,
    #[serde(skip)]
    index: OnceLock<HashMap<ElementId, usize>>,
    #[serde(skip)]
    lookups: AtomicU32,
}

/// Secret values riding on a snapshot: `Debug` shows only how many.
#[derive(Clone, Default)]
struct PasswordValues(Arc<[String]>);

impl std::fmt::Debug for PasswordValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} password values", self.0.len())
    }
}

/// Lookups a snapshot answers by scanning before it builds an index.
const SCAN_LOOKUPS: u32 = 8;

impl Clone for Snapshot {
    fn clone(&self) -> Self {
        Snapshot {
            application: self.application.clone(),
            window: self.window.clone(),
            revision: self.revision.clone(),
            elements: self.elements.clone(),
            facts: self.facts.clone(),
            captured_at_ms: self.captured_at_ms,
            viewport: self.viewport,
            passwords: self.passwords.clone(),
            index: self.index.clone(),
            lookups: AtomicU32::new(self.lookups.load(Ordering::Relaxed)),
        }
    }
}

impl PartialEq for Snapshot {
    fn eq(&self, other: &Self) -> bool {
        self.application == other.application
            && self.window == other.window
            && self.revision == other.revision
            && self.elements == other.elements
            && self.facts == other.facts
            && self.captured_at_ms == other.captured_at_ms
            && self.viewport == other.viewport
    }
}

impl Snapshot {
    /// A snapshot whose revision is computed from its content.
    pub fn new(
        application: impl Into<String>,
        window: impl Into<String>,
        elements: impl Into<Arc<[Element]>>,
    ) -> Self {
        let application = application.into();
        let window = window.into();
        let elements = elements.into();
        let revision = Self::fingerprint(&application, &window, &elements);
        Snapshot::with_revision(application, window, revision, elements)
    }

    /// A snapshot with a revision the backend computed itself.
    pub fn with_revision(
        application: impl Into<String>,
        window: impl Into<String>,
        revision: impl Into<String>,
        elements: impl Into<Arc<[Element]>>,
    ) -> Self {
        Snapshot {
            application: application.into(),
            window: window.into(),
            revision: revision.into(),
            elements: elements.into(),
            facts: PageFacts::default(),
            captured_at_ms: None,
            viewport: None,
            passwords: PasswordValues::default(),
            index: OnceLock::new(),
            lookups: AtomicU32::new(0),
        }
    }

    /// What the target's password fields held when this was observed (`Redactor::learn`
    /// learns them); never serialized, compared or printed.
    pub fn password_values(&self) -> &[String] {
        &self.passwords.0
    }

    /// Records what the target's password fields held (a backend that can read them).
    pub fn set_password_values(&mut self, values: Vec<String>) {
        self.passwords = PasswordValues(values.into());
    }

    /// An empty snapshot, used when a run ends before the first observation succeeds.
    pub fn empty() -> Self {
        Snapshot::new("", "", Vec::new())
    }

    /// Records the URL and folds it into the revision: a navigation to a page with the
    /// same elements is still a different state.
    pub fn set_url(&mut self, url: impl Into<String>) {
        let url = url.into();
        let mut h = Xxh3::new();
        h.update(self.revision.as_bytes());
        h.update(&[0]);
        h.update(url.as_bytes());
        self.revision = format!("{:016x}", h.digest());
        self.facts.url = Some(url);
    }

    /// A content fingerprint: ids, parents and every guard-relevant field.
    pub fn fingerprint(application: &str, window: &str, elements: &[Element]) -> String {
        let mut h = Xxh3::new();
        h.update(application.as_bytes());
        h.update(&[0]);
        h.update(window.as_bytes());
        for e in elements {
            h.update(&[0xff]);
            h.update(e.id.as_str().as_bytes());
            h.update(&[0]);
            if let Some(p) = &e.parent_id {
                h.update(p.as_str().as_bytes());
            }
            h.update(&[e.focused as u8]);
            e.feed_semantics(&mut h);
            // Not in the guard's semantics (a scrolled box is the same box), but a scroll
            // inside an element is a change of state.
            if let Some(s) = &e.facts.scroll {
                h.update(&(s.top.round() as i64).to_le_bytes());
                h.update(&(s.max.round() as i64).to_le_bytes());
            }
        }
        format!("{:016x}", h.digest())
    }

    /// Lookup by id: a scan for the first few lookups, then O(1) through an index.
    /// Whether CLICK on `el` is a press inside a control: `el` is a run of text (it offers
    /// nothing itself) and its nearest ancestor that offers anything offers CLICK — a
    /// toolbar drawn as one pointer region with a label per action ("Reply", "Forward").
    pub fn text_in_control(&self, el: &Element) -> bool {
        if el.role != crate::Role::StaticText || !el.actions.is_empty() {
            return false;
        }
        let mut cur = el.parent_id.as_ref();
        for _ in 0..64 {
            let Some(p) = cur.and_then(|id| self.element(id.as_str())) else {
                return false;
            };
            if !p.actions.is_empty() {
                return p.visible && p.actions.contains(crate::ActionKind::Click);
            }
            cur = p.parent_id.as_ref();
        }
        false
    }

    pub fn element(&self, id: &str) -> Option<&Element> {
        if let Some(index) = self.index.get() {
            return index.get(id).map(|&i| &self.elements[i]);
        }
        if self.lookups.fetch_add(1, Ordering::Relaxed) < SCAN_LOOKUPS {
            return self.elements.iter().find(|e| e.id.as_str() == id);
        }
        let index = self.index.get_or_init(|| {
            self.elements
                .iter()
                .enumerate()
                .map(|(i, e)| (e.id.clone(), i))
                .collect()
        });
        index.get(id).map(|&i| &self.elements[i])
    }

    /// The page's address, when the backend has one (a browser does).
    pub fn url(&self) -> Option<&str> {
        self.facts.url.as_deref()
    }

    /// The page's title when the backend reported one, else the window's.
    pub fn title(&self) -> &str {
        self.facts.title.as_deref().unwrap_or(&self.window)
    }

    /// Whether `element` intersects the viewport (true when either is unknown).
    pub fn on_screen(&self, element: &Element) -> bool {
        match (&self.viewport, &element.bounds) {
            (Some(v), Some(b)) => {
                b.x < v.x + v.width
                    && b.x + b.width > v.x
                    && b.y < v.y + v.height
                    && b.y + b.height > v.y
            }
            _ => true,
        }
    }

    /// The element with keyboard focus, if any.
    pub fn focused(&self) -> Option<&Element> {
        self.elements.iter().find(|e| e.focused)
    }

    /// The planner-facing summary: visible elements only, default fields omitted.
    /// Not redacted: what leaves the process goes through [`crate::Redactor::compact`].
    pub fn compact(&self) -> CompactSnapshot {
        CompactSnapshot {
            application: self.application.clone(),
            window: self.window.clone(),
            revision: self.revision.clone(),
            elements: self
                .elements
                .iter()
                .filter(|e| e.visible)
                .map(CompactElement::from)
                .collect(),
        }
    }
}

fn is_true(b: &bool) -> bool {
    *b
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn yes() -> bool {
    true
}

/// What the result's `final_snapshot` carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompactSnapshot {
    pub application: String,
    pub window: String,
    pub revision: String,
    pub elements: Vec<CompactElement>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompactElement {
    pub id: ElementId,
    pub role: Role,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Scalar>,
    #[serde(default, skip_serializing_if = "ActionSet::is_empty")]
    pub actions: ActionSet,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub focused: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded: Option<bool>,
}

impl From<&Element> for CompactElement {
    fn from(e: &Element) -> Self {
        CompactElement {
            id: e.id.clone(),
            role: e.role.clone(),
            name: e.name.clone(),
            value: e.value.clone(),
            actions: e.actions,
            enabled: e.enabled,
            focused: e.focused,
            selected: e.selected,
            expanded: e.expanded,
        }
    }
}
