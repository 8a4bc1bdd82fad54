//! Pictures on their way (`world.js` `pictureOf`, `observe.rs` `await_pictures`): an icon
//! drawn by CSS `content: url()` with no size of its own has an empty box until its picture
//! arrives. An observation made meanwhile waits for it (once, bounded) and shows the
//! icon; one that never arrives costs that wait once per document. The pictures come
//! from a loopback server that sends them late; the page's own layout confirms each.

use crate::common::Fixture;
use crate::server::{picture, ModelServer};
use arc_core::Snapshot;
use std::time::{Duration, Instant};

/// `late-icon.html` with its pictures sent `late` by a server of the test's own.
async fn late_icons(late: Duration) -> (Fixture, ModelServer) {
    let pictures = ModelServer::with(move |_, _| picture().after(late)).await;
    let page = format!("late-icon.html?pic={}", pictures.base_url());
    (Fixture::open(&page).await, pictures)
}

/// One observation and how long it took.
async fn timed_observe(f: &mut Fixture) -> (Snapshot, Duration) {
    let started = Instant::now();
    let s = f.observe().await;
    (s, started.elapsed())
}

fn icon<'a>(s: &'a Snapshot, name: &str) -> Option<&'a arc_core::Element> {
    s.elements.iter().find(|e| e.name == name)
}

async fn width_on_page(f: &Fixture, class: &str) -> f64 {
    f.eval(&format!(
        "document.querySelector('.{class}').getBoundingClientRect().width"
    ))
    .await
    .as_f64()
    .expect("a width")
}

#[tokio::test(flavor = "multi_thread")]
async fn an_icon_whose_picture_arrives_late_is_observed_once_it_has() {
    let (mut f, _pictures) = late_icons(Duration::from_millis(300)).await;
    let s = f.observe().await;
    let like = icon(&s, "like").unwrap_or_else(|| {
        panic!(
            "no `like` icon observed: {:?}",
            s.elements.iter().map(|e| &e.name).collect::<Vec<_>>()
        )
    });
    assert!(like.bounds.is_some_and(|b| b.width > 0.0), "{like:?}");
    assert!(icon(&s, "share").is_some(), "the second picture too");
    assert!(width_on_page(&f, "like").await > 0.0, "the page drew it");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_picture_that_never_arrives_is_waited_for_once() {
    let (mut f, _pictures) = late_icons(Duration::from_secs(20)).await;
    let (s, first) = timed_observe(&mut f).await;
    // The wait is 500 ms; the bound leaves room for a busy machine.
    assert!(
        first < Duration::from_secs(3),
        "the first observation took {first:?}"
    );
    assert!(icon(&s, "like").is_none(), "nothing to show yet");
    assert_eq!(
        width_on_page(&f, "like").await,
        0.0,
        "the page has no picture"
    );
    let (s, second) = timed_observe(&mut f).await;
    assert!(
        second < Duration::from_millis(450),
        "the second observation waited again: {second:?}"
    );
    assert!(
        s.elements.iter().any(|e| e.name == "@ann"),
        "the post is shown"
    );
}
