//! The legal action space of one snapshot: which operations are on offer and, for each
//! head, exactly the choices a model may answer with. Nothing outside it can come back
//! as a decision: an answer is read only through [`ActionSpace::choices`].

use super::heads::{Head, Operation, MODEL_TERMINALS};
use arc_core::key::{default_hotkeys, DEFAULT_PRESS_KEYS};
use arc_core::{
    ActionKind, Chord, Element, ElementId, Key, Risk, Scalar, ScrollDirection, Snapshot, Subtask,
};
use std::collections::{BTreeMap, HashSet};

/// Kinds that land on one element the model picks. DRAG_BY is left out: a free numeric
/// offset is not a choice, and the reference leaves it out of its JEV space too.
const TARGETED: [ActionKind; 8] = [
    ActionKind::Click,
    ActionKind::DoubleClick,
    ActionKind::RightClick,
    ActionKind::Hover,
    ActionKind::TypeText,
    ActionKind::SetValue,
    ActionKind::SelectOption,
    ActionKind::DragTo,
];

/// Kinds available without a target, for keyboard and page navigation (as the reference
/// offers them on every step).
const GLOBAL: [ActionKind; 3] = [ActionKind::PressKey, ActionKind::Hotkey, ActionKind::Scroll];

const SCROLL: [ScrollDirection; 4] = [
    ScrollDirection::Up,
    ScrollDirection::Down,
    ScrollDirection::Left,
    ScrollDirection::Right,
];

/// What narrows the space beyond legality.
#[derive(Clone, Copy, Debug)]
pub struct SpaceLimits<'a> {
    /// Most ids one head lists, in document order; the rest are counted as truncated.
    pub max_candidates: usize,
    /// Ids the model cannot see (evicted from its view): offering them would only invite
    /// a blind guess.
    pub unseen: &'a HashSet<ElementId>,
    /// Whether HOVER may be offered. The reference's JEV format has no HOVER (its
    /// vocabulary is the contract's thirteen kinds, so a JEV endpoint would be asked a
    /// `hover_target` question it has never seen): the JEV policy passes `false`.
    pub hover: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ActionSpace {
    operations: Vec<Operation>,
    targets: BTreeMap<ActionKind, Vec<ElementId>>,
    destinations: Vec<ElementId>,
    inputs: BTreeMap<ActionKind, Vec<String>>,
    keys: Vec<Key>,
    hotkeys: Vec<Chord>,
    criteria: usize,
    truncated: BTreeMap<Head, usize>,
}

/// Whether the loop's risk gate would refuse `kind` on `e` (a press on a control whose
/// label carries a risk `allowed_risks` does not include): such a control is not
/// offered, since choosing it could only be refused.
fn refused_press(kind: ActionKind, e: &Element, subtask: &Subtask) -> bool {
    let presses = matches!(
        kind,
        ActionKind::Click | ActionKind::DoubleClick | ActionKind::RightClick | ActionKind::SetValue
    );
    presses
        && Risk::all_in(&e.name)
            .into_iter()
            .any(|r| !subtask.allows(r))
}

impl ActionSpace {
    pub fn build(snapshot: &Snapshot, subtask: &Subtask, limits: SpaceLimits<'_>) -> Self {
        let mut truncated = BTreeMap::new();
        let mut cap = |head: Head, mut list: Vec<ElementId>| {
            if list.len() > limits.max_candidates {
                truncated.insert(head, list.len() - limits.max_candidates);
                list.truncate(limits.max_candidates);
            }
            list
        };
        let eligible = || {
            snapshot
                .elements
                .iter()
                .filter(|e| e.visible && e.enabled && !limits.unseen.contains(&e.id))
        };
        let has_inputs = !subtask.inputs.is_empty();
        let destinations = cap(
            Head::Destination,
            eligible()
                .filter(|e| e.accepts_drop)
                .map(|e| e.id.clone())
                .collect(),
        );
        let mut targets = BTreeMap::new();
        for kind in TARGETED {
            if kind.needs_input() && !has_inputs {
                continue;
            }
            if kind == ActionKind::DragTo && destinations.is_empty() {
                continue;
            }
            if kind == ActionKind::Hover && !limits.hover {
                continue;
            }
            let ids: Vec<ElementId> = eligible()
                .filter(|e| e.actions.contains(kind) && !refused_press(kind, e, subtask))
                .map(|e| e.id.clone())
                .collect();
            if !ids.is_empty() {
                targets.insert(kind, cap(Head::Target(kind), ids));
            }
        }
        let mut inputs = BTreeMap::new();
        for &kind in targets.keys().filter(|k| k.needs_input()) {
            inputs.insert(kind, subtask.inputs.keys().cloned().collect());
        }
        // NAVIGATE only on a page (the browser reports its URL) and only to inputs that
        // hold an http(s) URL: the model picks a key, never writes an address.
        let urls: Vec<String> = subtask
            .inputs
            .iter()
            .filter(|(_, v)| matches!(v, Scalar::Text(t) if is_web_url(t)))
            .map(|(k, _)| k.clone())
            .collect();
        if snapshot.url().is_some() && !urls.is_empty() {
            inputs.insert(ActionKind::Navigate, urls);
        }
        let wait = eligible().any(|e| e.actions.contains(ActionKind::Wait));
        let mut kinds: Vec<ActionKind> = targets.keys().copied().collect();
        kinds.extend(GLOBAL);
        if inputs.contains_key(&ActionKind::Navigate) {
            kinds.push(ActionKind::Navigate);
        }
        if wait {
            kinds.push(ActionKind::Wait);
        }
        kinds.sort();
        let mut hotkeys: Vec<Chord> = default_hotkeys().to_vec();
        for chord in &subtask.shortcuts {
            if !hotkeys.contains(chord) {
                hotkeys.push(chord.clone());
            }
        }
        ActionSpace {
            operations: kinds
                .into_iter()
                .map(Operation::Act)
                .chain(MODEL_TERMINALS.map(Operation::Terminal))
                .collect(),
            targets,
            destinations,
            inputs,
            keys: DEFAULT_PRESS_KEYS.to_vec(),
            hotkeys,
            criteria: subtask.verification.len(),
            truncated,
        }
    }

