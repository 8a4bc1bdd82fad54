//! The scan's fast path: an unchanged page answers "same" and the last scan's elements are
//! shown again, but never after the page changed. Each test first proves the fast path is
//! armed (an observation was reused), then changes the page one way and checks the next
//! observation against the page's own state.

use crate::common::{find, observe_uncounted, observe_until_counted, Fixture};
use arc_browser::backend::BrowserBackend;
use arc_browser::cdp::methods::emulation::SetDeviceMetricsOverride;
use arc_browser::cdp::methods::input::InsertText;
use arc_core::{Element, Role, Snapshot};
use std::time::Duration;

/// Observes until one observation is answered from the last scan (the page was quiet).
async fn armed(f: &mut Fixture) -> Snapshot {
    observe_until_counted(
        f,
        BrowserBackend::reused_observations,
        Duration::from_millis(50),
    )
    .await
}

/// The next observation, which must be a fresh scan (not the reused one).
async fn fresh(f: &mut Fixture) -> Snapshot {
    let why = "the page changed, yet the last scan was shown again";
    observe_uncounted(f, BrowserBackend::reused_observations, why).await
}

fn named<'a>(s: &'a Snapshot, role: Role, name: &str) -> Option<&'a Element> {
    s.elements.iter().find(|e| e.role == role && e.name == name)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unchanged_page_is_answered_from_the_last_scan_with_the_same_elements() {
    let mut f = Fixture::open("form.html").await;
    let first = f.observe().await;
    let again = armed(&mut f).await;
    assert_eq!(again.revision, first.revision);
    let ids = |s: &Snapshot| s.elements.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&again), ids(&first));
    find(&again, "button", "Submit");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dom_mutation_an_attribute_and_a_text_edit_are_seen() {
    let mut f = Fixture::open("form.html").await;
    armed(&mut f).await;
    f.eval("const b = document.createElement('button'); b.textContent = 'Added later'; document.querySelector('main').append(b)").await;
    let s = fresh(&mut f).await;
    let page = f
        .eval("document.querySelector('main > button').textContent")
        .await;
    assert_eq!(page, "Added later");
    find(&s, "button", "Added later");

    armed(&mut f).await;
    f.eval("document.getElementById('submit-btn').disabled = true")
        .await;
    let s = fresh(&mut f).await;
    assert_eq!(
        f.eval("document.getElementById('submit-btn').disabled")
            .await,
        true
    );
    assert!(!named(&s, Role::Button, "Submit").unwrap().enabled);

    armed(&mut f).await;
    f.eval("document.querySelector('h1').firstChild.data = 'Write to us'")
        .await;
    let s = fresh(&mut f).await;
    assert_eq!(
        f.eval("document.querySelector('h1').textContent").await,
        "Write to us"
    );
    assert!(named(&s, Role::Heading, "Write to us").is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn typed_text_and_a_value_set_by_script_without_events_are_seen() {
    let mut f = Fixture::open("form.html").await;
    armed(&mut f).await;
    f.eval("document.getElementById('last').focus()").await;
    f.backend
        .page()
        .call(InsertText {
            text: "Lovelace".into(),
        })
        .await
        .unwrap();
    let s = fresh(&mut f).await;
    let typed = f.eval("document.getElementById('last').value").await;
    assert_eq!(typed, "Lovelace");
    let last = named(&s, Role::TextField, "Last name").unwrap();
    assert_eq!(
        last.value.as_ref().map(|v| v.as_text().into_owned()),
        Some("Lovelace".to_owned())
    );

    armed(&mut f).await;
    // A property set by script: no mutation record, no event.
    f.eval("document.getElementById('first').value = 'Ada'")
        .await;
    let s = fresh(&mut f).await;
    assert_eq!(
        f.eval("document.getElementById('first').value").await,
        "Ada"
    );
    let first = named(&s, Role::TextField, "First name").unwrap();
    assert_eq!(
        first.value.as_ref().map(|v| v.as_text().into_owned()),
        Some("Ada".to_owned())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_box_checked_by_script_and_a_focus_move_are_seen() {
    let mut f = Fixture::open("events.html").await;
    armed(&mut f).await;
    f.eval("document.getElementById('chk').checked = true")
        .await;
    let s = fresh(&mut f).await;
    assert_eq!(f.eval("document.getElementById('chk').checked").await, true);
    let chk = named(&s, Role::CheckBox, "Check me").unwrap();
    assert_eq!(chk.selected, Some(true));

    armed(&mut f).await;
    f.eval("document.getElementById('btn').focus()").await;
    let s = fresh(&mut f).await;
    assert_eq!(f.eval("document.activeElement.id").await, "btn");
    assert!(named(&s, Role::Button, "Click me").unwrap().focused);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_scroll_and_a_resize_are_seen_before_their_events_fire() {
    let mut f = Fixture::open("events.html").await;
    armed(&mut f).await;
    // One evaluate: the observation follows before the scroll event's frame.
    f.eval("window.scrollTo(0, 300)").await;
    let s = fresh(&mut f).await;
    let top = f
        .eval("document.querySelector('h1').getBoundingClientRect().top")
        .await;
    let heading = named(&s, Role::Heading, "Event oracle").unwrap();
    let y = heading.bounds.unwrap().y;
    assert!(
        (y - top.as_f64().unwrap()).abs() < 1.0,
        "{y} vs the page's {top}"
    );
    assert!(y < -200.0, "{y}");

    armed(&mut f).await;
    f.backend
        .page()
        .call(SetDeviceMetricsOverride::desktop(520, 400))
        .await
        .unwrap();
    let s = fresh(&mut f).await;
    let width = f.eval("innerWidth").await;
    assert_eq!(width, 520);
    assert_eq!(s.viewport.unwrap().width, 520.0);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_element_a_css_transition_reveals_is_seen_once_revealed() {
    let mut f = Fixture::open("form.html").await;
    f.eval(
        "const st = document.createElement('style'); \
         st.textContent = '#late { visibility: hidden } #late.on { visibility: visible; transition: visibility 0s 300ms }'; \
         document.head.append(st); \
         const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Revealed'; \
         document.querySelector('main').append(b)",
    )
    .await;
    armed(&mut f).await;
    f.eval("document.getElementById('late').classList.add('on')")
        .await;
    // Observed while the transition waits out its delay: still hidden.
    let s = f.observe().await;
    assert!(named(&s, Role::Button, "Revealed").is_none());
    // Observed again during the transition, then after it: no scan taken while it ran
    // may be shown once it has ended.
    f.observe().await;
    tokio::time::sleep(Duration::from_millis(450)).await;
    let shown = f
        .eval("getComputedStyle(document.getElementById('late')).visibility")
        .await;
    assert_eq!(shown, "visible");
    let s = f.observe().await;
    find(&s, "button", "Revealed");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_style_rule_added_through_the_cssom_is_seen() {
    let mut f = Fixture::open("form.html").await;
    armed(&mut f).await;
    f.eval("document.styleSheets[0].insertRule('#submit-btn { display: none }', 0)")
        .await;
    let s = fresh(&mut f).await;
    let display = f
        .eval("getComputedStyle(document.getElementById('submit-btn')).display")
        .await;
    assert_eq!(display, "none");
    assert!(named(&s, Role::Button, "Submit").is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_navigation_and_a_history_push_are_seen() {
    let mut f = Fixture::open("form.html").await;
    armed(&mut f).await;
    f.eval("history.pushState({}, '', '?step=2')").await;
    let s = fresh(&mut f).await;
    let href = f.eval("location.href").await;
    assert_eq!(s.url(), href.as_str());
    assert!(s.url().unwrap().ends_with("?step=2"));

    armed(&mut f).await;
    let url = f.server.url("signup.html");
    f.backend.goto(&url).await.unwrap();
    let s = fresh(&mut f).await;
    let title = f.eval("document.title").await;
    assert_eq!(s.title(), title.as_str().unwrap());
    assert_eq!(s.url(), Some(url.as_str()));
}

/// A button under a running Web Animation the test steers (`currentTime`): 1,000 s long,
/// so it stays where the test put it while the observations run.
async fn steered(f: &mut Fixture, keyframes: &str) {
    f.eval(&format!(
        "const b = document.createElement('button'); b.id = 'steered'; b.textContent = 'Steered'; \
         b.style.width = '100px'; document.querySelector('main').append(b); \
         window.__steer = b.animate({keyframes}, {{ duration: 1e6 }}); \
         window.__steer.playState"
    ))
    .await;
}

async fn page_box(f: &mut Fixture) -> (f64, f64) {
    let x = f
        .eval("document.getElementById('steered').getBoundingClientRect().left")
        .await;
    let w = f
        .eval("document.getElementById('steered').getBoundingClientRect().width")
        .await;
    (x.as_f64().unwrap(), w.as_f64().unwrap())
}

fn shown_box(s: &Snapshot) -> (f64, f64) {
    let b = named(s, Role::Button, "Steered").unwrap().bounds.unwrap();
    (b.x, b.width)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_animation_that_only_moves_a_box_is_followed_without_a_scan() {
    let mut f = Fixture::open("form.html").await;
    steered(
        &mut f,
        "[{ transform: 'translateX(0px)' }, { transform: 'translateX(200px)' }]",
    )
    .await;
    assert_eq!(f.eval("__steer.playState").await, "running");
    let before = shown_box(&armed(&mut f).await);
    f.eval("__steer.currentTime = 5e5").await;
    // Half way: drawn 100 px to the right, no event, no mutation. Shown from the last scan
    // with the box the page itself now reports.
    let s = armed(&mut f).await;
    let (page_x, _) = page_box(&mut f).await;
    let (shown_x, _) = shown_box(&s);
    assert!(
        (page_x - before.0 - 100.0).abs() < 1.0,
        "the page moved it to {page_x}"
    );
    assert!(
        (shown_x - page_x).abs() < 1.0,
        "shown at x={shown_x}, the page draws it at x={page_x}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_animation_of_layout_is_never_answered_from_the_last_scan() {
    let mut f = Fixture::open("form.html").await;
    steered(&mut f, "[{ width: '100px' }, { width: '300px' }]").await;
    assert_eq!(f.eval("__steer.playState").await, "running");
    f.observe().await;
    for _ in 0..3 {
        fresh(&mut f).await;
    }
    f.eval("__steer.currentTime = 5e5").await;
    let s = fresh(&mut f).await;
    let (_, page_w) = page_box(&mut f).await;
    assert!(
        (page_w - 200.0).abs() < 1.0,
        "the page made it {page_w} wide"
    );
    let (_, shown_w) = shown_box(&s);
    assert!((shown_w - page_w).abs() < 1.0, "shown {shown_w} wide");
}
