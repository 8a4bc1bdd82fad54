//! One normalized, currently observable UI element.

use crate::action::{ActionKind, ActionSet};
use crate::facts::ElementFacts;
use crate::role::Role;
use crate::scalar::Scalar;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use xxhash_rust::xxh3::Xxh3;

/// An element id: stable for the session, assigned by a backend, never model-invented.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ElementId(pub String);

impl ElementId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ElementId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for ElementId {
    fn from(s: &str) -> Self {
        ElementId(s.to_owned())
    }
}

impl From<String> for ElementId {
    fn from(s: String) -> Self {
        ElementId(s)
    }
}

impl std::borrow::Borrow<str> for ElementId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// A fingerprint of what an element looked like when a decision was made on it. Before a
/// mutation the backend re-reads the target and compares; a mismatch means stale.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Guard(pub String);

impl Guard {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Bounds {
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    pub fn area(&self) -> f64 {
        self.width.max(0.0) * self.height.max(0.0)
    }
}

/// Where an element was perceived.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    Cdp,
    Atspi,
    Ocr,
    Sim,
    /// Anything else a caller reports (`macos_ax`, `demo`, …), kept verbatim.
    Other(String),
}

impl Source {
    pub fn as_str(&self) -> &str {
        match self {
            Source::Cdp => "cdp",
            Source::Atspi => "atspi",
            Source::Ocr => "ocr",
            Source::Sim => "sim",
            Source::Other(s) => s,
        }
    }

    pub fn parse(raw: &str) -> Source {
        match raw {
            "cdp" => Source::Cdp,
            "atspi" => Source::Atspi,
            "ocr" => Source::Ocr,
            "sim" => Source::Sim,
            other => Source::Other(other.to_owned()),
        }
    }
}

impl Default for Source {
    fn default() -> Self {
        Source::Other("unknown".into())
    }
}

impl Serialize for Source {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Source::parse(&String::deserialize(d)?))
    }
}

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}
fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Element {
    pub id: ElementId,
    pub role: Role,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Scalar>,
    #[serde(default)]
    pub actions: ActionSet,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub enabled: bool,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub visible: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub focused: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expanded: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<ElementId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
    #[serde(default)]
    pub source: Source,
    #[serde(default, skip_serializing_if = "is_false")]
    pub accepts_drop: bool,
    /// Selector material and field kind (DOM id, test id, placeholder, input type, …),
    /// plus a backend's private extras: the reference's `metadata` map on the wire.
    #[serde(
        default,
        rename = "metadata",
        skip_serializing_if = "ElementFacts::is_empty"
    )]
    pub facts: ElementFacts,
    /// A precomputed guard (OCR uses a spatial one); empty means "use the semantic guard".
    #[serde(default, skip_serializing_if = "Guard::is_empty")]
    pub guard: Guard,
}

impl Element {
    /// An enabled, visible element with no actions, for builders and tests.
    pub fn new(id: impl Into<ElementId>, role: Role, name: impl Into<String>) -> Self {
        Element {
            id: id.into(),
            role,
            name: name.into(),
            value: None,
            actions: ActionSet::EMPTY,
            enabled: true,
            visible: true,
            focused: false,
            selected: None,
            expanded: None,
            parent_id: None,
            bounds: None,
            source: Source::default(),
            accepts_drop: false,
            facts: ElementFacts::default(),
            guard: Guard::default(),
        }
    }

    /// The guard a freshness check compares: the precomputed one if the backend set it,
    /// else a fingerprint of what a person would notice changing (role, name, value,
    /// states, offered actions, position rounded to whole pixels).
    pub fn effective_guard(&self) -> Guard {
        if self.guard.is_empty() {
            self.semantic_guard()
        } else {
            self.guard.clone()
        }
    }

    pub fn semantic_guard(&self) -> Guard {
        let mut h = Xxh3::new();
        self.feed_semantics(&mut h);
        Guard(format!("{:016x}", h.digest()))
    }

    /// Feeds the guard-relevant state into a hasher (also used for snapshot revisions).
    pub(crate) fn feed_semantics(&self, h: &mut Xxh3) {
        h.update(self.role.as_str().as_bytes());
        h.update(&[0]);
        h.update(self.name.as_bytes());
        h.update(&[0]);
        match &self.value {
            None => h.update(&[0]),
            Some(v) => {
                h.update(&[1]);
                h.update(v.as_text().as_bytes());
            }
        }
        h.update(&self.actions.bits().to_le_bytes());
        let tri = |o: Option<bool>| match o {
            None => 0u8,
            Some(false) => 1,
            Some(true) => 2,
        };
        h.update(&[
            self.enabled as u8,
            self.visible as u8,
            tri(self.selected),
            tri(self.expanded),
            self.accepts_drop as u8,
        ]);
        if let Some(b) = &self.bounds {
            for v in [b.x, b.y, b.width, b.height] {
                h.update(&(v.round() as i64).to_le_bytes());
            }
        }
    }

    /// Whether the element takes `kind`: it lists it, or — SELECT_TEXT — it is text a
    /// page shows (a text run, paragraph, heading, cell, label or list item with words).
    /// SELECT_TEXT is implied rather than listed: a non-empty `actions` is what marks an
    /// element interactive (the view's tiers, label pairing), and text is not.
    pub fn offers(&self, kind: ActionKind) -> bool {
        self.actions.contains(kind) || (kind == ActionKind::SelectText && self.shows_page_text())
    }

    fn shows_page_text(&self) -> bool {
        self.source == Source::Cdp
            && matches!(
                self.role,
                Role::StaticText
                    | Role::Paragraph
                    | Role::Heading
                    | Role::Cell
                    | Role::ColumnHeader
                    | Role::RowHeader
                    | Role::Label
                    | Role::ListItem
            )
            && !self.name.trim().is_empty()
    }

    /// Whether a person could act on it now: visible and enabled.
    pub fn is_actionable(&self) -> bool {
        self.visible && self.enabled && !self.actions.is_empty()
    }
}
