//! The backend-neutral intermediate tree: what an AX fetch (or a viewport scan) produced,
//! before pruning turns it into snapshot elements.

use crate::cdp::{BackendNodeId, FrameId};
use arc_core::{ActionSet, Bounds, ElementFacts, Guard, InputType, Role};

/// How to reach a DOM node again to act on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodeHandle {
    /// A node from the accessibility tree: Chromium's backend id within a frame.
    Backend { frame: FrameId, node: BackendNodeId },
    /// A node from a viewport scan: the scan's own key in the frame's isolated world.
    Scan { frame: FrameId, key: u64 },
}

impl NodeHandle {
    pub fn frame(&self) -> &FrameId {
        match self {
            NodeHandle::Backend { frame, .. } | NodeHandle::Scan { frame, .. } => frame,
        }
    }
}

/// What a raw node is, for pruning decisions the public role does not capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An ordinary node.
    Node,
    /// A run of text (AX `StaticText`).
    Text,
    /// A layout fragment of text (AX `InlineTextBox`, `LineBreak`): never emitted.
    Fragment,
    /// Not exposed (AX-ignored or presentational): its children are kept, it is not.
    PassThrough,
    /// Hidden from everyone (`display:none`, `aria-hidden`): dropped with its subtree.
    Hidden,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct States {
    pub disabled: bool,
    pub focused: bool,
    pub focusable: bool,
    pub editable: bool,
    pub readonly: bool,
    pub multiline: bool,
    /// Checked (checkbox, radio, switch) or selected (option, tab, row).
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
    /// Offers being dragged (`aria-grabbed`, `draggable`).
    pub draggable: bool,
    /// Accepts drops (`aria-dropeffect`).
    pub drop_target: bool,
    /// Has its own scrollable overflow.
    pub scrollable: bool,
    /// Has a click listener or is natively clickable.
    pub clickable: bool,
    /// A native `<select>`.
    pub native_select: bool,
    /// Laid out as a block: text runs do not continue across it.
    pub block: bool,
    /// A field set as one value but not typed as one string (a date/time input, typed
    /// part by part): SET_VALUE, no TYPE_TEXT.
    pub set_only: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RawNode {
    pub handle: Option<NodeHandle>,
    pub kind: Kind,
    pub role: Role,
    pub name: String,
    pub value: Option<String>,
    pub states: States,
    /// Viewport coordinates of the main frame, CSS pixels.
    pub bounds: Option<Bounds>,
    /// Selector material for the cache and for people: DOM id, test id, name, placeholder…
    pub facts: ElementFacts,
    pub children: Vec<usize>,
    /// What a freshness re-read of this one node must reproduce (see `prune::guard_of`).
    pub guard: Guard,
}

impl RawNode {
    pub fn new(kind: Kind, role: Role) -> Self {
        RawNode {
            handle: None,
            kind,
            role,
            name: String::new(),
            value: None,
            states: States::default(),
            bounds: None,
            facts: ElementFacts::default(),
            children: Vec::new(),
            guard: Guard::default(),
        }
    }
}

impl RawNode {
    /// Records the selector attributes `attribute` finds as element facts, and the tag
    /// (for people reading a snapshot; nobody else reads it). Both observation paths use
    /// this.
    pub fn add_selector_facts<'a>(
        &mut self,
        tag: &str,
        attribute: impl Fn(&str) -> Option<&'a String>,
    ) {
        let f = &mut self.facts;
        if !tag.is_empty() {
            f.extra.insert("tag".into(), tag.to_lowercase().into());
        }
        f.dom_id = attribute("id").cloned();
        f.test_id = ["data-testid", "data-test-id", "data-test", "data-qa"]
            .into_iter()
            .find_map(&attribute)
            .cloned();
        f.form_name = attribute("name").cloned();
        f.placeholder = attribute("placeholder").cloned();
        f.input_type = attribute("type").map(|t| InputType::parse(t));
        f.autocomplete = attribute("autocomplete").map(|a| a.to_ascii_lowercase());
        if let Some(href) = attribute("href") {
            f.extra.insert("href".into(), href.clone().into());
        }
    }
}

/// A tree of raw nodes; index 0 is the root.
#[derive(Clone, Debug, Default)]
pub struct RawTree {
    pub nodes: Vec<RawNode>,
}

impl RawTree {
    pub fn push(&mut self, node: RawNode) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }
}

/// The operations a role offers, given its states. Disabled elements keep their actions
/// (and are marked disabled), so a planner sees what the control would do.
pub fn legal_actions(role: &Role, s: &States) -> ActionSet {
    use arc_core::ActionKind::*;
    let pointer = ActionSet::from([Click, DoubleClick, RightClick]);
    let mut set = match role {
        Role::TextField | Role::PasswordField if s.readonly => ActionSet::from([Click]),
        Role::TextField if s.set_only => ActionSet::from([Click, SetValue]),
        Role::TextField | Role::PasswordField => pointer.with(TypeText).with(SetValue),
        Role::ComboBox if s.native_select => ActionSet::from([Click, SelectOption]),
        Role::ComboBox if s.editable => pointer.with(TypeText).with(SetValue),
        Role::ListBox if s.native_select => ActionSet::from([SelectOption]),
        Role::Slider => ActionSet::from([Click, SetValue, DragBy]),
        Role::SpinButton => ActionSet::from([Click, TypeText, SetValue]),
        Role::Button
        | Role::Link
        | Role::MenuItem
        | Role::Tab
        | Role::Option
        | Role::TreeItem
        | Role::Switch
        | Role::Radio
        | Role::CheckBox
        | Role::ComboBox => pointer,
        // A listener on the document (or body) makes the whole page "clickable": that is
        // not a target a person would aim at.
        Role::Document | Role::Application | Role::Window => ActionSet::EMPTY,
        _ if s.clickable => pointer,
        _ => ActionSet::EMPTY,
    };
    // Whatever a pointer can click, it can rest on (hover menus, tooltips).
    if set.contains(Click) {
        set.insert(Hover);
    }
    if s.draggable {
        set = set.with(DragTo).with(DragBy);
    }
    if s.scrollable {
        set = set.with(Scroll);
    }
    set
}
