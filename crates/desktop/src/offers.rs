//! What a node really offers, and how each kind is carried out: through an
//! accessibility interface (background: the pointer and focus stay put) where one serves,
//! else through XTest (physical).

use crate::tree::RawNode;
use arc_core::action::{ActionKind, ActionSet};
use atspi::{Interface, Role as R, State};

/// How CLICK is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// `Action.DoAction(index)`.
    Action(i32),
    /// `Selection.SelectChild(index)` on the parent.
    SelectInParent,
    /// `Component.GrabFocus` (a text field: "activate" would press Enter).
    Focus,
    /// XTest at the centre: no interface serves.
    Pointer,
}

#[derive(Clone, Copy, Debug)]
pub struct Offers {
    pub kinds: ActionSet,
    /// How CLICK is done, when offered.
    pub click: Option<Offer>,
    pub editable: bool,
    /// SET_VALUE through `Value.SetCurrentValue`.
    pub value: bool,
}

/// Action names that mean "press it".
const PRESS_NAMES: &[&str] = &["click", "press", "activate", "toggle", "jump", "open"];

pub fn offers(
    node: &RawNode,
    parent: Option<&RawNode>,
    action_names: &[String],
    has_bounds: bool,
) -> Offers {
    let mut kinds = ActionSet::EMPTY;
    let text_like = matches!(
        node.role,
        R::Text | R::Entry | R::PasswordText | R::SpinButton
    );
    let editable =
        node.ifaces.contains(Interface::EditableText) && node.states.contains(State::Editable);
    let press = action_names
        .iter()
        .position(|n| PRESS_NAMES.contains(&n.as_str()))
        .map(|i| i as i32);
    let in_selection = parent.is_some_and(|p| {
        p.ifaces.contains(Interface::Selection)
            && matches!(
                p.role,
                R::ListBox | R::List | R::PageTabList | R::Tree | R::TreeTable | R::Table
            )
    }) && node.states.contains(State::Selectable);
    let click = if text_like && node.ifaces.contains(Interface::Component) {
        Some(Offer::Focus)
    } else if let Some(i) = press {
        Some(Offer::Action(i))
    } else if in_selection {
        Some(Offer::SelectInParent)
    } else if has_bounds && pointer_clickable(node.role) {
        Some(Offer::Pointer)
    } else {
        None
    };
    if click.is_some() {
        kinds.insert(ActionKind::Click);
    }
    if has_bounds && click.is_some() {
        // Only a real pointer double-clicks, right-clicks or hovers.
        kinds.insert(ActionKind::DoubleClick);
        kinds.insert(ActionKind::RightClick);
        kinds.insert(ActionKind::Hover);
    }
    if editable {
        kinds.insert(ActionKind::TypeText);
        kinds.insert(ActionKind::SetValue);
    }
    let value = !editable
        && node.ifaces.contains(Interface::Value)
        && matches!(
            node.role,
            R::Slider | R::SpinButton | R::ScrollBar | R::Dial
        );
    if value {
        kinds.insert(ActionKind::SetValue);
    }
    // SELECT_OPTION through the combo box's own Selection.
    if node.role == R::ComboBox && node.ifaces.contains(Interface::Selection) {
        kinds.insert(ActionKind::SelectOption);
    }
    if has_bounds
        && matches!(
            node.role,
            R::ScrollPane | R::ListBox | R::List | R::Tree | R::TreeTable | R::Table | R::Viewport
        )
    {
        kinds.insert(ActionKind::Scroll);
    }
    if has_bounds && matches!(node.role, R::Slider | R::ScrollBar) {
        kinds.insert(ActionKind::DragBy);
    }
    Offers {
        kinds,
        click,
        editable,
        value,
    }
}

/// Roles a person clicks even when the toolkit exposes no action for them.
fn pointer_clickable(role: R) -> bool {
    matches!(
        role,
        R::Button
            | R::ToggleButton
            | R::CheckBox
            | R::RadioButton
            | R::Link
            | R::MenuItem
            | R::CheckMenuItem
            | R::RadioMenuItem
            | R::ListItem
            | R::PageTab
            | R::TreeItem
            | R::TableCell
            | R::Icon
    )
}