    /// The offered operations: action kinds in vocabulary order, then the terminals.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    pub fn offers(&self, op: Operation) -> bool {
        self.operations.contains(&op)
    }

    /// The ids offering `kind` (visible, enabled, seen), in document order.
    pub fn targets(&self, kind: ActionKind) -> &[ElementId] {
        self.targets.get(&kind).map_or(&[], Vec::as_slice)
    }

    /// Ids left off a head because of `max_candidates`.
    pub fn truncated(&self) -> &BTreeMap<Head, usize> {
        &self.truncated
    }

    pub fn criteria(&self) -> usize {
        self.criteria
    }

    /// The heads choosing `op` consumes, in answer order.
    pub fn consumed(&self, op: Operation) -> Vec<Head> {
        match op {
            Operation::Act(kind) => {
                let mut heads = Vec::new();
                if self.targets.contains_key(&kind) {
                    heads.push(Head::Target(kind));
                }
                if kind == ActionKind::DragTo {
                    heads.push(Head::Destination);
                }
                if self.inputs.contains_key(&kind) {
                    heads.push(Head::Input(kind));
                }
                match kind {
                    ActionKind::PressKey => heads.push(Head::Key),
                    ActionKind::Hotkey => heads.push(Head::Hotkey),
                    ActionKind::Scroll => heads.push(Head::Scroll),
                    _ => {}
                }
                heads
            }
            Operation::Terminal(arc_core::TerminalKind::SubtaskComplete) => {
                (0..self.criteria).map(Head::Criterion).collect()
            }
            Operation::Terminal(_) => Vec::new(),
        }
    }

    /// Every head of the request, in the order a model should answer them: the verdicts
    /// first (judge the screen), then the operation, then each operation's heads.
    pub fn heads(&self) -> Vec<Head> {
        let mut heads: Vec<Head> = (0..self.criteria).map(Head::Criterion).collect();
        heads.push(Head::Operation);
        for &op in &self.operations {
            if let Operation::Act(_) = op {
                for head in self.consumed(op) {
                    if !heads.contains(&head) {
                        heads.push(head);
                    }
                }
            }
        }
        heads
    }

    /// The wire spellings a head may be answered with; empty for a head not in the space.
    pub fn choices(&self, head: Head) -> Vec<String> {
        let ids = |list: &[ElementId]| list.iter().map(|id| id.0.clone()).collect();
        match head {
            Head::Operation => self.operations.iter().map(|o| o.as_str().into()).collect(),
            Head::Target(kind) => ids(self.targets(kind)),
            Head::Destination if self.targets.contains_key(&ActionKind::DragTo) => {
                ids(&self.destinations)
            }
            Head::Destination => Vec::new(),
            Head::Input(kind) => self.inputs.get(&kind).cloned().unwrap_or_default(),
            Head::Key => self.keys.iter().map(Key::to_string).collect(),
            Head::Hotkey => self.hotkeys.iter().map(Chord::to_string).collect(),
            Head::Scroll => SCROLL.iter().map(|d| scroll_name(*d).into()).collect(),
            Head::Criterion(i) if i < self.criteria => super::heads::Verdict::ALL
                .iter()
                .map(|v| v.as_str().into())
                .collect(),
            Head::Criterion(_) => Vec::new(),
        }
    }
}

pub(crate) fn scroll_name(d: ScrollDirection) -> &'static str {
    match d {
        ScrollDirection::Up => "UP",
        ScrollDirection::Down => "DOWN",
        ScrollDirection::Left => "LEFT",
        ScrollDirection::Right => "RIGHT",
    }
}

