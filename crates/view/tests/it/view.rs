//! The compact text view as a planner sees it: line format, the enforced token budget
//! and what it evicts, the in-band notice, and `find` over what was dropped.
//!
//! Token counts are taken independently with tiktoken-rs's own o200k_base singleton.

use arc_core::{ActionKind, ActionSet, Bounds, Element, Role, Scalar, Snapshot};
use arc_view::{self as view, CompactView, FindQuery, ViewOptions};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len()
}

fn el(id: &str, role: Role, name: &str) -> Element {
    Element::new(id, role, name)
}

fn control(id: &str, role: Role, name: &str) -> Element {
    let mut e = el(id, role, name);
    e.actions = ActionSet::from([ActionKind::Click]);
    e
}

fn child(mut e: Element, parent: &str) -> Element {
    e.parent_id = Some(parent.into());
    e
}

fn snap(elements: Vec<Element>) -> Snapshot {
    Snapshot::new("app", "window", elements)
}

/// The ids of the element lines of a view, in text order (the notice line excluded).
fn ids_in(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('['))
        .map(|l| l[1..l.find(']').unwrap()].to_owned())
        .collect()
}

fn line_of<'a>(text: &'a str, id: &str) -> Option<&'a str> {
    let prefix = format!("[{id}] ");
    text.lines().find(|l| l.trim_start().starts_with(&prefix))
}

fn budget(n: usize) -> ViewOptions {
    ViewOptions {
        budget_tokens: n,
        ..ViewOptions::default()
    }
}

// ---------------------------------------------------------------------------- format

