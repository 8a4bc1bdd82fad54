//! A watched observation (`backend/watch.rs`): a quiet page's last answer is shown again
//! without asking the page, and never once the page changed itself — by a DOM edit (its
//! change notice), or by what fires no event (a value or a checkbox set by script, a CSSOM
//! rule: its re-check). Each change is made by a second DevTools client on a socket of its
//! own, so nothing crosses ours, and each is checked against the page's own state. A change
//! through another session on our own socket ends the hold at once.

use crate::common::{observe_uncounted, observe_until_counted, site_root, Fixture, PortChromium};
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{Element, Role, Snapshot};
use std::time::Duration;

/// Observes until one observation is answered without asking the page.
async fn watched(f: &mut Fixture) -> Snapshot {
    observe_until_counted(
        f,
        BrowserBackend::unasked_observations,
        Duration::from_millis(10),
    )
    .await
}

/// The next observation, which must ask the page (not show the watched answer).
async fn asked(f: &mut Fixture) -> Snapshot {
    let why = "the page changed, yet its last answer was shown again unasked";
    observe_uncounted(f, BrowserBackend::unasked_observations, why).await
}

fn named<'a>(s: &'a Snapshot, role: Role, name: &str) -> Option<&'a Element> {
    s.elements.iter().find(|e| e.role == role && e.name == name)
}

fn value_of(s: &Snapshot, name: &str) -> String {
    let field = named(s, Role::TextField, name).expect("the field");
    field
        .value
        .as_ref()
        .map(|v| v.as_text().into_owned())
        .unwrap_or_default()
}

/// A page driven by our backend over a DevTools websocket, and a second client of the
/// same Chromium on a socket of its own: what it does crosses none of our traffic, as a
/// user's or another tool's change would not.
struct TwoClients {
    f: Fixture,
    other: arc_browser::PageSession,
    _chromium: PortChromium,
}

async fn two_clients(page: &str) -> TwoClients {
    let chromium = PortChromium::start();
    let server = arc_browser::StaticServer::start(site_root())
        .await
        .expect("static server");
    let options = BrowserOptions {
        cdp_endpoint: Some(chromium.ws_url.clone()),
        ..BrowserOptions::default()
    };
    let backend = BrowserBackend::start(options, &server.url(page))
        .await
        .expect("browser backend");
    let target = backend.page().target_id().clone();
    let other = arc_browser::Browser::connect(&chromium.ws_url)
        .await
        .expect("a second socket")
        .attach(target)
        .await
        .expect("a session on the page");
    TwoClients {
        f: Fixture { server, backend },
        other,
        _chromium: chromium,
    }
}

/// The watched answer, then `change` made by the other client, then a pause of a few
/// re-checks (16 ms each) for the page to notice it.
async fn changed_by_another(t: &mut TwoClients, change: &str) -> Snapshot {
    t.f.observe().await;
    let before = watched(&mut t.f).await;
    t.other.evaluate(change).await.expect("the change");
    tokio::time::sleep(Duration::from_millis(80)).await;
    before
}

