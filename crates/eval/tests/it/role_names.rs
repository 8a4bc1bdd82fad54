//! One in-page role/name engine (arc-browser's `ARIA_JS`) for the backend's viewport scan
//! and the assertion engine, in real headless Chromium on `names.html`: elements the two
//! old engines named differently. Chromium's own accessibility tree (the full read) is
//! the independent referee: the scan, the full read and a role locator all agree.

use crate::common::expect;

use arc_browser::backend::{BrowserBackend, BrowserOptions, Scope};
use arc_browser::StaticServer;
use arc_core::{Backend, Element, ObservationScope, Role, Snapshot};
use arc_eval::{suite, Assertion};
use serde_json::json;

/// (DOM id, role, name) as a person using a screen reader meets them; the comment says
/// what one of the old engines made of it.
const CASES: &[(&str, &str, &str)] = &[
    ("upload", "button", "Upload receipt"),   // page.js: textbox
    ("city", "combobox", "City"),             // page.js: textbox (the list attribute)
    ("send", "button", "Submit"),             // page.js: no name
    ("email", "textbox", "Email address"),    // page.js: "Email (private) address"
    ("price", "spinbutton", "Unit price"),    // both: nameless (the reference's aria-label)
    ("close", "button", "Close dialog"),      // aria-label, whitespace collapsed
    ("two-line", "button", "Add item"),       // page.js: "Additem"
    ("home", "link", "Home"),                 // page.js: nameless (the image's alt)
    ("fallback", "button", "Bold"),           // both: role "toggle"
    ("focusable-none", "button", "Keep me"),  // both: generic (role="none")
    ("row-mon", "rowheader", "Monday"),       // page.js: columnheader
    ("shipping", "group", "Shipping"),        // page.js: nameless (the legend)
    ("hours", "table", "Opening hours"),      // page.js: nameless (the caption)
    ("logo", "img", "Company logo"),          // page.js: generic
    ("labelled-btn", "button", "Label text"), // world.js: "Go now" (the value)
    ("go-img", "button", "Search now"),       // page.js: nameless (the alt)
    ("agree", "checkbox", "Agree title"),     // page.js: nameless (empty content won)
    ("titled", "button", "Titled"),           // page.js: nameless (empty content won)
    ("note", "textbox", "Note"),              // title before placeholder
    ("search", "textbox", "Search the site"), // the placeholder last
    ("status", "status", "Saved 3 files"),    // its only text (the snapshot's prune)
];

async fn snapshot(server: &StaticServer, scope: Scope) -> (BrowserBackend, Snapshot) {
    let options = BrowserOptions {
        scope,
        ..BrowserOptions::default()
    };
    let mut backend = BrowserBackend::start(options, &server.url("names.html"))
        .await
        .expect("headless Chromium starts");
    let snap = backend.observe().await.expect("observe");
    (backend, snap)
}

fn by_dom_id<'a>(snap: &'a Snapshot, id: &str) -> &'a Element {
    snap.elements
        .iter()
        .find(|e| e.facts.dom_id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no element #{id} in the snapshot"))
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test(flavor = "multi_thread")]
async fn the_scan_the_full_read_and_role_locators_name_every_element_alike() {
    let server = StaticServer::start(suite::fixture_site_dir())
        .await
        .expect("serves fixtures/site");
    let (full, chromium) = snapshot(&server, Scope::Full).await;
    full.close().await;
    let (scanner, scanned) = snapshot(&server, Scope::Viewport).await;
    assert_eq!(
        scanned.facts.scope,
        Some(ObservationScope::Viewport),
        "the scan's own engine named these"
    );
    for &(id, role, name) in CASES {
        let want = (Role::parse(role), name.to_owned());
        for (source, snap) in [("Chromium's tree", &chromium), ("the scan", &scanned)] {
            let e = by_dom_id(snap, id);
            assert_eq!((e.role.clone(), squash(&e.name)), want, "#{id} in {source}");
        }
        // The assertion engine finds exactly that element by the same role and name.
        let attached: Assertion = serde_json::from_value(json!({"type": "element_state",
            "target": {"role": role, "name": name}, "state": "attached"}))
        .unwrap();
        let o = arc_eval::assert::page::check(scanner.page(), &attached, None).await;
        expect(&o, true);
        assert!(
            o.message.contains(&format!("#{id}>")) && !o.message.contains("matches"),
            "#{id}: the one match must be #{id}: {}",
            o.message
        );
    }
    scanner.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_name_the_snapshot_does_not_show_is_not_found() {
    let server = StaticServer::start(suite::fixture_site_dir())
        .await
        .expect("serves fixtures/site");
    let (backend, snap) = snapshot(&server, Scope::Viewport).await;
    // A list item holding a link is nameless (its text is not its name), in the view too.
    assert_eq!(by_dom_id(&snap, "item").name, "");
    for (role, name) in [
        ("listitem", "Docs and more"),
        ("textbox", "Email (private) address"),
        ("button", "Additem"),
        ("button", "Go now"),
        ("columnheader", "Monday"),
    ] {
        let a: Assertion = serde_json::from_value(json!({"type": "element_state",
            "target": {"role": role, "name": name}, "state": "attached"}))
        .unwrap();
        let o = arc_eval::assert::page::check(backend.page(), &a, None).await;
        expect(&o, false);
        assert!(o.message.contains("no element matches"), "{}", o.message);
    }
    backend.close().await;
}

/// A second engine must not grow back: outside `aria.js`, no in-page script reads the
/// attributes or tables that decide a role or a name.
#[test]
fn no_script_but_aria_js_computes_roles_or_names() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let scripts = [
        crates.join("browser/src/backend/js/world.js"),
        crates.join("eval/src/assert/page.js"),
    ];
    let markers = [
        "aria-labelledby",
        "'aria-label'",
        "getAttribute('role')",
        ".labels",
        "'rowheader'",
        "FROM_CONTENT",
        "IMPLICIT",
    ];
    for path in &scripts {
        let source = std::fs::read_to_string(path).expect("the script exists");
        for m in markers {
            assert!(
                !source.contains(m),
                "{} has {m:?}: roles and names belong in arc-browser's js/aria.js",
                path.display()
            );
        }
    }
    let engine = std::fs::read_to_string(crates.join("browser/src/backend/js/aria.js")).unwrap();
    for m in ["aria-labelledby", "getAttribute('role')", ".labels"] {
        assert!(
            engine.contains(m),
            "aria.js lost {m:?}: the scan above proves the rest"
        );
    }
    assert_eq!(
        arc_browser::ARIA_JS,
        engine,
        "the exported engine is aria.js"
    );
}