#[test]
fn one_line_per_element_id_first_with_value_and_states() {
    let mut email = control("e7", Role::TextField, "Email");
    email.value = Some("ada@example.com".into());
    email.focused = true;
    let mut terms = control("e9", Role::CheckBox, "I accept the terms");
    terms.selected = Some(true);
    let mut off = control("e10", Role::Button, "Pay");
    off.enabled = false;
    let mut plan = control("e11", Role::ComboBox, "Plan");
    plan.expanded = Some(false);
    plan.value = Some("Pro".into());
    let mut menu = control("e13", Role::Button, "More");
    menu.expanded = Some(true);
    let mut tab = control("e14", Role::Tab, "Billing");
    tab.selected = Some(true);
    let mut qty = control("e15", Role::SpinButton, "Quantity");
    qty.value = Some(Scalar::Int(42));
    let mut pw = control("e16", Role::PasswordField, "Password");
    pw.value = Some("hunter2".into());
    let mut hidden = control("e17", Role::Button, "Hidden");
    hidden.visible = false;
    let s = snap(vec![
        control("e12", Role::Button, "Submit order"),
        email,
        terms,
        off,
        plan,
        menu,
        tab,
        qty,
        pw,
        hidden,
        el("e18", Role::Row, ""),
        el("e19", Role::Heading, "Line\none\t\ttwo  "),
        el("e20", Role::StaticText, r#"Say "hi""#),
    ]);
    let v = view::render(&s, &ViewOptions::default());
    let expected = [
        r#"[e12] button "Submit order""#,
        r#"[e7] text_field "Email" = "ada@example.com" (focused)"#,
        r#"[e9] checkbox "I accept the terms" (checked)"#,
        r#"[e10] button "Pay" (disabled)"#,
        r#"[e11] combobox "Plan" = "Pro" (collapsed)"#,
        r#"[e13] button "More" (expanded)"#,
        r#"[e14] tab "Billing" (selected)"#,
        r#"[e15] spinbutton "Quantity" = 42"#,
        r#"[e16] password_field "Password" = "***""#,
        r#"[e18] row"#,
        r#"[e19] heading "Line one two""#,
        r#"[e20] static_text "Say \"hi\"""#,
    ]
    .join("\n");
    assert_eq!(v.text, expected);
    assert!(!v.truncated);
    assert_eq!(v.notice, None);
    assert_eq!(v.tokens, tokens(&v.text));
}

#[test]
fn off_screen_elements_say_so() {
    let mut near = control("near", Role::Button, "Near");
    near.bounds = Some(Bounds {
        x: 10.0,
        y: 10.0,
        width: 50.0,
        height: 20.0,
    });
    let mut far = control("far", Role::Button, "Far");
    far.bounds = Some(Bounds {
        x: 10.0,
        y: 5000.0,
        width: 50.0,
        height: 20.0,
    });
    let mut s = snap(vec![near, far]);
    s.viewport = Some(Bounds {
        x: 0.0,
        y: 0.0,
        width: 1280.0,
        height: 800.0,
    });
    let v = view::render(&s, &ViewOptions::default());
    assert_eq!(
        v.text,
        "[near] button \"Near\"\n[far] button \"Far\" (offscreen)"
    );
}

#[test]
fn long_names_and_values_are_cut_with_an_ellipsis() {
    let name: String = "word ".repeat(60);
    let value: String = "ab".repeat(100);
    let mut field = control("f", Role::TextField, &name);
    field.value = Some(value.clone().into());
    let v = view::render(&snap(vec![field]), &ViewOptions::default());
    // 80 characters at most: 79 kept, then the ellipsis.
    let name_cut = format!("{}…", "word ".repeat(16).trim_end()); // 16 words = 79 chars
    let value_cut = format!("{}…", &value[..79]);
    assert_eq!(
        v.text,
        format!("[f] text_field \"{name_cut}\" = \"{value_cut}\"")
    );

    // Exactly 80 characters is not long.
    let exact = "x".repeat(80);
    let v = view::render(
        &snap(vec![el("t", Role::Heading, &exact)]),
        &ViewOptions::default(),
    );
    assert_eq!(v.text, format!("[t] heading \"{exact}\""));
}

#[test]
fn nesting_is_shown_by_indentation() {
    let s = snap(vec![
        el("doc", Role::Document, "Shop"),
        child(el("form", Role::Form, "Checkout"), "doc"),
        child(control("pay", Role::Button, "Pay"), "form"),
        child(control("help", Role::Link, "Help"), "doc"),
    ]);
    let v = view::render(&s, &ViewOptions::default());
    assert_eq!(
        v.text,
        "[doc] document \"Shop\"\n  [form] form \"Checkout\"\n    [pay] button \"Pay\"\n  [help] link \"Help\""
    );
    let flat = view::render(
        &s,
        &ViewOptions {
            indent: false,
            ..ViewOptions::default()
        },
    );
    assert!(flat.text.lines().all(|l| l.starts_with('[')));
}

#[test]
fn a_small_page_is_whole_and_has_no_notice() {
    let mut hidden = el("ghost", Role::Button, "Ghost");
    hidden.visible = false;
    let s = snap(vec![
        el("h", Role::Heading, "Create your account"),
        control("email", Role::TextField, "Email"),
        control("terms", Role::CheckBox, "I accept the terms"),
        control("submit", Role::Button, "Sign up"),
        hidden,
    ]);
    let v = view::render(&s, &ViewOptions::default());
    assert!(!v.truncated);
    assert_eq!(v.notice, None);
    assert!(!v.text.contains("# truncated"));
    assert_eq!(ids_in(&v.text), ["h", "email", "terms", "submit"]);
}

// ----------------------------------------------------------------- table + dialog

const ROWS: usize = 5_000;
const CELLS: usize = 4;

/// A 5,000-row orders table (clickable rows, four cells each), page controls, and an
/// open "Confirm export" dialog with a message and three controls, last in the
/// document as portals put it.
fn table_with_dialog() -> Snapshot {
    let mut v = vec![
        el("doc", Role::Document, "Orders"),
        child(control("export", Role::Button, "Export"), "doc"),
        child(control("filter", Role::TextField, "Filter orders"), "doc"),
        child(el("table", Role::Table, "Orders"), "doc"),
    ];
    for r in 0..ROWS {
        let row = format!("r{r}");
        v.push(child(
            control(&row, Role::Row, &format!("Order {r}")),
            "table",
        ));
        let texts = [
            format!("#{}", 100_000 + r),
            format!("Customer {r}"),
            format!("${}.{:02}", r * 7 % 1000, r % 100),
            "Shipped".to_owned(),
        ];
        for (c, text) in texts.iter().enumerate() {
            v.push(child(el(&format!("r{r}c{c}"), Role::Cell, text), &row));
        }
    }
    v.extend([
        child(el("dlg", Role::Dialog, "Confirm export"), "doc"),
        child(
            el("msg", Role::StaticText, "Export 5000 orders to CSV?"),
            "dlg",
        ),
        child(el("opts", Role::Group, "Options"), "dlg"),
        child(
            control("headers", Role::CheckBox, "Include headers"),
            "opts",
        ),
        child(control("cancel", Role::Button, "Cancel"), "dlg"),
        child(control("ok", Role::Button, "Export"), "dlg"),
    ]);
    snap(v)
}

#[test]
fn a_dialog_over_a_huge_table_survives_the_default_budget() {
    let s = table_with_dialog();
    let v = view::render(&s, &ViewOptions::default());

    assert!(v.truncated);
    assert_eq!(v.tokens, tokens(&v.text));
    assert!(v.tokens <= 1_200, "{} tokens", v.tokens);

    let kept: BTreeSet<String> = ids_in(&v.text).into_iter().collect();
    for id in ["dlg", "headers", "cancel", "ok", "doc", "msg", "opts"] {
        assert!(kept.contains(id), "{id} missing from\n{}", v.text);
    }
    // Page controls outrank rows; the rows that stay are the table's top ones.
    assert!(kept.contains("export") && kept.contains("filter"));
    let kept_rows: Vec<usize> = (0..ROWS)
        .filter(|r| kept.contains(&format!("r{r}")))
        .collect();
    assert!(!kept_rows.is_empty(), "no rows at all:\n{}", v.text);
    assert_eq!(kept_rows, (0..kept_rows.len()).collect::<Vec<_>>());
    assert!(kept_rows.len() < 200);

    // The notice, against counts taken from the text and the snapshot.
    let notice = v.notice.as_ref().expect("a notice");
    let kept_cells = kept
        .iter()
        .filter(|id| id.contains('c') && id.starts_with('r'))
        .count();
    let roles: BTreeMap<&str, usize> = notice
        .evicted_roles
        .iter()
        .map(|(r, n)| (r.as_str(), *n))
        .collect();
    assert_eq!(roles.get("row"), Some(&(ROWS - kept_rows.len())));
    assert_eq!(roles.get("cell"), Some(&(ROWS * CELLS - kept_cells)));
    assert_eq!(notice.dropped_node_count, s.elements.len() - kept.len());
    let dropped_clickable: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| !e.actions.is_empty() && !kept.contains(e.id.as_str()))
        .map(|e| e.id.as_str())
        .collect();
    let listed: Vec<&str> = notice
        .dropped_actionable_ids
        .iter()
        .map(|i| i.as_str())
        .collect();
    assert_eq!(listed, dropped_clickable);
    assert_eq!(notice.dropped_actionable_count, dropped_clickable.len());

    // And the text says it in-band, on its last line.
    let last = v.text.lines().last().unwrap();
    assert!(last.starts_with("# truncated: "), "{last}");
    assert!(last.contains(&format!(
        "{} of {}",
        notice.dropped_node_count,
        s.elements.len()
    )));
    assert!(
        last.contains(&format!("row {}", ROWS - kept_rows.len())),
        "{last}"
    );
    assert!(
        last.contains(&format!("cell {}", ROWS * CELLS - kept_cells)),
        "{last}"
    );
    assert!(last.contains(&format!(
        "dropped actionable ids: {},",
        dropped_clickable[0]
    )));
    assert!(last.contains("use find"));
}

