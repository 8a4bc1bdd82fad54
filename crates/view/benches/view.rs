//! The compact view runs every step: render pages of 100, 1,000 and 25,000 elements
//! (an orders table, five elements per row, with a confirm dialog open over it) at the
//! default 1,200-token budget, and `find` over the largest.

use arc_core::{ActionKind, ActionSet, Element, Role, Snapshot};
use arc_view::{self as view, FindQuery, ViewOptions};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

fn el(id: String, role: Role, name: String, parent: &str, click: bool) -> Element {
    let mut e = Element::new(id, role, name);
    if !parent.is_empty() {
        e.parent_id = Some(parent.into());
    }
    if click {
        e.actions = ActionSet::from([ActionKind::Click]);
    }
    e
}

/// A page of exactly `size` elements: chrome, a table filling the middle, a dialog.
fn page(size: usize) -> Snapshot {
    let s = |x: &str| x.to_owned();
    let mut v = vec![
        el(s("doc"), Role::Document, s("Orders"), "", false),
        el(
            s("search"),
            Role::TextField,
            s("Search orders"),
            "doc",
            true,
        ),
        el(s("export"), Role::Button, s("Export"), "doc", true),
        el(s("table"), Role::Table, s("Orders"), "doc", false),
    ];
    let dialog = [
        el(s("dlg"), Role::Dialog, s("Confirm export"), "doc", false),
        el(
            s("msg"),
            Role::StaticText,
            s("Export all orders to CSV?"),
            "dlg",
            false,
        ),
        el(
            s("headers"),
            Role::CheckBox,
            s("Include headers"),
            "dlg",
            true,
        ),
        el(s("cancel"), Role::Button, s("Cancel"), "dlg", true),
        el(s("ok"), Role::Button, s("Export"), "dlg", true),
    ];
    let mut r = 0;
    while v.len() + dialog.len() < size {
        let row = format!("r{r}");
        v.push(el(
            row.clone(),
            Role::Row,
            format!("Order {r}"),
            "table",
            true,
        ));
        let cells = [
            format!("#{}", 100_000 + r),
            format!("Customer {r}"),
            format!("${}.{:02}", r * 7 % 1000, r % 100),
            s("Shipped"),
        ];
        for (c, text) in cells.into_iter().enumerate() {
            if v.len() + dialog.len() < size {
                v.push(el(format!("r{r}c{c}"), Role::Cell, text, &row, false));
            }
        }
        r += 1;
    }
    v.extend(dialog);
    Snapshot::new("Orders", "Orders — Admin", v)
}

fn render(c: &mut Criterion) {
    view::warm_up();
    let opts = ViewOptions::default();
    let mut group = c.benchmark_group("view_render");
    for size in [100, 1_000, 25_000] {
        let snapshot = page(size);
        assert_eq!(snapshot.elements.len(), size);
        group.bench_with_input(BenchmarkId::from_parameter(size), &snapshot, |b, s| {
            b.iter(|| black_box(view::render(black_box(s), &opts)))
        });
    }
    group.finish();

    let snapshot = page(25_000);
    let query = FindQuery {
        text: Some("customer 4999".into()),
        ..FindQuery::default()
    };
    c.bench_function("view_find/25000", |b| {
        b.iter(|| black_box(view::find(black_box(&snapshot), &query)))
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
