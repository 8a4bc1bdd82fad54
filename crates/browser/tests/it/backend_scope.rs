//! The default scope (`Scope::Auto`): every observation is the in-page scan; a page of up
//! to 1,000 elements is walked whole and reported as the whole page, a larger one near the
//! viewport with what it left out. Chromium's own tree (`Scope::Full`) is the referee.

use crate::common::{find, Fixture};
use arc_browser::backend::{BrowserOptions, Scope};
use arc_core::{ObservationScope, Snapshot};
use std::collections::BTreeSet;

fn with(scope: Scope) -> BrowserOptions {
    BrowserOptions {
        scope,
        ..BrowserOptions::default()
    }
}

/// (role, name) of every element a policy can act on.
fn controls(s: &Snapshot) -> BTreeSet<(String, String)> {
    s.elements
        .iter()
        .filter(|e| !e.actions.is_empty() && e.visible)
        .map(|e| (e.role.to_string(), e.name.clone()))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_small_tall_page_is_read_whole_with_no_left_out_elements() {
    let mut f = Fixture::open("scroll.html").await;
    let s = f.observe().await;
    assert_eq!(s.facts.scope, Some(ObservationScope::Full));
    assert_eq!(s.facts.left_out_elements, None);
    find(&s, "button", "Load more");
    find(&s, "button", "Item 50");
    // The page's own layout: the button is far outside what a viewport scan walks.
    let below = f
        .eval("document.getElementById('load-more').getBoundingClientRect().top / innerHeight")
        .await;
    assert!(below.as_f64().unwrap() > 2.0, "{below}");

    // The same page scanned near the viewport only: the button is left out, and said so.
    let mut v = Fixture::open_with("scroll.html", with(Scope::Viewport)).await;
    let s = v.observe().await;
    assert_eq!(s.facts.scope, Some(ObservationScope::Viewport));
    assert!(s.facts.left_out_elements.unwrap() > 0);
    assert!(!s.elements.iter().any(|e| e.name == "Load more"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_scan_offers_the_controls_chromiums_tree_offers() {
    for page in ["signup.html", "tabs.html", "form.html", "dropdown.html"] {
        let mut auto = Fixture::open(page).await;
        let scanned = auto.observe().await;
        assert_eq!(scanned.facts.scope, Some(ObservationScope::Full), "{page}");
        let mut full = Fixture::open_with(page, with(Scope::Full)).await;
        let chromium = full.observe().await;
        assert_eq!(controls(&scanned), controls(&chromium), "{page}");
        assert!(!controls(&scanned).is_empty(), "{page}");
    }
}
