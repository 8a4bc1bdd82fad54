//! Random snapshots: any role (unknown ones too), unicode and huge names, huge counts,
//! deep chains, duplicate ids, parents that are missing, later, or the element itself
//! (cycles), bounds at the float edges.

use crate::json::re;
use arc_core::{ActionKind, ActionSet, Bounds, Element, Role, Scalar, Snapshot};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::BoxedStrategy;

#[derive(Clone, Debug)]
pub enum IdSpec {
    /// `e{i}`: unique.
    Index,
    /// `e{k}`: may repeat another element's id.
    Dup(u8),
    Weird(String),
}

#[derive(Clone, Debug)]
pub enum ParentSpec {
    None,
    /// The element before: long chains make deep trees.
    Prev,
    /// Any element: itself, a later one (cycles), an earlier one.
    Any(Index),
    /// An id no element has.
    Ghost(String),
}

#[derive(Clone, Debug)]
pub struct ElemSpec {
    pub id: IdSpec,
    pub role: String,
    pub name: String,
    pub value: Option<Scalar>,
    pub flags: u8,
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
    pub parent: ParentSpec,
    pub bounds: Option<[f64; 4]>,
    pub actions: u16,
}

/// A snapshot to render: its element specs (repeated to `count` when bulk), a viewport,
/// and the budget to render under.
#[derive(Clone, Debug)]
pub struct Case {
    pub specs: Vec<ElemSpec>,
    pub count: usize,
    pub viewport: Option<[f64; 4]>,
    pub budget: usize,
    pub indent: bool,
}

const ROLES: &[&str] = &[
    "button",
    "link",
    "textbox",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menu",
    "menuitem",
    "dialog",
    "alertdialog",
    "tab",
    "tablist",
    "tabpanel",
    "heading",
    "row",
    "cell",
    "table",
    "StaticText",
    "generic",
    "list",
    "listitem",
    "document",
    "RootWebArea",
    "progressbar",
    "slider",
    "tree",
    "treeitem",
    "alert",
    "status",
    "img",
];

fn edge_f64() -> BoxedStrategy<f64> {
    prop_oneof![
        6 => -100.0f64..2000.0,
        1 => prop::sample::select(vec![
            0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN,
            f64::MIN_POSITIVE, 1e300, -1e300,
        ]),
    ]
    .boxed()
}

fn rect() -> BoxedStrategy<[f64; 4]> {
    [edge_f64(), edge_f64(), edge_f64(), edge_f64()].boxed()
}

fn name() -> BoxedStrategy<String> {
    prop_oneof![
        6 => re("\\PC{0,24}"),
        2 => any::<String>(),
        1 => Just(String::new()),
        1 => (any::<char>(), 500usize..20_000).prop_map(|(c, n)| c.to_string().repeat(n)),
        1 => re("[ \\n\\t\\r\\u{200b}\\u{ad}\\u{202e}]{1,8}"),
    ]
    .boxed()
}

fn spec() -> BoxedStrategy<ElemSpec> {
    let id = prop_oneof![
        8 => Just(IdSpec::Index),
        1 => any::<u8>().prop_map(IdSpec::Dup),
        1 => re("\\PC{0,6}").prop_map(IdSpec::Weird),
    ];
    let role = prop_oneof![
        8 => prop::sample::select(ROLES).prop_map(str::to_owned),
        1 => re("\\PC{0,10}"),
    ];
    let value = prop::option::weighted(
        0.2,
        prop_oneof![
            name().prop_map(Scalar::Text),
            any::<i64>().prop_map(Scalar::Int),
            any::<f64>().prop_map(Scalar::Float),
            any::<bool>().prop_map(Scalar::Bool),
        ],
    );
    let parent = prop_oneof![
        2 => Just(ParentSpec::None),
        4 => Just(ParentSpec::Prev),
        3 => any::<Index>().prop_map(ParentSpec::Any),
        1 => re("\\PC{0,6}").prop_map(ParentSpec::Ghost),
    ];
    (
        (id, role, name(), value, any::<u8>()),
        (
            any::<Option<bool>>(),
            any::<Option<bool>>(),
            parent,
            prop::option::weighted(0.8, rect()),
            any::<u16>(),
        ),
    )
        .prop_map(
            |((id, role, name, value, flags), (selected, expanded, parent, bounds, actions))| {
                ElemSpec {
                    id,
                    role,
                    name,
                    value,
                    flags,
                    selected,
                    expanded,
                    parent,
                    bounds,
                    actions,
                }
            },
        )
        .boxed()
}

pub fn case() -> BoxedStrategy<Case> {
    let specs = prop::collection::vec(spec(), 0..60);
    let count = prop_oneof![
        100 => Just(0usize),
        1 => 1_000usize..25_000,
    ];
    let budget = prop_oneof![
        24 => 50usize..2_000,
        8 => 0usize..50,
        4 => Just(1_200usize),
        1 => 2_000usize..20_000,
    ];
    (
        specs,
        count,
        prop::option::weighted(0.8, rect()),
        budget,
        any::<bool>(),
    )
        .prop_map(|(specs, count, viewport, budget, indent)| Case {
            specs,
            count,
            viewport,
            budget,
            indent,
        })
        .boxed()
}

fn bounds(r: [f64; 4]) -> Bounds {
    Bounds {
        x: r[0],
        y: r[1],
        width: r[2],
        height: r[3],
    }
}

fn id_of(specs: &[ElemSpec], i: usize) -> String {
    match &specs[i % specs.len()].id {
        IdSpec::Index => format!("e{i}"),
        IdSpec::Dup(k) => format!("e{k}"),
        IdSpec::Weird(s) => s.clone(),
    }
}

/// The snapshot a case describes: `count` elements when bulk (specs repeated), else one
/// per spec.
pub fn build(case: &Case) -> Snapshot {
    let n = if case.specs.is_empty() {
        0
    } else {
        case.count.max(case.specs.len())
    };
    let els: Vec<Element> = (0..n)
        .map(|i| {
            let s = &case.specs[i % case.specs.len()];
            // Bulk pages repeat specs; a huge name repeated 25,000 times would only
            // measure memory, so repeats keep its first 200 characters.
            let name = if i < case.specs.len() {
                s.name.clone()
            } else {
                s.name.chars().take(200).collect()
            };
            let mut e = Element::new(id_of(&case.specs, i), Role::parse(&s.role), name);
            e.value = s.value.clone();
            e.visible = s.flags & 0b111 != 0;
            e.enabled = s.flags & 0b1000 == 0;
            e.focused = s.flags & 0b1_0000 != 0;
            e.selected = s.selected;
            e.expanded = s.expanded;
            e.parent_id = match &s.parent {
                ParentSpec::None => None,
                ParentSpec::Prev => i.checked_sub(1).map(|p| id_of(&case.specs, p).into()),
                ParentSpec::Any(ix) => Some(id_of(&case.specs, ix.index(n)).into()),
                ParentSpec::Ghost(g) => Some(format!("ghost-{g}").into()),
            };
            e.bounds = s.bounds.map(bounds);
            e.actions = ActionKind::ALL
                .iter()
                .enumerate()
                .filter(|(k, _)| s.actions & (1 << k) != 0)
                .map(|(_, kind)| *kind)
                .collect::<ActionSet>();
            e
        })
        .collect();
    let mut snap = Snapshot::new("fuzz", "window", els);
    snap.viewport = case.viewport.map(bounds);
    snap
}