#[test]
fn find_reaches_what_the_budget_dropped_with_its_context() {
    let s = table_with_dialog();
    let v = view::render(&s, &ViewOptions::default());
    let kept: BTreeSet<String> = ids_in(&v.text).into_iter().collect();
    assert!(!kept.contains("r4999"));

    let hits = view::find(
        &s,
        &FindQuery {
            text: Some("  ORDER   4999 ".into()),
            ..FindQuery::default()
        },
    );
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].id.as_str(), "r4999");
    assert_eq!(hits[0].line, r#"[r4999] row "Order 4999""#);
    assert_eq!(hits[0].context, r#"document "Orders" > table "Orders""#);

    let hits = view::find(
        &s,
        &FindQuery {
            role: Some(Role::CheckBox),
            ..FindQuery::default()
        },
    );
    assert_eq!(hits.len(), 1);
    assert_eq!(
        hits[0].context,
        r#"document "Orders" > dialog "Confirm export" > group "Options""#
    );

    // Matches values too, in document order, up to the limit.
    let hits = view::find(
        &s,
        &FindQuery {
            text: Some("shipped".into()),
            role: None,
            limit: 3,
        },
    );
    let ids: Vec<&str> = hits.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["r0c3", "r1c3", "r2c3"]);
    assert_eq!(
        hits[2].context,
        r#"document "Orders" > table "Orders" > row "Order 2""#
    );
}

