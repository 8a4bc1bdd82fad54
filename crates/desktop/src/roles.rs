//! AT-SPI roles onto core's `Role`. Core already knows most AT-SPI spellings ("push
//! button", "check box"); this adds the toolkit containers it has no name for, so they
//! are groups rather than unknown strings.

use arc_core::role::Role;

pub fn role_of(atspi: atspi::Role) -> Role {
    match atspi {
        atspi::Role::ScrollPane
        | atspi::Role::Viewport
        | atspi::Role::SplitPane
        | atspi::Role::LayeredPane
        | atspi::Role::RootPane
        | atspi::Role::GlassPane
        | atspi::Role::InternalFrame
        | atspi::Role::OptionPane
        | atspi::Role::Section => Role::Group,
        atspi::Role::PasswordText => Role::PasswordField,
        atspi::Role::Entry | atspi::Role::Text => Role::TextField,
        atspi::Role::ToggleButton => Role::Button,
        atspi::Role::Frame | atspi::Role::Window => Role::Window,
        other => Role::parse(other.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtk_roles_map_onto_core() {
        assert_eq!(role_of(atspi::Role::Button), Role::Button);
        assert_eq!(role_of(atspi::Role::CheckBox), Role::CheckBox);
        assert_eq!(role_of(atspi::Role::ComboBox), Role::ComboBox);
        assert_eq!(role_of(atspi::Role::Text), Role::TextField);
        assert_eq!(role_of(atspi::Role::ListItem), Role::ListItem);
        assert_eq!(role_of(atspi::Role::MenuBar), Role::MenuBar);
        assert_eq!(role_of(atspi::Role::MenuItem), Role::MenuItem);
        assert_eq!(role_of(atspi::Role::Slider), Role::Slider);
        assert_eq!(role_of(atspi::Role::ScrollPane), Role::Group);
        assert_eq!(role_of(atspi::Role::Frame), Role::Window);
        assert_eq!(role_of(atspi::Role::Dialog), Role::Dialog);
    }
}
