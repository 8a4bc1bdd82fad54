//! One action an agent asks for: the core vocabulary, with literals inline (a raw act
//! has no subtask to hold inputs) and element ids from the cited observation.

use arc_core::{Chord, ElementId, Key, ScrollDirection};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub enum HostAction {
    Click {
        target_id: ElementId,
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
    /// Focuses the field, selects what it holds and types `text` as one insertion.
    TypeText {
        target_id: ElementId,
        text: String,
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
}

/// The input key a raw act's literal travels under inside the host.
pub(crate) const LITERAL_KEY: &str = "text";

impl HostAction {
    /// The core action and the literal it types, sets, selects or navigates to.
    pub(crate) fn to_core(&self) -> (arc_core::Action, Option<&str>) {
        use arc_core::Action as A;
        let key = || LITERAL_KEY.to_owned();
        match self {
            HostAction::Click { target_id } => (
                A::Click {
                    target: target_id.clone(),
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
            HostAction::TypeText { target_id, text } => (
                A::TypeText {
                    target: target_id.clone(),
                    input_key: key(),
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
        }
    }
}