#[test]
fn on_screen_controls_are_kept_before_off_screen_ones() {
    let mut v = Vec::new();
    for i in 0..200 {
        let mut b = control(
            &format!("b{i}"),
            Role::Button,
            &format!("Action number {i}"),
        );
        // Alternate in document order: even ones in view, odd ones far below.
        let y = if i % 2 == 0 {
            10.0 + i as f64
        } else {
            10_000.0 + i as f64
        };
        b.bounds = Some(Bounds {
            x: 0.0,
            y,
            width: 100.0,
            height: 1.0,
        });
        v.push(b);
    }
    let mut s = snap(v);
    s.viewport = Some(Bounds {
        x: 0.0,
        y: 0.0,
        width: 1280.0,
        height: 800.0,
    });
    let on = |id: &str| id[1..].parse::<usize>().unwrap() % 2 == 0;

    // Tight: only on-screen ones fit, the first of them.
    let tight = view::render(&s, &budget(300));
    let kept = ids_in(&tight.text);
    assert!(
        kept.len() > 5 && kept.iter().all(|id| on(id)),
        "{}",
        tight.text
    );
    let expected: Vec<String> = (0..kept.len()).map(|k| format!("b{}", 2 * k)).collect();
    assert_eq!(kept, expected);

    // Roomier: every on-screen one, then some off-screen ones.
    let roomy = view::render(&s, &budget(1_500));
    let kept = ids_in(&roomy.text);
    assert!(roomy.truncated);
    assert_eq!(
        kept.iter().filter(|id| on(id)).count(),
        100,
        "{}",
        roomy.text
    );
    assert!(kept.iter().any(|id| !on(id)));
    assert!(line_of(&roomy.text, "b1").unwrap().ends_with("(offscreen)"));
}

#[test]
fn a_modal_that_alone_exceeds_the_budget_still_respects_it() {
    let mut v = vec![
        el("doc", Role::Document, "Settings"),
        child(control("country", Role::ComboBox, "Country"), "doc"),
        child(el("list", Role::ListBox, "Country"), "country"),
    ];
    for i in 0..500 {
        v.push(child(
            control(&format!("o{i}"), Role::Option, &format!("Country {i}")),
            "list",
        ));
    }
    v.push(child(control("save", Role::Button, "Save"), "doc"));
    let s = snap(v);
    let view = view::render(&s, &budget(200));
    assert!(tokens(&view.text) <= 200);
    let kept = ids_in(&view.text);
    // The listbox and its ancestors first, then its first options; the page button goes.
    assert_eq!(&kept[..4], ["doc", "country", "list", "o0"]);
    assert!(!kept.contains(&"save".to_owned()));
    assert!(view.text.lines().last().unwrap().starts_with("# truncated"));
}