fn is_web_url(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::{ActionSet, Role};

    fn el(id: &str, actions: ActionSet) -> Element {
        let mut e = Element::new(id, Role::Button, id);
        e.actions = actions;
        e
    }

    #[test]
    fn only_visible_enabled_seen_offering_elements_are_targets() {
        use ActionKind::*;
        let mut disabled = el("disabled", [Click].into());
        disabled.enabled = false;
        let mut hidden = el("hidden", [Click].into());
        hidden.visible = false;
        let snap = Snapshot::new(
            "a",
            "w",
            vec![
                el("ok", [Click].into()),
                disabled,
                hidden,
                el("field", [Click, TypeText].into()),
                el("menu", [RightClick].into()),
                el("evicted", [Click].into()),
            ],
        );
        let task = Subtask::new("g", "c").with_input("q", "x");
        let unseen: HashSet<ElementId> = [ElementId::from("evicted")].into();
        let space = ActionSpace::build(
            &snap,
            &task,
            SpaceLimits {
                max_candidates: 240,
                unseen: &unseen,
                hover: true,
            },
        );
        assert_eq!(space.choices(Head::Target(Click)), ["ok", "field"]);
        assert_eq!(space.choices(Head::Target(TypeText)), ["field"]);
        assert_eq!(space.choices(Head::Target(RightClick)), ["menu"]);
        assert!(space.choices(Head::Target(DoubleClick)).is_empty());
        assert!(!space.offers(Operation::Act(DragTo)));
        assert!(space.offers(Operation::Act(PressKey)));
        assert_eq!(space.choices(Head::Input(TypeText)), ["q"]);
        assert!(!space.offers(Operation::Act(Navigate)));
    }

    #[test]
    fn a_risky_control_is_offered_only_when_its_risk_is_allowed() {
        use ActionKind::*;
        let mut delete = Element::new("delete", Role::Button, "Delete account");
        delete.actions = [Click].into();
        let snap = Snapshot::new("a", "w", vec![el("save", [Click].into()), delete]);
        let unseen = HashSet::new();
        let limits = || SpaceLimits {
            max_candidates: 240,
            unseen: &unseen,
            hover: true,
        };
        let task = Subtask::new("g", "c");
        let space = ActionSpace::build(&snap, &task, limits());
        assert_eq!(space.choices(Head::Target(Click)), ["save"]);
        let mut task = Subtask::new("g", "c");
        task.allowed_risks.insert(Risk::Delete);
        let space = ActionSpace::build(&snap, &task, limits());
        assert_eq!(space.choices(Head::Target(Click)), ["save", "delete"]);
    }

    #[test]
    fn text_kinds_need_inputs_and_candidates_are_capped() {
        let elements: Vec<Element> = (0..5)
            .map(|i| {
                el(
                    &format!("b{i}"),
                    [ActionKind::Click, ActionKind::TypeText].into(),
                )
            })
            .collect();
        let snap = Snapshot::new("a", "w", elements);
        let unseen = HashSet::new();
        let space = ActionSpace::build(
            &snap,
            &Subtask::new("g", "c"),
            SpaceLimits {
                max_candidates: 2,
                unseen: &unseen,
                hover: true,
            },
        );
        assert!(!space.offers(Operation::Act(ActionKind::TypeText)));
        assert_eq!(space.choices(Head::Target(ActionKind::Click)), ["b0", "b1"]);
        assert_eq!(
            space.truncated().get(&Head::Target(ActionKind::Click)),
            Some(&3)
        );
    }

    #[test]
    fn navigate_drag_and_wait_need_their_preconditions() {
        use ActionKind::*;
        let mut drop = el("bin", [Click].into());
        drop.accepts_drop = true;
        let mut snap = Snapshot::new("a", "w", vec![el("card", [DragTo, Wait].into()), drop]);
        let task = Subtask::new("g", "c")
            .with_input("home", "https://example.test/")
            .with_input("name", "Ada");
        let unseen = HashSet::new();
        let limits = SpaceLimits {
            max_candidates: 240,
            unseen: &unseen,
            hover: true,
        };
        let space = ActionSpace::build(&snap, &task, limits);
        assert!(!space.offers(Operation::Act(Navigate)), "not a page");
        assert_eq!(space.choices(Head::Target(DragTo)), ["card"]);
        assert_eq!(space.choices(Head::Destination), ["bin"]);
        assert!(space.offers(Operation::Act(Wait)));
        assert_eq!(
            space.consumed(Operation::Act(DragTo)),
            [Head::Target(DragTo), Head::Destination]
        );
        snap.facts.url = Some("https://example.test/a".into());
        let space = ActionSpace::build(&snap, &task, limits);
        assert_eq!(space.choices(Head::Input(Navigate)), ["home"]);
    }
}
