//! One action an agent asks for: the core vocabulary, with literals inline (a raw act
//! has no subtask to hold inputs) and element ids from the cited observation.

use arc_core::{Chord, ElementId, Key, ScrollDirection, SubmitKey};
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub enum HostAction {
    Click {
        target_id: ElementId,
        /// A key held during the click: MOD (Control here) toggles the element in a
        /// multi-selection, SHIFT extends a range to it (the reference's `click_modifier`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        click_modifier: Option<arc_core::ClickModifier>,
    },
    DoubleClick {
        target_id: ElementId,
    },
    RightClick {
        target_id: ElementId,
    },
    Hover {
        target_id: ElementId,
    },
    /// Highlights all the text the element shows with a mouse drag.
    SelectText {
        target_id: ElementId,
    },
    /// Focuses the field, selects what it holds and types `text` as one insertion; then
    /// presses `key` in it when given (ENTER submits its form, TAB moves on).
    TypeText {
        target_id: ElementId,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<SubmitKey>,
    },
    SetValue {
        target_id: ElementId,
        text: String,
    },
    SelectOption {
        target_id: ElementId,
        option: String,
    },
    PressKey {
        key: Key,
    },
    Hotkey {
        hotkey: Chord,
    },
    Scroll {
        direction: ScrollDirection,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target_id: Option<ElementId>,
    },
    DragTo {
        target_id: ElementId,
        destination_id: ElementId,
    },
    DragBy {
        target_id: ElementId,
        dx: f64,
        dy: f64,
    },
    Wait,
    Navigate {
        url: String,
    },
    /// Clicks at viewport point (x, y), CSS pixels from the page's top-left corner. The
    /// risk gate reads the element at the point.
    ClickAt {
        x: f64,
        y: f64,
        #[serde(default)]
        button: PointerButton,
        /// 1–3 (a double or triple click).
        #[serde(default = "one")]
        count: u8,
        /// Keys held during the click (the events' shiftKey, ctrlKey, altKey, metaKey).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        modifiers: Vec<ClickModifier>,
    },
    /// Turns the wheel at (x, y) by (dx, dy) pixels; as the reference's `scroll_at`,
    /// positive dy shows what is above (and positive dx what is to the left).
    ScrollAt {
        x: f64,
        y: f64,
        #[serde(default)]
        dx: f64,
        #[serde(default)]
        dy: f64,
    },
    /// Presses at the first point, moves through the others, releases at the last.
    DragPath {
        points: Vec<[f64; 2]>,
    },
    /// Types `text` where the focus is; the focused element must take typed text.
    TypeFocused {
        text: String,
    },
}

/// The mouse button of `CLICK_AT` (and of the MCP tool `click_at`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PointerButton {
    #[default]
    Left,
    Right,
}

/// A key held during `CLICK_AT` (the reference's `modifiers`; the MCP tool `click_at`
/// takes the same words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClickModifier {
    Shift,
    #[serde(alias = "control")]
    Ctrl,
    #[serde(alias = "option")]
    Alt,
    #[serde(alias = "cmd", alias = "command", alias = "super")]
    Meta,
}

impl ClickModifier {
    pub fn to_core(self) -> arc_core::key::Modifier {
        use arc_core::key::Modifier as M;
        match self {
            ClickModifier::Shift => M::Shift,
            ClickModifier::Ctrl => M::Ctrl,
            ClickModifier::Alt => M::Alt,
            ClickModifier::Meta => M::Meta,
        }
    }
}

fn one() -> u8 {
    1
}

/// The input key a raw act's literal travels under inside the host.
pub(crate) const LITERAL_KEY: &str = "text";

impl HostAction {
    /// The core action and the literal it types, sets, selects or navigates to; None
    /// for the point and focus actions, which have no element (`crate::point`).
    pub(crate) fn to_core(&self) -> Option<(arc_core::Action, Option<&str>)> {
        use arc_core::Action as A;
        let key = || LITERAL_KEY.to_owned();
        Some(match self {
            HostAction::Click {
                target_id,
                click_modifier,
            } => (
                A::Click {
                    target: target_id.clone(),
                    modifier: *click_modifier,
                },
                None,
            ),
            HostAction::DoubleClick { target_id } => (
                A::DoubleClick {
                    target: target_id.clone(),
                },
                None,
            ),
            HostAction::RightClick { target_id } => (
                A::RightClick {
                    target: target_id.clone(),
                },
                None,
            ),
            HostAction::Hover { target_id } => (
                A::Hover {
                    target: target_id.clone(),
                },
                None,
            ),
            HostAction::SelectText { target_id } => (
                A::SelectText {
                    target: target_id.clone(),
                },
                None,
            ),
            HostAction::TypeText {
                target_id,
                text,
                key: submit,
            } => (
                A::TypeText {
                    target: target_id.clone(),
                    input_key: key(),
                    submit: *submit,
                },
                Some(text),
            ),
            HostAction::SetValue { target_id, text } => (
                A::SetValue {
                    target: target_id.clone(),
                    input_key: key(),
                },
                Some(text),
            ),
            HostAction::SelectOption { target_id, option } => (
                A::SelectOption {
                    target: target_id.clone(),
                    input_key: key(),
                },
                Some(option),
            ),
            HostAction::PressKey { key } => (A::PressKey { key: *key }, None),
            HostAction::Hotkey { hotkey } => (
                A::Hotkey {
                    chord: hotkey.clone(),
                },
                None,
            ),
            HostAction::Scroll {
                direction,
                target_id,
            } => (
                A::Scroll {
                    direction: *direction,
                    target: target_id.clone(),
                },
                None,
            ),
            HostAction::DragTo {
                target_id,
                destination_id,
            } => (
                A::DragTo {
                    target: target_id.clone(),
                    destination: destination_id.clone(),
                },
                None,
            ),
            HostAction::DragBy { target_id, dx, dy } => (
                A::DragBy {
                    target: target_id.clone(),
                    dx: *dx,
                    dy: *dy,
                },
                None,
            ),
            HostAction::Wait => (A::Wait, None),
            HostAction::Navigate { url } => (A::Navigate { input_key: key() }, Some(url)),
            HostAction::ClickAt { .. }
            | HostAction::ScrollAt { .. }
            | HostAction::DragPath { .. }
            | HostAction::TypeFocused { .. } => return None,
        })
    }
}
