//! What a picture of the target must not show: the boxes of password fields (whatever they
//! hold, the page may draw it) and of every element whose text holds a secret (an echo,
//! a field a "show password" toggle turned into text, a typed secret input). Whoever
//! encodes a screenshot blacks these out first.

use super::Redactor;
use crate::element::{Bounds, Element};
use crate::role::Role;
use crate::snapshot::Snapshot;

impl Redactor {
    /// The boxes of `snapshot`'s elements a screenshot must black out, in the snapshot's
    /// coordinates.
    pub fn secret_boxes(&self, snapshot: &Snapshot) -> Vec<Bounds> {
        snapshot
            .elements
            .iter()
            .filter(|e| e.role == Role::PasswordField || self.shows_secret(e))
            .filter_map(|e| e.bounds)
            .filter(|b| b.width > 0.0 && b.height > 0.0)
            .collect()
    }

    fn shows_secret(&self, e: &Element) -> bool {
        if self.is_empty() {
            return false;
        }
        self.holds_secret(&e.name)
            || e.value
                .as_ref()
                .is_some_and(|v| self.holds_secret(&v.as_text()))
            || e.facts
                .placeholder
                .as_deref()
                .is_some_and(|p| self.holds_secret(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Scalar;

    fn at(mut e: Element, x: f64) -> Element {
        e.bounds = Some(Bounds {
            x,
            y: 0.0,
            width: 10.0,
            height: 10.0,
        });
        e
    }

    #[test]
    fn password_fields_and_what_shows_a_secret_are_boxed() {
        let mut shown = Element::new("e2", Role::TextField, "Shown");
        shown.value = Some(Scalar::Text("hunter22".into()));
        let elements = vec![
            at(Element::new("e1", Role::PasswordField, "Password"), 1.0),
            at(shown, 2.0),
            at(
                Element::new("e3", Role::StaticText, "Your password is hunter22"),
                3.0,
            ),
            at(Element::new("e4", Role::StaticText, "Welcome"), 4.0),
            Element::new("e5", Role::StaticText, "hunter22 without a box"),
        ];
        let snapshot = Snapshot::new("app", "window", elements);
        let xs =
            |r: &Redactor| -> Vec<f64> { r.secret_boxes(&snapshot).iter().map(|b| b.x).collect() };
        assert_eq!(xs(&Redactor::default()), [1.0]);
        assert_eq!(xs(&Redactor::new(["hunter22"])), [1.0, 2.0, 3.0]);
    }
}
