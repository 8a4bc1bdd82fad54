//! A quote that names a kind of control rather than one control: `Click on a "textarea"
//! widget`, `a "checkbox" widget`. Only when nothing on the page bears the quoted word:
//! the word is then the kind — the roles a role word names and, for text fields, the
//! line shape ("textarea" holds several lines, "text" and "textbox" one) — and "a" asks
//! for any one element of that kind (the first), "the" for the only one.

use super::facts::Facts;
use super::ground::{among, role_phrase, Grounding, ROLE_ONLY};
use super::history;
use super::text::normalize;
use super::vocab::{line_shape, TEXT_ROLES};
use arc_core::{ActionKind, ActionRecord, Role};

/// The kind of control a quote names.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    roles: Vec<Role>,
    /// For text fields: several lines (true) or one (false); `None` when either will do.
    multiline: Option<bool>,
}

impl Kind {
    /// The kind a quote names: a role word ("checkbox", "radio", "button", "textarea")
    /// or "text", the HTML word for a one-line field. A quote with other words names a
    /// control, not a kind.
    pub fn of_quote(quote: &str) -> Option<Kind> {
        let norm = normalize(quote);
        if norm == "text" {
            return Some(Kind {
                roles: TEXT_ROLES.to_vec(),
                multiline: Some(false),
            });
        }
        let (roles, nth) = role_phrase(&norm)?;
        let words: Vec<&str> = norm.split(' ').collect();
        nth.is_none().then(|| Kind {
            roles,
            multiline: line_shape(&words),
        })
    }

    /// Whether element `i` is a visible control of this kind a click reaches.
    pub fn admits(&self, f: &Facts, i: usize) -> bool {
        let e = &f.els[i];
        e.visible
            && f.offers(i, ActionKind::Click)
            && self.roles.contains(&e.role)
            && self.multiline.is_none_or(|m| e.facts.multiline == m)
    }
}

/// Whether any clickable element bears the quoted word as its name: then the quote names
/// that control ("the \"Menu\" button"), not a kind.
fn named(f: &Facts, quote: &str) -> bool {
    let norm = normalize(quote);
    (0..f.len()).any(|i| f.offers(i, ActionKind::Click) && f.name(i) == norm)
}

/// The element a click on a quoted kind names: with "a", "an" or "any" before it the
/// first of that kind in document order; otherwise the only one (two are a tie).
pub fn ground(f: &Facts, quote: &str, object: &str) -> Option<Grounding> {
    let kind = Kind::of_quote(quote)?;
    if named(f, quote) {
        return None;
    }
    let candidates: Vec<usize> = (0..f.len()).filter(|&i| kind.admits(f, i)).collect();
    let any = matches!(object.split(' ').next(), Some("a" | "an" | "any"));
    Some(match (any, candidates.first()) {
        (true, Some(&idx)) => Grounding::Found {
            idx,
            score: ROLE_ONLY,
            margin: ROLE_ONLY,
        },
        _ => among(&candidates, None, ROLE_ONLY),
    })
}

/// Whether the run clicked a control of the quoted kind, one the snapshot still shows,
/// on a page where nothing bears the quoted word.
pub fn clicked(f: &Facts, h: &[ActionRecord], quote: &str) -> bool {
    let Some(kind) = Kind::of_quote(quote) else {
        return false;
    };
    !named(f, quote)
        && (0..f.len())
            .any(|i| kind.admits(f, i) && history::clicked_id(h, f.els[i].id.as_str(), None))
}

#[cfg(test)]
mod tests {
    use super::Kind;

    #[test]
    fn role_words_and_text_are_kinds_other_words_are_not() {
        assert!(Kind::of_quote("textarea").is_some_and(|k| k.multiline == Some(true)));
        assert!(Kind::of_quote("text").is_some_and(|k| k.multiline == Some(false)));
        assert!(Kind::of_quote("checkbox").is_some());
        assert!(Kind::of_quote("Radio").is_some());
        assert!(Kind::of_quote("Submit").is_none());
        assert!(Kind::of_quote("2nd button").is_none());
    }
}
