//! Physical input through XTest: only where no accessibility interface serves, and for
//! keys, wheel and drags. Every call here moves the real pointer or focus, so the backend
//! reports each use (`Executed::physical_input`).

use arc_core::key::{Chord, Key, Modifier};
use std::time::Duration;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    ConnectionExt as _, InputFocus, MapState, Window, BUTTON_PRESS_EVENT, BUTTON_RELEASE_EVENT,
    KEY_PRESS_EVENT, KEY_RELEASE_EVENT, MOTION_NOTIFY_EVENT,
};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;
use x11rb::CURRENT_TIME;

/// Steps a drag is split into: enough for toolkits that track motion, few enough to be quick.
const DRAG_STEPS: i32 = 8;

#[derive(Debug, thiserror::Error)]
pub enum XError {
    #[error("cannot open the X display (is DISPLAY set?): {0}")]
    Connect(String),
    #[error("X request failed: {0}")]
    Request(String),
    #[error("the X server lacks the XTEST extension")]
    NoXTest,
    #[error("no key on this keyboard produces {0}")]
    NoKeycode(String),
}

fn req<E: std::fmt::Display>(e: E) -> XError {
    XError::Request(e.to_string())
}

/// One X connection, opened lazily by the backend the first time physical input is needed.
pub struct XInput {
    conn: RustConnection,
    root: Window,
    min_keycode: u8,
    keysyms_per_code: u8,
    keysyms: Vec<u32>,
}

/// Mouse buttons as X numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Left = 1,
    Right = 3,
    WheelUp = 4,
    WheelDown = 5,
    WheelLeft = 6,
    WheelRight = 7,
}

impl XInput {
    /// Opens `display` (`None`: `$DISPLAY`).
    pub fn connect(display: Option<&str>) -> Result<XInput, XError> {
        let (conn, screen) = x11rb::connect(display).map_err(|e| XError::Connect(e.to_string()))?;
        let root = conn.setup().roots[screen].root;
        conn.xtest_get_version(2, 2)
            .map_err(|_| XError::NoXTest)?
            .reply()
            .map_err(|_| XError::NoXTest)?;
        let (min, max) = (conn.setup().min_keycode, conn.setup().max_keycode);
        let map = conn
            .get_keyboard_mapping(min, max - min + 1)
            .map_err(req)?
            .reply()
            .map_err(req)?;
        Ok(XInput {
            conn,
            root,
            min_keycode: min,
            keysyms_per_code: map.keysyms_per_keycode,
            keysyms: map.keysyms,
        })
    }

    pub(crate) fn conn(&self) -> &RustConnection {
        &self.conn
    }

    pub(crate) fn root(&self) -> Window {
        self.root
    }

    /// Where the pointer is now, in root coordinates.
    pub fn pointer(&self) -> Result<(i32, i32), XError> {
        let r = self
            .conn
            .query_pointer(self.root)
            .map_err(req)?
            .reply()
            .map_err(req)?;
        Ok((r.root_x as i32, r.root_y as i32))
    }

    fn fake(&self, kind: u8, detail: u8, x: i32, y: i32) -> Result<(), XError> {
        self.conn
            .xtest_fake_input(
                kind,
                detail,
                CURRENT_TIME,
                self.root,
                clamp16(x),
                clamp16(y),
                0,
            )
            .map_err(req)?;
        Ok(())
    }

    fn sync(&self) -> Result<(), XError> {
        // A round trip: every faked event has reached the server when it returns.
        self.conn
            .get_input_focus()
            .map_err(req)?
            .reply()
            .map_err(req)?;
        Ok(())
    }

    pub fn move_to(&self, x: i32, y: i32) -> Result<(), XError> {
        self.fake(MOTION_NOTIFY_EVENT, 0, x, y)?;
        self.sync()
    }