#[test]
fn a_dialogs_message_outlasts_page_controls() {
    let mut v = vec![el("doc", Role::Document, "Page")];
    for i in 0..300 {
        v.push(child(
            control(&format!("b{i}"), Role::Button, &format!("Page button {i}")),
            "doc",
        ));
    }
    v.extend([
        child(el("dlg", Role::Dialog, "Session expiring"), "doc"),
        child(
            el(
                "msg",
                Role::Paragraph,
                "Your session expires in 60 seconds; unsaved changes will be lost.",
            ),
            "dlg",
        ),
        child(control("stay", Role::Button, "Stay signed in"), "dlg"),
    ]);
    let view = view::render(&snap(v), &budget(400));
    let kept = ids_in(&view.text);
    for id in ["doc", "dlg", "msg", "stay", "b0"] {
        assert!(kept.contains(&id.to_owned()), "{id}:\n{}", view.text);
    }
    assert!(!kept.contains(&"b299".to_owned()));
}

#[test]
fn the_view_serializes_with_the_documented_field_names() {
    let v = view::render(&table_with_dialog(), &budget(300));
    let json = serde_json::to_value(&v).unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 4);
    for k in ["text", "tokens", "truncated", "notice"] {
        assert!(keys.contains(&k), "{keys:?}");
    }
    let notice = json["notice"].as_object().unwrap();
    let mut keys: Vec<&str> = notice.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "dropped_actionable_count",
            "dropped_actionable_ids",
            "dropped_node_count",
            "evicted_roles"
        ]
    );
    assert_eq!(json["notice"]["evicted_roles"][0][0], "cell");
    let back: CompactView = serde_json::from_value(json).unwrap();
    assert_eq!(back, v);
}

// ----------------------------------------------------------------- any snapshot

const ROLES: &[&str] = &[
    "button",
    "link",
    "text_field",
    "password_field",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menu",
    "menubar",
    "menuitem",
    "tab",
    "tablist",
    "dialog",
    "row",
    "cell",
    "columnheader",
    "listitem",
    "list",
    "heading",
    "image",
    "static_text",
    "paragraph",
    "group",
    "generic",
    "visible_text",
    "table",
    "document",
    "Timeline view",
];

fn arb_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[A-Za-z ]{1,20}",
        "[a-z0-9 \"\\\\\n\t.,;:!?()\\[\\]#-]{0,60}",
        "\\PC{0,40}",
        "[a-zA-Z0-9 ]{100,300}",
        ".{0,12}".prop_map(|s| s.repeat(20)),
    ]
}

#[derive(Debug, Clone)]
struct Spec {
    role: usize,
    name: String,
    value: Option<String>,
    clickable: bool,
    enabled: bool,
    visible: bool,
    focused: bool,
    state: Option<bool>,
    parent: Option<usize>,
    below_fold: Option<bool>,
}

fn arb_spec() -> impl Strategy<Value = Spec> {
    (
        (
            0..ROLES.len(),
            arb_name(),
            proptest::option::weighted(0.2, arb_name()),
        ),
        (
            any::<bool>(),
            prop::bool::weighted(0.9),
            prop::bool::weighted(0.9),
            prop::bool::weighted(0.05),
        ),
        (
            proptest::option::of(any::<bool>()),
            proptest::option::weighted(0.8, 0..400usize),
        ),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(
            |(
                (role, name, value),
                (clickable, enabled, visible, focused),
                (state, parent),
                below_fold,
            )| Spec {
                role,
                name,
                value,
                clickable,
                enabled,
                visible,
                focused,
                state,
                parent,
                below_fold,
            },
        )
}

fn build(specs: &[Spec], viewport: bool) -> Snapshot {
    let elements: Vec<Element> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut e = Element::new(format!("e{i}"), Role::parse(ROLES[s.role]), s.name.clone());
            e.value = s.value.clone().map(Scalar::from);
            if s.clickable {
                e.actions = ActionSet::from([ActionKind::Click]);
            }
            e.enabled = s.enabled;
            e.visible = s.visible;
            e.focused = s.focused;
            e.selected = s.state;
            e.expanded = s.state.map(|b| !b);
            // Any index: dangling parents, self-parents and cycles included.
            e.parent_id = s.parent.map(|p| format!("e{p}").into());
            e.bounds = s.below_fold.map(|below| Bounds {
                x: 0.0,
                y: if below { 5_000.0 } else { 100.0 },
                width: 10.0,
                height: 10.0,
            });
            e
        })
        .collect();
    let mut s = snap(elements);
    if viewport {
        s.viewport = Some(Bounds {
            x: 0.0,
            y: 0.0,
            width: 1280.0,
            height: 800.0,
        });
    }
    s
}

