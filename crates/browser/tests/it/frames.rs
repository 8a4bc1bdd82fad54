//! A frame of another site (its own renderer under site isolation: the page is served on
//! 127.0.0.1, the frame on localhost) and a closed shadow root are observed and acted on
//! like the rest of the page: their fields typed into and their buttons pressed with
//! trusted input, their ids stable across observations. Checked on the page's own record
//! (`fixtures/site/frames/checkout.html`).

use crate::common;

use arc_browser::backend::{BrowserOptions, Scope};
use arc_core::{Action, Element, Role, Snapshot, Subtask};
use common::{find, settled_true, Fixture};
use serde_json::json;

fn task() -> Subtask {
    Subtask::new("g", "v")
        .with_input("coupon", "SAVE10")
        .with_input("card", "GC-42")
}

fn named<'a>(s: &'a Snapshot, name: &str) -> &'a Element {
    s.elements
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no {name:?} in {:#?}", s.elements))
}

async fn opened(scope: Scope) -> Fixture {
    let options = BrowserOptions {
        scope,
        ..BrowserOptions::default()
    };
    let f = Fixture::open_with("frames/checkout.html", options).await;
    assert_eq!(
        settled_true(&f, "window.__ready").await,
        true,
        "the coupon frame loads"
    );
    // The frame lives in a renderer of its own: a target apart from the page.
    let targets = f.backend.browser().targets().await.unwrap();
    assert!(
        targets
            .iter()
            .any(|t| t.kind == "iframe" && t.url.contains("localhost")),
        "{targets:#?}"
    );
    f
}

/// The scan as it reads a small page (whole) and a large one (near the viewport).
const SCOPES: [Scope; 2] = [
    Scope::Auto {
        max_full_elements: 1_000,
    },
    Scope::Viewport,
];

#[tokio::test(flavor = "multi_thread")]
async fn a_cross_site_frame_and_a_closed_shadow_root_are_observed_where_they_are_drawn() {
    for scope in SCOPES {
        observed_where_drawn(scope).await;
    }
}

async fn observed_where_drawn(scope: Scope) {
    let mut f = opened(scope).await;
    let s = f.observe().await;
    // The page's own script cannot reach either: the frame is another origin, the root closed.
    assert_eq!(
        f.eval("document.getElementById('coupon').contentDocument === null && document.querySelector('gift-card').shadowRoot === null").await,
        true
    );
    let frame = s
        .elements
        .iter()
        .find(|e| e.role == Role::Iframe)
        .expect("the iframe");
    let fb = frame.bounds.expect("the frame's box");
    for name in ["Coupon code", "Apply coupon"] {
        let b = named(&s, name).bounds.expect("a box");
        assert!(
            b.x >= fb.x && b.y >= fb.y && b.x + b.width <= fb.x + fb.width,
            "{scope:?}: {name} is drawn inside the frame: {b:?} in {fb:?}"
        );
    }
    // The frame's contents hang under it, in the page's reading order.
    let order: Vec<&str> = s.elements.iter().map(|e| e.name.as_str()).collect();
    let at = |n: &str| order.iter().position(|o| *o == n).unwrap();
    assert!(at("Coupon code") > at("Coupon") && at("Coupon code") < at("Gift card number"));
    assert_eq!(named(&s, "Gift card number").role, Role::TextField);
    assert_eq!(named(&s, "Redeem gift card").role, Role::Button);
    // Only one element is focused: the page's document, not the frame's as well.
    let focused = s.elements.iter().filter(|e| e.focused).count();
    assert!(focused <= 1, "{:#?}", s.elements);
}

#[tokio::test(flavor = "multi_thread")]
async fn typing_and_pressing_inside_them_reach_the_page_with_trusted_input_and_ids_hold() {
    for scope in SCOPES {
        typed_and_pressed(scope).await;
    }
}

async fn typed_and_pressed(scope: Scope) {
    let mut f = opened(scope).await;
    let s = f.observe().await;
    let code = find(&s, "text_field", "Coupon code");
    let apply = find(&s, "button", "Apply coupon");
    let card = find(&s, "text_field", "Gift card number");
    let redeem = find(&s, "button", "Redeem gift card");
    f.act(&s, Action::type_text(code.clone(), "coupon"), &task())
        .await
        .unwrap();
    let s = f.observe().await;
    assert_eq!(find(&s, "text_field", "Coupon code"), code, "the id holds");
    assert_eq!(
        s.element(code.as_str())
            .unwrap()
            .value
            .as_ref()
            .map(|v| v.as_text().into_owned()),
        Some("SAVE10".to_owned())
    );
    f.act(&s, Action::click(apply.clone()), &task())
        .await
        .unwrap();
    let s = f.observe().await;
    f.act(&s, Action::type_text(card.clone(), "card"), &task())
        .await
        .unwrap();
    let s = f.observe().await;
    f.act(&s, Action::click(redeem.clone()), &task())
        .await
        .unwrap();
    assert_eq!(
        settled_true(&f, "window.__record.length === 2").await,
        true,
        "{}",
        f.eval("JSON.stringify(window.__record)").await
    );
    assert_eq!(
        f.eval("window.__record").await,
        json!([
            {"form": "coupon", "value": "SAVE10", "trusted": true},
            {"form": "gift card", "value": "GC-42", "trusted": true},
        ])
    );
    let s = f.observe().await;
    for (id, name) in [(&apply, "Apply coupon"), (&redeem, "Redeem gift card")] {
        assert_eq!(&find(&s, "button", name), id, "{name} keeps its id");
    }
    named(&s, "Coupon SAVE10 applied");
    named(&s, "Gift card GC-42 redeemed");
}
