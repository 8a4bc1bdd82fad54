//! The `Input` domain: trusted mouse and keyboard events. Coordinates are CSS pixels
//! relative to the main frame's viewport.

use serde::Serialize;

use crate::cdp::{cdp_method, Empty};

/// Modifier bits for the `modifiers` fields.
pub mod modifiers {
    pub const ALT: i64 = 1;
    pub const CTRL: i64 = 2;
    /// Command on macOS.
    pub const META: i64 = 4;
    pub const SHIFT: i64 = 8;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MouseEventType {
    MousePressed,
    MouseReleased,
    MouseMoved,
    MouseWheel,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MouseButton {
    None,
    Left,
    Middle,
    Right,
    Back,
    Forward,
}

/// `Input.dispatchMouseEvent`. A click is `mouseMoved`, `mousePressed` and
/// `mouseReleased` with `click_count: Some(1)` (2 on the second pair of a double click).
///
/// The reply comes only after the renderer handled the event: if the click opens a
/// JavaScript dialog (`alert`/`confirm`/`prompt`), the `mouseReleased` call does not
/// return until the dialog is answered (`Page.handleJavaScriptDialog`). Watch for
/// `Page.javascriptDialogOpening` concurrently (or send input from another task), or
/// the call ends in its timeout. The same holds for key events.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DispatchMouseEvent {
    #[serde(rename = "type")]
    pub kind: MouseEventType,
    pub x: f64,
    pub y: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifiers: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<MouseButton>,
    /// Buttons held, as a bit mask (left 1, right 2, middle 4, back 8, forward 16);
    /// set it on `mouseMoved` while dragging.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buttons: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<i64>,
    /// Wheel deltas in CSS pixels (`mouseWheel` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_x: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta_y: Option<f64>,
    /// `mouse` (default) or `pen`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer_type: Option<String>,
}

impl DispatchMouseEvent {
    /// An event of `kind` at (`x`, `y`) with every optional field unset.
    pub fn new(kind: MouseEventType, x: f64, y: f64) -> Self {
        DispatchMouseEvent {
            kind,
            x,
            y,
            modifiers: None,
            button: None,
            buttons: None,
            click_count: None,
            delta_x: None,
            delta_y: None,
            pointer_type: None,
        }
    }
}
cdp_method!(DispatchMouseEvent, "Input.dispatchMouseEvent", Empty);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum KeyEventType {
    /// A key press that also produces `text` (a `keypress`/input).
    KeyDown,
    KeyUp,
    /// A key press without text (shortcuts, navigation keys).
    RawKeyDown,
    Char,
}

/// `Input.dispatchKeyEvent`. For printable keys send `keyDown` with `text`; for
/// Enter/Tab/arrows send `rawKeyDown` with `key`, `code` and `windows_virtual_key_code`
/// (plus `text: "\r"` for Enter so forms submit), then `keyUp`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DispatchKeyEvent {
    #[serde(rename = "type")]
    pub kind: KeyEventType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifiers: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmodified_text: Option<String>,
    /// DOM `code`, e.g. `KeyA`, `Enter`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// DOM `key`, e.g. `a`, `Enter`, `ArrowDown`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windows_virtual_key_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub native_virtual_key_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto_repeat: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_keypad: Option<bool>,
    /// 0 default, 1 left, 2 right (for modifier keys).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<i64>,
    /// Editing commands to run (e.g. `selectAll`): headless has no platform key
    /// bindings, so Ctrl+A alone does not select.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commands: Option<Vec<String>>,
}

impl DispatchKeyEvent {
    /// An event of `kind` with every optional field unset.
    pub fn new(kind: KeyEventType) -> Self {
        DispatchKeyEvent {
            kind,
            modifiers: None,
            text: None,
            unmodified_text: None,
            code: None,
            key: None,
            windows_virtual_key_code: None,
            native_virtual_key_code: None,
            auto_repeat: None,
            is_keypad: None,
            location: None,
            commands: None,
        }
    }
}
cdp_method!(DispatchKeyEvent, "Input.dispatchKeyEvent", Empty);

/// `Input.insertText`: commits text as an IME would (one `input` event, no key events).
#[derive(Debug, Clone, Serialize)]
pub struct InsertText {
    pub text: String,
}
cdp_method!(InsertText, "Input.insertText", Empty);
