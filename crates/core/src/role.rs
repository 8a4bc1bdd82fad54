//! Semantic roles. Every backend maps its native role vocabulary (ARIA/Chromium, AT-SPI,
//! OCR) onto one enum so policies reason over one set; anything unknown is kept verbatim
//! in [`Role::Other`] rather than guessed.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

macro_rules! roles {
    ($( $variant:ident => $wire:literal $(| $alias:literal)* ),* $(,)?) => {
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Role {
            $( $variant, )*
            /// A role no mapping knows, kept as the backend reported it.
            Other(String),
        }

        impl Role {
            /// Every role's canonical wire name (aliases left out).
            pub const KNOWN: &'static [&'static str] = &[$( $wire, )*];

            /// The canonical wire name (`text_field`, `button`, …).
            pub fn as_str(&self) -> &str {
                match self {
                    $( Role::$variant => $wire, )*
                    Role::Other(s) => s,
                }
            }

            /// Maps any spelling (`TextField`, `textbox`, `push button`, `text_field`)
            /// to a role; unknown names become [`Role::Other`]. One fold and one hash
            /// lookup: backends call this once per node.
            pub fn parse(raw: &str) -> Role {
                static TABLE: OnceLock<HashMap<String, Role>> = OnceLock::new();
                let table = TABLE.get_or_init(|| {
                    let mut t = HashMap::new();
                    $(
                        t.insert(fold($wire), Role::$variant);
                        $( t.insert(fold($alias), Role::$variant); )*
                    )*
                    t
                });
                table.get(&fold(raw)).cloned().unwrap_or_else(|| Role::Other(raw.to_owned()))
            }
        }
    };
}

/// Lower-cases and strips separators, so `Push Button` and `push_button` meet.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

roles! {
    Button => "button" | "push button" | "pushbutton" | "toggle button",
    Link => "link",
    TextField => "text_field" | "textbox" | "text" | "entry" | "searchbox" | "textarea",
    PasswordField => "password_field" | "password text",
    CheckBox => "checkbox" | "check box",
    Radio => "radio" | "radiobutton" | "radio button",
    ComboBox => "combobox" | "combo box" | "popup button",
    ListBox => "listbox" | "list box",
    Option => "option" | "listbox option",
    Menu => "menu" | "popup menu",
    MenuBar => "menubar" | "menu bar",
    MenuItem => "menuitem" | "menu item" | "menuitemcheckbox" | "menuitemradio" | "check menu item" | "radio menu item",
    Tab => "tab" | "page tab",
    TabList => "tablist" | "page tab list",
    TabPanel => "tabpanel",
    Dialog => "dialog" | "alertdialog" | "alert dialog" | "file chooser",
    Alert => "alert" | "notification",
    Status => "status" | "status bar" | "statusbar",
    Slider => "slider",
    SpinButton => "spinbutton" | "spin button",
    Switch => "switch",
    Tree => "tree" | "tree table",
    TreeItem => "treeitem" | "tree item",
    Table => "table",
    Grid => "grid" | "treegrid",
    Row => "row" | "table row",
    Cell => "cell" | "table cell" | "gridcell",
    ColumnHeader => "columnheader" | "column header" | "table column header",
    RowHeader => "rowheader" | "row header" | "table row header",
    List => "list",
    ListItem => "listitem" | "list item",
    Heading => "heading",
    Image => "image" | "img" | "icon" | "figure",
    StaticText => "static_text" | "statictext" | "inlinetextbox",
    Label => "label" | "labeltext",
    Paragraph => "paragraph",
    Group => "group" | "panel" | "section" | "region" | "filler",
    Form => "form",
    Toolbar => "toolbar" | "tool bar",
    ScrollBar => "scrollbar" | "scroll bar",
    ProgressBar => "progressbar" | "progress bar",
    Separator => "separator",
    Window => "window" | "frame",
    Document => "document" | "rootwebarea" | "webarea" | "document web" | "document frame",
    Iframe => "iframe",
    Application => "application",
    Generic => "generic" | "none" | "presentation" | "unknown",
    VisibleText => "visible_text",
}

impl Role {
    /// Roles a person types into.
    pub fn is_text_input(&self) -> bool {
        matches!(self, Role::TextField | Role::PasswordField | Role::ComboBox)
    }

    /// Containers a planner must never lose from view (the budget never evicts them).
    pub fn is_modal_container(&self) -> bool {
        matches!(
            self,
            Role::Dialog | Role::Menu | Role::MenuBar | Role::ListBox | Role::TabList
        )
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        Ok(Role::parse(&raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_maps_to_one_role() {
        for raw in ["TextField", "textbox", "text_field", "text", "Entry"] {
            assert_eq!(Role::parse(raw), Role::TextField, "{raw}");
        }
        assert_eq!(Role::parse("push button"), Role::Button);
        assert_eq!(Role::parse("RootWebArea"), Role::Document);
    }

    #[test]
    fn unknown_roles_are_kept_verbatim() {
        assert_eq!(Role::parse("Timeline"), Role::Other("Timeline".into()));
        assert_eq!(Role::parse("Timeline").as_str(), "Timeline");
    }
}
