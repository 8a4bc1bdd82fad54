//! Keys and chords. `PRESS_KEY` takes a named [`Key`]; `HOTKEY` takes a [`Chord`] such as
//! `MOD+SHIFT+Z`, where `MOD` is Ctrl on Linux and Windows and Cmd on macOS; `TYPE_TEXT`
//! may end with a [`SubmitKey`], and `CLICK` may hold a [`ClickModifier`] (the reference's
//! `TYPE_TEXT_SUBMIT_KEYS` and `CLICK_MODIFIERS`). Parsing is strict so a malformed chord
//! in a payload is an error naming it, never a guess.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// A key that can be pressed on its own or end a chord.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Enter,
    Escape,
    Tab,
    Space,
    Backspace,
    Delete,
    ArrowUp,
    ArrowDown,
    ArrowLeft,
    ArrowRight,
    Home,
    End,
    PageUp,
    PageDown,
    Insert,
    /// F1–F24.
    F(u8),
    /// A printable character, stored upper-case for letters (chords only).
    Char(char),
}

/// The named keys a policy may press without the planner declaring anything
/// (the reference `DEFAULT_PRESS_KEYS`, plus Home/End/PageUp/PageDown).
pub const DEFAULT_PRESS_KEYS: &[Key] = &[
    Key::Enter,
    Key::Escape,
    Key::Tab,
    Key::Space,
    Key::Backspace,
    Key::Delete,
    Key::ArrowUp,
    Key::ArrowDown,
    Key::ArrowLeft,
    Key::ArrowRight,
    Key::Home,
    Key::End,
    Key::PageUp,
    Key::PageDown,
];

const NAMED: &[(&str, Key)] = &[
    ("ENTER", Key::Enter),
    ("RETURN", Key::Enter),
    ("ESCAPE", Key::Escape),
    ("ESC", Key::Escape),
    ("TAB", Key::Tab),
    ("SPACE", Key::Space),
    ("BACKSPACE", Key::Backspace),
    ("DELETE", Key::Delete),
    ("DEL", Key::Delete),
    ("ARROW_UP", Key::ArrowUp),
    ("UP", Key::ArrowUp),
    ("ARROW_DOWN", Key::ArrowDown),
    ("DOWN", Key::ArrowDown),
    ("ARROW_LEFT", Key::ArrowLeft),
    ("LEFT", Key::ArrowLeft),
    ("ARROW_RIGHT", Key::ArrowRight),
    ("RIGHT", Key::ArrowRight),
    ("HOME", Key::Home),
    ("END", Key::End),
    ("PAGE_UP", Key::PageUp),
    ("PAGEUP", Key::PageUp),
    ("PAGE_DOWN", Key::PageDown),
    ("PAGEDOWN", Key::PageDown),
    ("INSERT", Key::Insert),
];

impl Key {
    /// True for keys that name a function rather than a character.
    pub fn is_named(self) -> bool {
        !matches!(self, Key::Char(_))
    }
}

impl FromStr for Key {
    type Err = String;
    fn from_str(raw: &str) -> Result<Self, String> {
        let up = raw.trim().to_ascii_uppercase();
        if let Some((_, k)) = NAMED.iter().find(|(n, _)| *n == up) {
            return Ok(*k);
        }
        if let Some(n) = up.strip_prefix('F').and_then(|d| d.parse::<u8>().ok()) {
            if (1..=24).contains(&n) {
                return Ok(Key::F(n));
            }
        }
        let mut chars = raw.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_whitespace() && !c.is_control() && c != '+' => {
                Ok(Key::Char(c.to_ascii_uppercase()))
            }
            _ => Err(format!("unknown key {raw:?}")),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::F(n) => write!(f, "F{n}"),
            Key::Char(c) => write!(f, "{c}"),
            named => {
                let name = NAMED.iter().find(|(_, k)| k == named).map(|(n, _)| *n);
                f.write_str(name.unwrap_or("?"))
            }
        }
    }
}