    pub fn click(&self, x: i32, y: i32, button: Button, count: u8) -> Result<(), XError> {
        self.fake(MOTION_NOTIFY_EVENT, 0, x, y)?;
        for _ in 0..count {
            self.fake(BUTTON_PRESS_EVENT, button as u8, 0, 0)?;
            self.fake(BUTTON_RELEASE_EVENT, button as u8, 0, 0)?;
        }
        self.sync()
    }

    /// `click` with `modifiers` held down around it (released even when the click fails).
    pub fn click_with(
        &self,
        x: i32,
        y: i32,
        button: Button,
        count: u8,
        modifiers: &[Modifier],
    ) -> Result<(), XError> {
        let mut held = Vec::new();
        for m in modifiers {
            let code = self.keycode(modifier_keysym(*m))?;
            self.fake(KEY_PRESS_EVENT, code, 0, 0)?;
            held.push(code);
        }
        let result = self.click(x, y, button, count);
        for code in held.into_iter().rev() {
            self.fake(KEY_RELEASE_EVENT, code, 0, 0)?;
        }
        self.sync()?;
        result
    }

    pub fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), XError> {
        self.fake(MOTION_NOTIFY_EVENT, 0, from.0, from.1)?;
        self.fake(BUTTON_PRESS_EVENT, Button::Left as u8, 0, 0)?;
        self.sync()?;
        for i in 1..=DRAG_STEPS {
            let x = from.0 + (to.0 - from.0) * i / DRAG_STEPS;
            let y = from.1 + (to.1 - from.1) * i / DRAG_STEPS;
            self.fake(MOTION_NOTIFY_EVENT, 0, x, y)?;
            self.sync()?;
            std::thread::sleep(Duration::from_millis(4));
        }
        self.fake(BUTTON_RELEASE_EVENT, Button::Left as u8, 0, 0)?;
        self.sync()
    }

    /// Gives X keyboard focus to the top-level window under `(x, y)` (keys go to the
    /// focused window; with no window manager nothing else focuses it).
    pub fn focus_window_at(&self, x: i32, y: i32) -> Result<(), XError> {
        let tree = self
            .conn
            .query_tree(self.root)
            .map_err(req)?
            .reply()
            .map_err(req)?;
        // Bottom-to-top stacking order: the last hit is the one on top.
        let mut hit = None;
        for &w in &tree.children {
            let Ok(attrs) = self.conn.get_window_attributes(w).map_err(req)?.reply() else {
                continue;
            };
            if attrs.map_state != MapState::VIEWABLE || attrs.override_redirect {
                continue;
            }
            let Ok(g) = self.conn.get_geometry(w).map_err(req)?.reply() else {
                continue;
            };
            let (gx, gy) = (g.x as i32, g.y as i32);
            if x >= gx && y >= gy && x < gx + g.width as i32 && y < gy + g.height as i32 {
                hit = Some(w);
            }
        }
        if let Some(w) = hit {
            self.conn
                .set_input_focus(InputFocus::PARENT, w, CURRENT_TIME)
                .map_err(req)?;
            self.sync()?;
        }
        Ok(())
    }

    pub fn chord(&self, chord: &Chord) -> Result<(), XError> {
        let mut held = Vec::new();
        for m in &chord.modifiers {
            let code = self.keycode(modifier_keysym(*m))?;
            self.fake(KEY_PRESS_EVENT, code, 0, 0)?;
            held.push(code);
        }
        let result = self.key(chord.key);
        for code in held.into_iter().rev() {
            self.fake(KEY_RELEASE_EVENT, code, 0, 0)?;
        }
        self.sync()?;
        result
    }

    pub fn key(&self, key: Key) -> Result<(), XError> {
        let (sym, shift) = key_keysym(key);
        let shift_code = if shift {
            Some(self.keycode(XK_SHIFT_L)?)
        } else {
            None
        };
        let code = self
            .keycode(sym)
            .map_err(|_| XError::NoKeycode(key.to_string()))?;
        if let Some(s) = shift_code {
            self.fake(KEY_PRESS_EVENT, s, 0, 0)?;
        }
        self.fake(KEY_PRESS_EVENT, code, 0, 0)?;
        self.fake(KEY_RELEASE_EVENT, code, 0, 0)?;
        if let Some(s) = shift_code {
            self.fake(KEY_RELEASE_EVENT, s, 0, 0)?;
        }
        self.sync()
    }

    /// Types `text` character by character (printable ASCII, newline, tab): for a text
    /// field only OCR sees, after a click has focused it.
    pub fn type_text(&self, text: &str) -> Result<(), XError> {
        let shift = self.keycode(XK_SHIFT_L)?;
        for c in text.chars() {
            let sym = match c {
                '\n' => 0xff0d,
                '\t' => 0xff09,
                ' '..='~' => c as u32,
                _ => return Err(XError::NoKeycode(format!("{c:?} (only ASCII is typed)"))),
            };
            let (code, shifted) = self.keycode_level(sym)?;
            if shifted {
                self.fake(KEY_PRESS_EVENT, shift, 0, 0)?;
            }
            self.fake(KEY_PRESS_EVENT, code, 0, 0)?;
            self.fake(KEY_RELEASE_EVENT, code, 0, 0)?;
            if shifted {
                self.fake(KEY_RELEASE_EVENT, shift, 0, 0)?;
            }
        }
        self.sync()
    }

    /// The keycode producing `sym`, and whether it is on the shifted level.
    fn keycode_level(&self, sym: u32) -> Result<(u8, bool), XError> {
        let per = self.keysyms_per_code.max(1) as usize;
        self.keysyms
            .chunks(per)
            .enumerate()
            .find_map(|(i, syms)| {
                let code = self.min_keycode + i as u8;
                if syms.first() == Some(&sym) {
                    Some((code, false))
                } else if syms.get(1) == Some(&sym) {
                    Some((code, true))
                } else {
                    None
                }
            })
            .ok_or_else(|| XError::NoKeycode(format!("keysym {sym:#x}")))
    }

    fn keycode(&self, sym: u32) -> Result<u8, XError> {
        let per = self.keysyms_per_code.max(1) as usize;
        self.keysyms
            .chunks(per)
            .position(|syms| syms.first() == Some(&sym) || syms.get(1) == Some(&sym))
            .map(|i| self.min_keycode + i as u8)
            .ok_or_else(|| XError::NoKeycode(format!("keysym {sym:#x}")))
    }
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

