//! The viewport scan against real headless Chromium: what it keeps (the modal dialog, the
//! focused element, rows near the viewport), what it leaves out (hidden and far rows), that
//! it agrees with the accessibility path on the controls, and that its keys are stable.

use crate::common;

use arc_browser::backend::prune::Pruner;
use arc_browser::backend::raw::{NodeHandle, RawNode};
use arc_browser::backend::scan::{reread_guard, scan, ScanOptions, ScanResult};
use arc_browser::backend::world::Worlds;
use arc_browser::cdp::methods::page::GetFrameTree;
use arc_browser::cdp::{FrameId, LoaderId};
use arc_core::{Element, ElementId, Role};
use common::Fixture;

/// A fixture page with its own worlds, as the backend would hold them.
struct Scanner {
    f: Fixture,
    worlds: Worlds,
    frame: FrameId,
    loader: LoaderId,
}

impl Scanner {
    async fn open(page: &str) -> Scanner {
        let f = Fixture::open(page).await;
        let tree = f.backend.page().call(GetFrameTree {}).await.unwrap();
        Scanner {
            f,
            worlds: Worlds::default(),
            frame: tree.frame_tree.frame.id,
            loader: tree.frame_tree.frame.loader_id,
        }
    }

    async fn scan(&mut self) -> ScanResult {
        scan(
            self.f.backend.page(),
            &mut self.worlds,
            &self.frame,
            &self.loader,
            &ScanOptions::default(),
        )
        .await
        .expect("scan")
    }

    async fn reread(&mut self, node: &RawNode) -> Option<arc_core::Guard> {
        let handle = node.handle.as_ref().unwrap();
        reread_guard(
            self.f.backend.page(),
            &mut self.worlds,
            handle,
            &self.loader,
        )
        .await
        .expect("re-read")
    }
}

/// The scan's tree pruned into elements, ids naming the scan keys.
fn elements(r: &ScanResult) -> Vec<Element> {
    Pruner::new(&r.tree, |h| match h {
        NodeHandle::Scan { key, .. } => ElementId(format!("k{key}")),
        NodeHandle::Backend { node, .. } => ElementId(format!("b{}", node.0)),
    })
    .run()
}

