//! An `alert()` while the page loads blocks its load event: navigation returns with the
//! dialog as the page's state instead of waiting out its timeout, observe shows the
//! dialog and its OK button, and answering it lets the page finish loading — by the
//! page's own record.

use crate::common;

use arc_core::{Action, Backend, Subtask};
use common::{find, settled_true, Fixture};
use std::time::{Duration, Instant};

fn task() -> Subtask {
    Subtask::new("Dismiss the alert", "The page shows Loaded")
}

async fn accept_and_check_the_page_loads(f: &mut Fixture) {
    let started = Instant::now();
    let s = f.observe().await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "observe took {:?}",
        started.elapsed()
    );
    find(&s, "dialog", "alert: Welcome back");
    let ok = find(&s, "button", "OK");
    f.act(&s, Action::click(ok), &task()).await.unwrap();
    // The page's own record: its load handler ran, the document is complete.
    assert_eq!(
        settled_true(
            f,
            "window.__loaded === true && document.readyState === 'complete'"
        )
        .await,
        true
    );
    assert_eq!(
        f.eval("document.getElementById('status').textContent")
            .await,
        "Loaded"
    );
    let after = f.observe().await;
    find(&after, "status", "Loaded");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_alert_during_the_first_load_is_the_first_snapshot() {
    let started = Instant::now();
    // Launch + first navigation: blocked loads used to end only in the 30 s timeout.
    let mut f = Fixture::open("alert-on-load.html").await;
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "start took {:?}",
        started.elapsed()
    );
    accept_and_check_the_page_loads(&mut f).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_navigation_into_an_alert_returns_promptly() {
    let mut f = Fixture::open("events.html").await;
    let url = f.server.url("alert-on-load.html");
    let started = Instant::now();
    f.backend.goto(&url).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "navigation took {:?}",
        started.elapsed()
    );
    accept_and_check_the_page_loads(&mut f).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_navigate_action_into_an_alert_is_observed_as_the_dialog() {
    let mut f = Fixture::open("events.html").await;
    let url = f.server.url("alert-on-load.html");
    let s = f.observe().await;
    let subtask = task().with_input("url", url.as_str());
    let started = Instant::now();
    f.act(
        &s,
        Action::Navigate {
            input_key: "url".into(),
        },
        &subtask,
    )
    .await
    .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "NAVIGATE took {:?}",
        started.elapsed()
    );
    let _ = f.backend.settle_probe().await.unwrap();
    accept_and_check_the_page_loads(&mut f).await;
}