/// A modifier in a chord. `Mod` is the platform's primary modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Modifier {
    Mod,
    Ctrl,
    Alt,
    Shift,
    Meta,
}

impl Modifier {
    /// Every modifier, in chord order.
    pub const ALL: [Modifier; 5] = [
        Modifier::Mod,
        Modifier::Ctrl,
        Modifier::Alt,
        Modifier::Shift,
        Modifier::Meta,
    ];

    fn parse(up: &str) -> Option<Modifier> {
        Some(match up {
            "MOD" => Modifier::Mod,
            "CTRL" | "CONTROL" => Modifier::Ctrl,
            "ALT" | "OPTION" => Modifier::Alt,
            "SHIFT" => Modifier::Shift,
            "META" | "SUPER" | "CMD" | "COMMAND" | "WIN" => Modifier::Meta,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Modifier::Mod => "MOD",
            Modifier::Ctrl => "CTRL",
            Modifier::Alt => "ALT",
            Modifier::Shift => "SHIFT",
            Modifier::Meta => "META",
        }
    }
}

impl FromStr for Modifier {
    type Err = String;
    fn from_str(raw: &str) -> Result<Self, String> {
        Modifier::parse(&raw.trim().to_ascii_uppercase())
            .ok_or_else(|| format!("unknown modifier {raw:?} (MOD, CTRL, ALT, SHIFT, META)"))
    }
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A key `TYPE_TEXT` presses right after entering its value: ENTER submits a search or a
/// form, TAB moves on to the next field (the reference's `TYPE_TEXT_SUBMIT_KEYS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SubmitKey {
    Enter,
    Tab,
}

impl SubmitKey {
    pub const ALL: [SubmitKey; 2] = [SubmitKey::Enter, SubmitKey::Tab];

    /// The key pressed.
    pub fn key(self) -> Key {
        match self {
            SubmitKey::Enter => Key::Enter,
            SubmitKey::Tab => Key::Tab,
        }
    }
}

impl TryFrom<Key> for SubmitKey {
    type Error = String;
    fn try_from(key: Key) -> Result<Self, String> {
        match key {
            Key::Enter => Ok(SubmitKey::Enter),
            Key::Tab => Ok(SubmitKey::Tab),
            other => Err(format!(
                "TYPE_TEXT cannot be followed by key {other}: the key after a typed value is ENTER or TAB"
            )),
        }
    }
}

impl fmt::Display for SubmitKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.key(), f)
    }
}

/// A key `CLICK` holds down (the reference's `CLICK_MODIFIERS`): MOD toggles the target in
/// a multi-selection (Ctrl here, Cmd on macOS), SHIFT extends a range to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ClickModifier {
    Mod,
    Shift,
}

impl ClickModifier {
    pub const ALL: [ClickModifier; 2] = [ClickModifier::Mod, ClickModifier::Shift];

    /// The modifier held, as a chord names it.
    pub fn modifier(self) -> Modifier {
        match self {
            ClickModifier::Mod => Modifier::Mod,
            ClickModifier::Shift => Modifier::Shift,
        }
    }
}

impl TryFrom<Modifier> for ClickModifier {
    type Error = String;
    fn try_from(m: Modifier) -> Result<Self, String> {
        match m {
            Modifier::Mod => Ok(ClickModifier::Mod),
            Modifier::Shift => Ok(ClickModifier::Shift),
            other => Err(format!(
                "Unsupported click modifier {other}: a click_modifier is MOD or SHIFT"
            )),
        }
    }
}

impl fmt::Display for ClickModifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.modifier().as_str())
    }
}

/// Modifiers (sorted, no repeats) plus exactly one key: `MOD+SHIFT+Z`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Chord {
    pub modifiers: Vec<Modifier>,
    pub key: Key,
}