const XK_SHIFT_L: u32 = 0xffe1;

fn modifier_keysym(m: Modifier) -> u32 {
    match m {
        // MOD is Control on Linux, as the browser backend maps it.
        Modifier::Mod | Modifier::Ctrl => 0xffe3,
        Modifier::Alt => 0xffe9,
        Modifier::Shift => XK_SHIFT_L,
        Modifier::Meta => 0xffeb,
    }
}

/// The keysym for `key`, and whether Shift must be held (upper-case letters).
fn key_keysym(key: Key) -> (u32, bool) {
    let named = match key {
        Key::Enter => 0xff0d,
        Key::Escape => 0xff1b,
        Key::Tab => 0xff09,
        Key::Space => 0x20,
        Key::Backspace => 0xff08,
        Key::Delete => 0xffff,
        Key::ArrowUp => 0xff52,
        Key::ArrowDown => 0xff54,
        Key::ArrowLeft => 0xff51,
        Key::ArrowRight => 0xff53,
        Key::Home => 0xff50,
        Key::End => 0xff57,
        Key::PageUp => 0xff55,
        Key::PageDown => 0xff56,
        Key::Insert => 0xff63,
        Key::F(n) => 0xffbe + u32::from(n.clamp(1, 35)) - 1,
        // Chords store letters upper-case; the chord's own modifiers say if Shift is held.
        Key::Char(c) => return (c.to_ascii_lowercase() as u32, false),
    };
    (named, false)
}
