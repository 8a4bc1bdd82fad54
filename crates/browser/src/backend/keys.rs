//! Named keys and chords as `Input.dispatchKeyEvent` fields (DOM `key`, `code`, the
//! Windows virtual key code Chromium routes by, and the text a key inserts).

use arc_core::{Chord, Key, Modifier};

pub struct KeyDef {
    pub key: String,
    pub code: String,
    pub vk: i64,
    pub text: Option<String>,
}

pub fn key_def(k: Key) -> KeyDef {
    let named = |key: &str, vk: i64, text: Option<&str>| KeyDef {
        key: key.into(),
        code: key.into(),
        vk,
        text: text.map(str::to_owned),
    };
    match k {
        Key::Enter => named("Enter", 13, Some("\r")),
        Key::Escape => named("Escape", 27, None),
        Key::Tab => named("Tab", 9, None),
        Key::Space => KeyDef {
            key: " ".into(),
            code: "Space".into(),
            vk: 32,
            text: Some(" ".into()),
        },
        Key::Backspace => named("Backspace", 8, None),
        Key::Delete => named("Delete", 46, None),
        Key::ArrowUp => named("ArrowUp", 38, None),
        Key::ArrowDown => named("ArrowDown", 40, None),
        Key::ArrowLeft => named("ArrowLeft", 37, None),
        Key::ArrowRight => named("ArrowRight", 39, None),
        Key::Home => named("Home", 36, None),
        Key::End => named("End", 35, None),
        Key::PageUp => named("PageUp", 33, None),
        Key::PageDown => named("PageDown", 34, None),
        Key::Insert => named("Insert", 45, None),
        Key::F(n) => named(&format!("F{n}"), 111 + n as i64, None),
        Key::Char(c) => {
            let upper = c.to_ascii_uppercase();
            let code = if upper.is_ascii_alphabetic() {
                format!("Key{upper}")
            } else if upper.is_ascii_digit() {
                format!("Digit{upper}")
            } else {
                String::new()
            };
            let vk = if upper.is_ascii_alphanumeric() {
                upper as i64
            } else {
                0
            };
            let lower = c.to_ascii_lowercase().to_string();
            KeyDef {
                key: lower.clone(),
                code,
                vk,
                text: Some(lower),
            }
        }
    }
}

/// A chord's CDP modifier bits ([`held_bits`]).
pub fn modifier_bits(chord: &Chord) -> i64 {
    held_bits(&chord.modifiers)
}

/// CDP modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8. `MOD` is Ctrl on Linux.
pub fn held_bits(modifiers: &[Modifier]) -> i64 {
    modifiers.iter().fold(0, |bits, m| {
        bits | match m {
            Modifier::Alt => 1,
            Modifier::Ctrl | Modifier::Mod => 2,
            Modifier::Meta => 4,
            Modifier::Shift => 8,
        }
    })
}

/// A modifier's own key, pressed and released around what it modifies.
pub fn modifier_key(m: Modifier) -> KeyDef {
    let (key, code, vk) = match m {
        Modifier::Alt => ("Alt", "AltLeft", 18),
        Modifier::Ctrl | Modifier::Mod => ("Control", "ControlLeft", 17),
        Modifier::Meta => ("Meta", "MetaLeft", 91),
        Modifier::Shift => ("Shift", "ShiftLeft", 16),
    };
    KeyDef {
        key: key.into(),
        code: code.into(),
        vk,
        text: None,
    }
}

/// The editing command a chord means, so it works even where the renderer would not
/// derive it from a synthetic key event.
pub fn editing_command(chord: &Chord) -> Option<&'static str> {
    let primary = chord
        .modifiers
        .iter()
        .any(|m| matches!(m, Modifier::Mod | Modifier::Ctrl));
    let shift = chord.modifiers.contains(&Modifier::Shift);
    if !primary {
        return None;
    }
    Some(match (chord.key, shift) {
        (Key::Char('A'), false) => "selectAll",
        (Key::Char('C'), false) => "copy",
        (Key::Char('X'), false) => "cut",
        (Key::Char('V'), false) => "paste",
        (Key::Char('Z'), false) => "undo",
        (Key::Char('Z'), true) | (Key::Char('Y'), false) => "redo",
        _ => return None,
    })
}
