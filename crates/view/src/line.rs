//! The one-line rendering of an element:
//! `[e7] text_field "Email" = "ada@example.com" (focused)`.
//!
//! Every field is whitespace-normalized, so a name with a newline in it cannot break the
//! one-element-per-line shape (the budget counts tokens line by line and relies on it).

use arc_core::Element;
use arc_core::Role;
use arc_core::Scalar;

/// Longest name or value kept whole, in characters; longer ones end in `…`.
pub(crate) const MAX_FIELD_CHARS: usize = 80;

/// What a password field shows instead of its value: that it is filled, not what with.
const MASK: &str = "***";

/// Appends the line for `e` (no indentation, no newline).
pub(crate) fn write_line(out: &mut String, e: &Element, on_screen: bool) {
    out.push('[');
    write_clean(out, e.id.as_str(), MAX_FIELD_CHARS, false);
    out.push_str("] ");
    write_clean(out, e.role.as_str(), MAX_FIELD_CHARS, false);
    if has_text(&e.name) {
        out.push(' ');
        write_quoted(out, &e.name, MAX_FIELD_CHARS);
    }
    write_value(out, e);
    write_states(out, e, on_screen);
}

fn write_value(out: &mut String, e: &Element) {
    let Some(value) = &e.value else { return };
    match value {
        Scalar::Text(text) => {
            // An empty value or one that repeats the name says nothing new.
            if !has_text(text) || text == &e.name {
                return;
            }
            out.push_str(" = ");
            if e.role == Role::PasswordField {
                out.push('"');
                out.push_str(MASK);
                out.push('"');
            } else {
                write_quoted(out, text, MAX_FIELD_CHARS);
            }
        }
        other => {
            use std::fmt::Write;
            let _ = write!(out, " = {other}");
        }
    }
}

fn write_states(out: &mut String, e: &Element, on_screen: bool) {
    let mut first = true;
    let mut state = |out: &mut String, s: &str| {
        out.push_str(if first { " (" } else { ", " });
        out.push_str(s);
        first = false;
    };
    if e.focused {
        state(out, "focused");
    }
    if e.selected == Some(true) {
        let checkable = matches!(e.role, Role::CheckBox | Role::Radio | Role::Switch);
        state(out, if checkable { "checked" } else { "selected" });
    }
    match e.expanded {
        Some(true) => state(out, "expanded"),
        Some(false) => state(out, "collapsed"),
        None => {}
    }
    if !e.enabled {
        state(out, "disabled");
    }
    if !on_screen {
        state(out, "offscreen");
    }
    if !first {
        out.push(')');
    }
}

pub(crate) fn has_text(s: &str) -> bool {
    s.chars().any(|c| !c.is_whitespace() && !c.is_control())
}

/// `"…"` around `s` cleaned by [`write_clean`], with `"` and `\` escaped.
pub(crate) fn write_quoted(out: &mut String, s: &str, max_chars: usize) {
    out.push('"');
    write_clean(out, s, max_chars, true);
    out.push('"');
}

/// Appends `s` with whitespace and control runs collapsed to one space, trimmed, and cut
/// to `max_chars` characters (the last one an ellipsis) when longer.
pub(crate) fn write_clean(out: &mut String, s: &str, max_chars: usize, escape: bool) {
    let start = out.len();
    let mut emitted = 0usize;
    // Byte length of `out` after `max_chars - 1` characters: where a cut goes.
    let mut cut_at = None;
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() || c.is_control() {
            pending_space = emitted > 0;
            continue;
        }
        let needed = usize::from(pending_space) + 1;
        if emitted + needed > max_chars {
            // There is more to show than fits: cut and say so with the ellipsis.
            out.truncate(cut_at.unwrap_or(start));
            if out.len() > start && out.ends_with(' ') {
                out.pop();
            }
            out.push('…');
            return;
        }
        if pending_space {
            out.push(' ');
            emitted += 1;
            if emitted + 1 == max_chars {
                cut_at = Some(out.len());
            }
            pending_space = false;
        }
        if escape && (c == '"' || c == '\\') {
            out.push('\\');
        }
        out.push(c);
        emitted += 1;
        if emitted + 1 == max_chars {
            cut_at = Some(out.len());
        }
    }
}

/// The cleaned form of `s` as its own string (for search and context).
pub(crate) fn clean(s: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max_chars.saturating_mul(4)));
    write_clean(&mut out, s, max_chars, false);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(s: &str, max: usize) -> String {
        let mut out = String::new();
        write_clean(&mut out, s, max, true);
        out
    }

    #[test]
    fn collapses_whitespace_and_trims() {
        assert_eq!(cleaned("  a \n\t b  ", 80), "a b");
        assert_eq!(cleaned("\n", 80), "");
    }

    #[test]
    fn cuts_with_an_ellipsis_only_when_longer() {
        assert_eq!(cleaned("abcde", 5), "abcde");
        assert_eq!(cleaned("abcdef", 5), "abcd…");
        assert_eq!(cleaned("abc   def", 5), "abc…");
        assert_eq!(cleaned("abcd   ", 5), "abcd");
        assert_eq!(cleaned("héllo wörld", 6), "héllo…");
    }

    #[test]
    fn escapes_quotes() {
        assert_eq!(cleaned(r#"say "hi" \o/"#, 80), r#"say \"hi\" \\o/"#);
    }
}