#[tokio::test(flavor = "multi_thread")]
async fn a_quiet_page_is_shown_again_unasked_with_the_same_elements() {
    let mut f = Fixture::open("form.html").await;
    let first = f.observe().await;
    let again = watched(&mut f).await;
    assert_eq!(again.revision, first.revision);
    let ids = |s: &Snapshot| s.elements.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&again), ids(&first));
    assert!(named(&again, Role::Button, "Submit").is_some());
    // The notice lives in our world only: the page's own scripts cannot see or call it.
    assert_eq!(f.eval("typeof window.arcCuaChanged").await, "undefined");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dom_edit_by_another_client_is_seen() {
    let mut t = two_clients("form.html").await;
    let before = changed_by_another(
        &mut t,
        "document.querySelector('h1').firstChild.data = 'Write to us'",
    )
    .await;
    assert!(named(&before, Role::Heading, "Contact us").is_some());
    let s = asked(&mut t.f).await;
    assert!(named(&s, Role::Heading, "Write to us").is_some());
    assert_eq!(
        t.f.eval("document.querySelector('h1').textContent").await,
        "Write to us"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_value_set_by_script_without_events_is_seen_after_one_re_check() {
    let mut t = two_clients("form.html").await;
    let before = changed_by_another(&mut t, "document.getElementById('first').value = 'Ada'").await;
    assert_eq!(value_of(&before, "First name"), "");
    let s = asked(&mut t.f).await;
    assert_eq!(value_of(&s, "First name"), "Ada");
    assert_eq!(
        t.f.eval("document.getElementById('first').value").await,
        "Ada"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_box_checked_by_script_and_a_cssom_rule_are_seen_after_one_re_check() {
    let mut t = two_clients("events.html").await;
    let before = changed_by_another(&mut t, "document.getElementById('chk').checked = true").await;
    assert_eq!(
        named(&before, Role::CheckBox, "Check me").unwrap().selected,
        Some(false)
    );
    let s = asked(&mut t.f).await;
    assert_eq!(
        named(&s, Role::CheckBox, "Check me").unwrap().selected,
        Some(true)
    );
    assert_eq!(
        t.f.eval("document.getElementById('chk').checked").await,
        true
    );

    let mut t = two_clients("form.html").await;
    let before = changed_by_another(
        &mut t,
        "document.styleSheets[0].insertRule('#submit-btn { display: none }', 0)",
    )
    .await;
    assert!(named(&before, Role::Button, "Submit").is_some());
    let s = asked(&mut t.f).await;
    assert!(named(&s, Role::Button, "Submit").is_none());
    let display =
        t.f.eval("getComputedStyle(document.getElementById('submit-btn')).display")
            .await;
    assert_eq!(display, "none");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_change_through_another_session_on_our_socket_is_seen_at_once() {
    let mut f = Fixture::open("form.html").await;
    let page = f.backend.page();
    let other = arc_browser::Browser::from_connection(page.connection().clone())
        .attach(page.target_id().clone())
        .await
        .expect("a second session on the page");
    f.observe().await;
    watched(&mut f).await;
    // No pause: a value set by script fires nothing, yet the command crossed our socket.
    other
        .evaluate("document.getElementById('first').value = 'Ada'")
        .await
        .expect("the change");
    let s = asked(&mut f).await;
    assert_eq!(value_of(&s, "First name"), "Ada");
    assert_eq!(
        f.eval("document.getElementById('first').value").await,
        "Ada"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_action_of_ours_ends_the_watch() {
    let mut f = Fixture::open("events.html").await;
    let s = watched(&mut f).await;
    let id = crate::common::find(&s, "checkbox", "Check me");
    let subtask = arc_core::Subtask::new("Tick the box", "It is ticked");
    f.act(&s, arc_core::Action::click(id), &subtask)
        .await
        .expect("the click");
    let s = asked(&mut f).await;
    assert_eq!(f.eval("document.getElementById('chk').checked").await, true);
    assert_eq!(
        named(&s, Role::CheckBox, "Check me").unwrap().selected,
        Some(true)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_running_animation_is_never_watched() {
    let mut f = Fixture::open("form.html").await;
    f.eval(
        "document.getElementById('submit-btn').animate(\
         [{ transform: 'translateX(0px)' }, { transform: 'translateX(200px)' }], { duration: 1e6 })",
    )
    .await;
    for _ in 0..5 {
        asked(&mut f).await;
    }
    assert!(
        f.backend.reused_observations() > 0,
        "answered `same` meanwhile"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dead_browser_is_never_answered_for() {
    use arc_core::Backend;
    let mut f = Fixture::open("form.html").await;
    f.observe().await;
    watched(&mut f).await;
    let pgid = f.backend.chromium().expect("launched").pid();
    // SAFETY: kill(2) on the process group of our own launch.
    unsafe { libc::kill(-(pgid as libc::pid_t), libc::SIGKILL) };
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while f.backend.lost().is_none() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(f.backend.lost().is_some(), "the socket's end was noticed");
    let observed = f.backend.observe().await;
    assert!(
        observed.is_err(),
        "a dead browser's last answer was shown again"
    );
}