fn node<'a>(r: &'a ScanResult, role: Role, name: &str) -> &'a RawNode {
    r.tree
        .nodes
        .iter()
        .find(|n| n.role == role && n.name == name)
        .unwrap_or_else(|| {
            let have: Vec<String> = r
                .tree
                .nodes
                .iter()
                .filter(|n| !n.name.is_empty())
                .map(|n| format!("{} {:?}", n.role, n.name))
                .collect();
            panic!("no {role} {name:?} in {have:#?}")
        })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_table_page_scan_keeps_the_dialog_and_only_rows_near_the_viewport() {
    let mut s = Scanner::open("table.html").await;
    let r = s.scan().await;
    let dialog = node(&r, Role::Dialog, "Confirm export");
    assert!(dialog.bounds.is_some());
    node(&r, Role::Button, "Export");
    node(&r, Role::Button, "Cancel");
    let include = node(&r, Role::CheckBox, "Include headers");
    assert_eq!(include.states.selected, Some(true));

    let rows: Vec<&RawNode> = r
        .tree
        .nodes
        .iter()
        .filter(|n| n.role == Role::Row)
        .collect();
    assert!(
        !rows.is_empty() && rows.len() < 200,
        "{} rows scanned",
        rows.len()
    );
    assert!(r.elements > 25_000, "{} elements", r.elements);
    assert!(r.left_out > 24_000, "{} left out", r.left_out);
    assert!(!r.truncated);
    // Half a viewport of margin above and below, and a row's height of slack.
    let h = r.viewport.height;
    for row in rows {
        let b = row.bounds.expect("rows have boxes");
        assert!(
            b.y + b.height >= -0.5 * h - 40.0 && b.y <= 1.5 * h + 40.0,
            "row at {b:?} outside the scanned band (viewport height {h})"
        );
    }
    assert!(r.json_bytes < 200_000, "{} bytes of JSON", r.json_bytes);

    // Scrolled to the middle: the rows there (found without walking the rows above), and
    // the dialog still.
    s.f.eval("document.querySelectorAll('tbody tr')[2500].scrollIntoView({ block: 'center' })")
        .await;
    let r = s.scan().await;
    node(&r, Role::Button, "Export");
    let ids: Vec<u32> = r
        .tree
        .nodes
        .iter()
        .filter(|n| n.role == Role::Cell)
        .filter_map(|n| n.name.parse().ok())
        .collect();
    assert!(ids.contains(&2501), "row 2501 is scanned: {ids:?}");
    assert!(
        ids.iter().all(|&i| (2400..2600).contains(&i)),
        "only rows near it: {ids:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn signup_controls_match_the_accessibility_path() {
    let mut s = Scanner::open("signup.html").await;
    let ax = s.f.observe().await;
    let r = s.scan().await;
    let scanned = elements(&r);
    for (role, name) in [
        ("text_field", "Email"),
        ("combobox", "Plan"),
        ("checkbox", "I accept the terms"),
        ("button", "Sign up"),
    ] {
        let role = Role::parse(role);
        let pick = |els: &[Element]| {
            els.iter()
                .find(|e| e.role == role && e.name == name)
                .cloned()
                .unwrap_or_else(|| panic!("no {role} {name:?} in {els:#?}"))
        };
        let (a, b) = (pick(&ax.elements), pick(&scanned));
        assert_eq!(a.actions, b.actions, "{role} {name:?}: actions");
        assert_eq!(a.value, b.value, "{role} {name:?}: value");
        assert_eq!(a.selected, b.selected, "{role} {name:?}: selected");
        assert_eq!(a.enabled, b.enabled, "{role} {name:?}: enabled");
        assert!(b.visible, "{role} {name:?}: visible");
        assert_eq!(a.facts, b.facts, "{role} {name:?}: facts");
        let (ab, bb) = (a.bounds.unwrap(), b.bounds.unwrap());
        assert!(
            (ab.x - bb.x).abs() < 1.0 && (ab.y - bb.y).abs() < 1.0,
            "{role} {name:?}: {ab:?} vs {bb:?}"
        );
    }
    assert_eq!(scanned[0].name, "Create your account", "the title");
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_are_stable_and_resolve_and_guards_follow_changes() {
    let mut s = Scanner::open("signup.html").await;
    let first = s.scan().await;
    let second = s.scan().await;
    let button = node(&first, Role::Button, "Sign up");
    assert_eq!(
        button.handle,
        node(&second, Role::Button, "Sign up").handle,
        "same key on the next scan"
    );
    let terms = node(&first, Role::CheckBox, "I accept the terms").clone();
    assert_eq!(s.reread(button).await.as_ref(), Some(&button.guard));
    assert_eq!(s.reread(&terms).await.as_ref(), Some(&terms.guard));
    let title = &first.tree.nodes[0];
    assert_eq!(s.reread(title).await.as_ref(), Some(&title.guard));

    // byKey resolves the node itself.
    let NodeHandle::Scan { key, .. } = button.handle.clone().unwrap() else {
        panic!("a scan handle")
    };
    let id = s
        .worlds
        .eval::<String>(
            s.f.backend.page(),
            &s.frame,
            &s.loader,
            &format!("__arc.byKey({key}).id"),
        )
        .await
        .unwrap();
    assert_eq!(id, "submit");

    s.f.eval("document.getElementById('terms').click()").await;
    let changed = s.reread(&terms).await.expect("still there");
    assert_ne!(changed, terms.guard, "ticking the box changes its guard");
    assert_eq!(
        Some(&changed),
        Some(&node(&s.scan().await, Role::CheckBox, "I accept the terms").guard),
        "the re-read agrees with a new scan"
    );
    s.f.eval("document.getElementById('submit').remove()").await;
    assert_eq!(
        s.reread(button).await,
        None,
        "a removed node re-reads as gone"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn passwords_stay_in_the_page_and_an_offscreen_focus_is_kept() {
    let mut s = Scanner::open("signup.html").await;
    s.f.eval(
        "(() => { const p = document.createElement('input'); p.type = 'password'; \
         p.id = 'pw'; p.value = 'hunter2'; document.body.prepend(p); \
         const spacer = document.createElement('div'); spacer.style.height = '5000px'; \
         document.body.append(spacer); const far = document.createElement('input'); \
         far.id = 'far'; far.setAttribute('aria-label', 'Far field'); \
         document.body.append(far); far.focus({ preventScroll: true }); })()",
    )
    .await;
    let r = s.scan().await;
    let pw = r
        .tree
        .nodes
        .iter()
        .find(|n| n.facts.dom_id.as_deref() == Some("pw"))
        .expect("the password field");
    assert_eq!(pw.role, Role::PasswordField);
    assert_eq!(pw.value.as_deref(), Some("••••"));
    assert!(
        r.tree
            .nodes
            .iter()
            .all(|n| !n.name.contains("hunter2") && n.value.as_deref() != Some("hunter2")),
        "the password never leaves the page"
    );
    let far = node(&r, Role::TextField, "Far field");
    assert!(far.states.focused);
    assert!(far.bounds.unwrap().y > 4000.0, "{:?}", far.bounds);
}

#[tokio::test(flavor = "multi_thread")]
async fn hidden_elements_are_left_out() {
    let mut s = Scanner::open("hidden.html").await;
    let r = s.scan().await;
    let visible: Vec<String> = elements(&r)
        .iter()
        .filter(|e| e.visible && !e.actions.is_empty())
        .map(|e| e.name.clone())
        .collect();
    assert_eq!(visible, vec!["Visible action"]);
    for gone in ["Hidden action", "Invisible", "Aria hidden"] {
        assert!(
            r.tree.nodes.iter().all(|n| n.name != gone),
            "{gone} must not appear"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_inner_frame_button_is_found_in_top_viewport_coordinates() {
    let mut s = Scanner::open("iframe.html").await;
    // The frame loads after the outer page's load event may have fired.
    common::settled_true(
        &s.f,
        "document.querySelector('iframe').contentDocument?.readyState === 'complete'",
    )
    .await;
    let r = s.scan().await;
    let frame = r
        .tree
        .nodes
        .iter()
        .find(|n| n.role == Role::Iframe)
        .expect("the iframe");
    let fb = frame.bounds.unwrap();
    let inner = node(&r, Role::Button, "Inner button");
    let b = inner.bounds.unwrap();
    assert!(
        b.x > fb.x && b.y > fb.y && b.x + b.width < fb.x + fb.width && b.y < fb.y + fb.height,
        "inner button {b:?} lies inside the iframe {fb:?} in top coordinates"
    );
    node(&r, Role::TextField, "Inner field");
    node(&r, Role::Button, "Outer button");
    // Its key resolves in the scanned frame's world, and re-reads.
    assert_eq!(s.reread(inner).await.as_ref(), Some(&inner.guard));
    // The page's own numbers: the button's box plus the frame's origin.
    let expected = s
        .f
        .eval(
            "(() => { const f = document.querySelector('iframe'); const o = f.getBoundingClientRect(); \
             const b = f.contentDocument.getElementById('inner-button').getBoundingClientRect(); \
             return [o.left + f.clientLeft + b.left, o.top + f.clientTop + b.top]; })()",
        )
        .await;
    let (ex, ey) = (expected[0].as_f64().unwrap(), expected[1].as_f64().unwrap());
    assert!(
        (ex - b.x).abs() < 0.2 && (ey - b.y).abs() < 0.2,
        "{b:?} vs ({ex}, {ey})"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_scanned_node_re_reads_to_its_own_guard() {
    for page in [
        "signup.html",
        "iframe.html",
        "table.html",
        "dropdown.html",
        "form.html",
    ] {
        let mut s = Scanner::open(page).await;
        if page == "iframe.html" {
            common::settled_true(
                &s.f,
                "document.querySelector('iframe').contentDocument?.readyState === 'complete'",
            )
            .await;
        }
        let r = s.scan().await;
        for n in r.tree.nodes.iter().take(150) {
            assert_eq!(
                s.reread(n).await.as_ref(),
                Some(&n.guard),
                "{page}: {} {:?} = {:?}",
                n.role,
                n.name,
                n.value
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_page_watches_a_quiet_scan_but_never_one_with_a_canvas() {
    let mut s = Scanner::open("form.html").await;
    assert!(s.scan().await.watched, "a quiet page watches its scan");
    s.f.eval("document.querySelector('main').append(document.createElement('canvas'))")
        .await;
    // A canvas's text is the backend's OCR, which no notice covers.
    assert!(!s.scan().await.watched);
}