/// Chords a policy may use without the planner declaring them (reference `DEFAULT_HOTKEYS`).
pub fn default_hotkeys() -> &'static [Chord] {
    static CHORDS: std::sync::OnceLock<Vec<Chord>> = std::sync::OnceLock::new();
    CHORDS.get_or_init(|| {
        ["MOD+A", "MOD+C", "MOD+V", "MOD+Z", "MOD+SHIFT+Z", "MOD+F"]
            .iter()
            .map(|c| c.parse().expect("default chords parse"))
            .collect()
    })
}

impl FromStr for Chord {
    type Err = String;
    fn from_str(raw: &str) -> Result<Self, String> {
        if raw.trim().is_empty() {
            return Err("empty chord".into());
        }
        let parts: Vec<&str> = raw.split('+').map(str::trim).collect();
        let (last, mods) = parts.split_last().expect("split yields at least one part");
        let mut modifiers = Vec::with_capacity(mods.len());
        for part in mods {
            if part.is_empty() {
                return Err(format!("chord {raw:?} has an empty part"));
            }
            let m = Modifier::parse(&part.to_ascii_uppercase()).ok_or_else(|| {
                format!("chord {raw:?}: {part:?} is not a modifier (MOD, CTRL, ALT, SHIFT, META)")
            })?;
            if modifiers.contains(&m) {
                return Err(format!("chord {raw:?} repeats {}", m.as_str()));
            }
            modifiers.push(m);
        }
        if last.is_empty() {
            return Err(format!("chord {raw:?} ends without a key"));
        }
        if Modifier::parse(&last.to_ascii_uppercase()).is_some() {
            return Err(format!("chord {raw:?} has modifiers but no key"));
        }
        let key: Key = last.parse().map_err(|e| format!("chord {raw:?}: {e}"))?;
        modifiers.sort();
        Ok(Chord { modifiers, key })
    }
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.modifiers {
            write!(f, "{}+", m.as_str())?;
        }
        write!(f, "{}", self.key)
    }
}

macro_rules! string_serde {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let raw = String::deserialize(d)?;
                raw.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
string_serde!(Key);
string_serde!(Chord);
string_serde!(Modifier);

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("MOD+SHIFT+Z", "MOD+SHIFT+Z")]
    #[case("shift+mod+z", "MOD+SHIFT+Z")]
    #[case("ctrl+F5", "CTRL+F5")]
    #[case("Escape", "ESCAPE")]
    fn chords_normalize(#[case] raw: &str, #[case] canonical: &str) {
        assert_eq!(raw.parse::<Chord>().unwrap().to_string(), canonical);
    }

    #[rstest]
    #[case("")]
    #[case("MOD+")]
    #[case("MOD+SHIFT")]
    #[case("MOD++C")]
    #[case("MOD+MOD+C")]
    #[case("HYPER+C")]
    #[case("MOD+CC")]
    fn malformed_chords_are_rejected(#[case] raw: &str) {
        assert!(raw.parse::<Chord>().is_err(), "{raw:?} parsed");
    }

    #[test]
    fn only_enter_and_tab_follow_typing_and_only_mod_and_shift_hold_a_click() {
        assert_eq!(SubmitKey::try_from(Key::Enter), Ok(SubmitKey::Enter));
        assert_eq!(SubmitKey::try_from(Key::Tab), Ok(SubmitKey::Tab));
        let err = SubmitKey::try_from(Key::Escape).unwrap_err();
        assert!(err.contains("ESCAPE"), "{err}");
        assert_eq!(
            ClickModifier::try_from(Modifier::Mod),
            Ok(ClickModifier::Mod)
        );
        assert_eq!(
            ClickModifier::try_from(Modifier::Shift),
            Ok(ClickModifier::Shift)
        );
        let err = ClickModifier::try_from(Modifier::Alt).unwrap_err();
        assert!(err.contains("ALT"), "{err}");
        for m in Modifier::ALL {
            assert_eq!(m.to_string().parse::<Modifier>(), Ok(m));
        }
    }

    #[test]
    fn keys_round_trip() {
        for k in DEFAULT_PRESS_KEYS {
            assert_eq!(k.to_string().parse::<Key>().unwrap(), *k);
        }
    }
}
