//! Typed observation facts: what a backend reports about an element or a page that more
//! than one crate reads (grounding, the selector cache, the monitors, the model prompt).
//!
//! On the wire they stay where the reference keeps them, under the keys they always had:
//! an element's facts in its `metadata` map, a page's in the snapshot's `context` map.
//! Whatever else a backend attaches, and nobody else reads, stays untyped in `extra`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// Selector material and field kind of one element (an element's `metadata` on the wire).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ElementFacts {
    /// The DOM `id` attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dom_id: Option<String>,
    /// A test id an author put there (`data-testid`, `data-test-id`, `data-test`, `data-qa`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_id: Option<String>,
    /// A desktop toolkit's automation id (UIA `AutomationId`, AT-SPI accessible id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automation_id: Option<String>,
    /// The `name` attribute: what a form submits the field under.
    #[serde(default, rename = "name_attr", skip_serializing_if = "Option::is_none")]
    pub form_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    /// The `type` attribute of an `<input>` or `<button>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_type: Option<InputType>,
    /// The `autocomplete` attribute: what the field asks for, by the standard's tokens
    /// (`one-time-code`, `current-password`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autocomplete: Option<String>,
    /// The element stands for a tab the page opened (a browser shows it so a CLICK can
    /// switch there); the host keeps a session's scope from widening to it.
    #[serde(
        default,
        rename = "browser_tab",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub opened_tab: bool,
    /// A text field that holds several lines (`<textarea>`, `aria-multiline`): what "text
    /// area" names, as against a one-line "textbox".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multiline: bool,
    /// How far the element's own content is scrolled, when it scrolls vertically.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scroll: Option<ScrollOffset>,
    /// Backend-private extras (tag, href, …), kept verbatim; nothing outside the backend
    /// that wrote them reads them.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl ElementFacts {
    pub fn is_empty(&self) -> bool {
        *self == ElementFacts::default()
    }

    /// The author-given identifiers, strongest first: test id, automation id, DOM id,
    /// form name.
    pub fn identifiers(&self) -> impl Iterator<Item = &str> {
        [
            &self.test_id,
            &self.automation_id,
            &self.dom_id,
            &self.form_name,
        ]
        .into_iter()
        .filter_map(|v| v.as_deref())
    }
}

/// How far an element's own content is scrolled vertically, in CSS pixels: `top` of
/// `max` (0 at the top, `max` at the bottom). What "scroll the text area to the bottom"
/// moves, and what checks it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScrollOffset {
    pub top: f64,
    pub max: f64,
}

impl ScrollOffset {
    /// Within this many pixels of an end counts as at it (sub-pixel layouts round).
    const SLACK: f64 = 2.0;

    pub fn at_top(&self) -> bool {
        self.top <= Self::SLACK
    }

    pub fn at_bottom(&self) -> bool {
        self.top >= self.max - Self::SLACK
    }
}

/// An HTML `type` attribute. Parsed ASCII-case-insensitively (as HTML does); an unknown
/// type is kept verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InputType {
    Button,
    Checkbox,
    Color,
    Date,
    DatetimeLocal,
    Email,
    File,
    Hidden,
    Image,
    Month,
    Number,
    Password,
    Radio,
    Range,
    Reset,
    Search,
    Submit,
    Tel,
    Text,
    Time,
    Url,
    Week,
    Other(String),
}

const KNOWN_INPUT_TYPES: &[(&str, InputType)] = &[
    ("button", InputType::Button),
    ("checkbox", InputType::Checkbox),
    ("color", InputType::Color),
    ("date", InputType::Date),
    ("datetime-local", InputType::DatetimeLocal),
    ("email", InputType::Email),
    ("file", InputType::File),
    ("hidden", InputType::Hidden),
    ("image", InputType::Image),
    ("month", InputType::Month),
    ("number", InputType::Number),
    ("password", InputType::Password),
    ("radio", InputType::Radio),
    ("range", InputType::Range),
    ("reset", InputType::Reset),
    ("search", InputType::Search),
    ("submit", InputType::Submit),
    ("tel", InputType::Tel),
    ("text", InputType::Text),
    ("time", InputType::Time),
    ("url", InputType::Url),
    ("week", InputType::Week),
];

impl InputType {
    pub fn parse(raw: &str) -> InputType {
        KNOWN_INPUT_TYPES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(raw))
            .map_or_else(|| InputType::Other(raw.to_owned()), |(_, t)| t.clone())
    }

    /// The HTML spelling (lower case for the known types).
    pub fn as_str(&self) -> &str {
        match self {
            InputType::Other(raw) => raw,
            known => KNOWN_INPUT_TYPES
                .iter()
                .find(|(_, t)| t == known)
                .map_or("", |(name, _)| name),
        }
    }

    /// A date or time, typed part by part in a page but set as one string.
    pub fn is_date_or_time(&self) -> bool {
        matches!(
            self,
            InputType::Date
                | InputType::Time
                | InputType::DatetimeLocal
                | InputType::Month
                | InputType::Week
        )
    }
}

impl Serialize for InputType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for InputType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(InputType::parse(&String::deserialize(d)?))
    }
}

/// What a snapshot says about the page or window it shows (a snapshot's `context` on the
/// wire).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PageFacts {
    /// The address of the page (a browser's main frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The document's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How much of the page this observation read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<ObservationScope>,
    /// Elements a viewport scan left out (only with [`ObservationScope::Viewport`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_out_elements: Option<u64>,
    /// The open JavaScript dialog (alert, confirm, prompt) this snapshot shows, by the
    /// backend's serial number for it: the page beneath is inert while it is open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<u64>,
    /// The files this session's page downloaded and the backend saved, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<Download>,
    /// Backend-private extras (pid, window id, …), kept verbatim.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// A file the page downloaded, as saved: its name (the page's suggestion, made safe),
/// where it is, its size and its SHA-256 (lower-case hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Download {
    pub name: String,
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

impl PageFacts {
    pub fn is_empty(&self) -> bool {
        *self == PageFacts::default()
    }
}

/// How much of the page an observation read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObservationScope {
    /// Every element of the page.
    Full,
    /// What is on screen (± a margin), the focused element and open dialogs.
    Viewport,
}