fn arb_budget() -> impl Strategy<Value = usize> {
    prop_oneof![0..50usize, 50..120usize, 120..2_000usize]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn any_snapshot_fits_its_budget_and_accounts_for_what_it_dropped(
        specs in prop::collection::vec(arb_spec(), 0..400),
        viewport in any::<bool>(),
        budget_tokens in arb_budget(),
    ) {
        let s = build(&specs, viewport);
        let v = view::render(&s, &budget(budget_tokens));
        let counted = tokens(&v.text);
        prop_assert!(counted <= budget_tokens, "{counted} > {budget_tokens}:\n{}", v.text);
        prop_assert_eq!(v.tokens, counted);

        let kept = ids_in(&v.text);
        let kept_set: BTreeSet<&str> = kept.iter().map(String::as_str).collect();
        prop_assert_eq!(kept_set.len(), kept.len(), "an element listed twice");
        let visible: Vec<&Element> = s.elements.iter().filter(|e| e.visible).collect();
        prop_assert!(kept.iter().all(|id| visible.iter().any(|e| e.id.as_str() == id)));
        // Document order is kept.
        let positions: Vec<usize> = kept.iter().map(|id| id[1..].parse().unwrap()).collect();
        prop_assert!(positions.windows(2).all(|w| w[0] < w[1]));

        prop_assert_eq!(v.truncated, kept.len() < visible.len());
        prop_assert_eq!(v.truncated, v.notice.is_some());
        if let Some(n) = &v.notice {
            prop_assert_eq!(n.dropped_node_count, visible.len() - kept.len());
            prop_assert_eq!(n.evicted_roles.iter().map(|(_, c)| c).sum::<usize>(), n.dropped_node_count);
            let dropped_actionable: Vec<&str> = visible
                .iter()
                .filter(|e| e.is_actionable() && !kept_set.contains(e.id.as_str()))
                .map(|e| e.id.as_str())
                .collect();
            let listed: Vec<&str> = n.dropped_actionable_ids.iter().map(|i| i.as_str()).collect();
            prop_assert_eq!(&listed, &dropped_actionable);
            prop_assert_eq!(n.dropped_actionable_count, dropped_actionable.len());
            if budget_tokens >= 50 {
                let last = v.text.lines().last().unwrap_or("");
                prop_assert!(last.starts_with("# truncated"), "no notice:\n{}", v.text);
            }
        }
    }

    /// What the budget relies on: counting each line with its newline never
    /// under-counts the joined text.
    #[test]
    fn per_line_counts_bound_the_joined_text(
        fields in prop::collection::vec((0..ROLES.len(), arb_name(), arb_name(), any::<bool>()), 1..40),
        depths in prop::collection::vec(0..4usize, 40),
    ) {
        let specs: Vec<Spec> = fields
            .into_iter()
            .map(|(role, name, value, focused)| Spec {
                role,
                name,
                value: Some(value),
                clickable: true,
                enabled: true,
                visible: true,
                focused,
                state: None,
                parent: None,
                below_fold: None,
            })
            .collect();
        let s = build(&specs, false);
        let text = view::render(&s, &budget(100_000)).text;
        let lines: Vec<String> = text
            .lines()
            .zip(&depths)
            .map(|(l, d)| format!("{}{l}", "  ".repeat(*d)))
            .chain(["# truncated: 3 of 9 dropped".to_owned()])
            .collect();
        let per_line: usize = lines.iter().map(|l| tokens(&format!("{l}\n"))).sum();
        let joined = lines.join("\n");
        prop_assert!(tokens(&joined) <= per_line);
        // In fact exact: no token spans a line break (the newline ends the piece).
        prop_assert_eq!(tokens(&format!("{joined}\n")), per_line);
    }
}
