//! Eviction classes: which elements the budget gives up first.
//!
//! Classes are ordered from first-evicted to last. Within a class the budget evicts
//! later-in-document elements first, so what survives of a long table is its top rows.

use arc_core::Element;
use arc_core::Role;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Class {
    /// Data rows and cells, items of big lists, long runs of text.
    Bulk,
    /// Other non-interactive elements: headings, images, groups, short text.
    Plain,
    OffscreenDisabled,
    Offscreen,
    OnscreenDisabled,
    Onscreen,
    /// The focused element and non-interactive content of a modal (its message,
    /// heading): portals put dialogs last in document order, which would otherwise make
    /// a dialog's message the first thing evicted.
    Pinned,
    /// Interactive descendants of a modal container: never evicted while anything
    /// below is left, and only then because the budget is a hard limit.
    ModalControl,
    /// Modal containers and their ancestors: evicted last of all.
    ModalFrame,
}

pub(crate) const CLASS_COUNT: usize = Class::ModalFrame as usize + 1;

/// A list longer than this is data (search results, a feed), not navigation.
const BIG_LIST: u32 = 20;
/// Text longer than this (in bytes, a cheap stand-in for characters) is prose.
const LONG_TEXT: usize = 40;

pub(crate) struct Facts {
    pub on_screen: bool,
    pub in_modal: bool,
    pub holds_modal: bool,
    /// The parent's number of children.
    pub siblings: u32,
}

pub(crate) fn classify(e: &Element, f: &Facts) -> Class {
    if f.holds_modal {
        return Class::ModalFrame;
    }
    let interactive = is_interactive(e);
    if f.in_modal {
        return if interactive {
            Class::ModalControl
        } else {
            Class::Pinned
        };
    }
    if e.focused {
        return Class::Pinned;
    }
    // Data roles go first even when clickable: a 5,000-row table must not crowd out
    // the page's own controls, and `find` still reaches every row.
    let data = match e.role {
        Role::Row | Role::Cell | Role::ColumnHeader | Role::RowHeader => true,
        Role::ListItem => f.siblings > BIG_LIST,
        _ => false,
    };
    if data {
        return Class::Bulk;
    }
    if interactive {
        return match (f.on_screen, e.enabled) {
            (false, false) => Class::OffscreenDisabled,
            (false, true) => Class::Offscreen,
            (true, false) => Class::OnscreenDisabled,
            (true, true) => Class::Onscreen,
        };
    }
    let text = matches!(
        e.role,
        Role::StaticText | Role::Paragraph | Role::VisibleText | Role::Generic
    );
    if text && e.name.len() > LONG_TEXT {
        Class::Bulk
    } else {
        Class::Plain
    }
}

/// A control a person operates: it offers actions, or its role is one (a disabled
/// button offers none but is still a button).
pub(crate) fn is_interactive(e: &Element) -> bool {
    !e.actions.is_empty()
        || matches!(
            e.role,
            Role::Button
                | Role::Link
                | Role::TextField
                | Role::PasswordField
                | Role::CheckBox
                | Role::Radio
                | Role::ComboBox
                | Role::Option
                | Role::MenuItem
                | Role::Tab
                | Role::Slider
                | Role::SpinButton
                | Role::Switch
                | Role::TreeItem
        )
}
