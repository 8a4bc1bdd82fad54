//! Effect-aware settling while the page animates, on real headless Chromium: once the
//! click's effect holds, another element's per-frame slide does not hold settling for its
//! whole duration; a slide or CSS transition that moves the clicked control itself does.
//! Each verdict is read from the page's own record (`window.__anim`), not the runtime's.

use crate::common::{find, Fixture};
use arc_core::settle::settle_for;
use arc_core::{
    Action, Backend, ExecutableAction, ExpectedEffect, SettleConfig, SettleEnd, Subtask,
};
use std::time::{Duration, Instant};

/// Clicks the button named `name`, settles as the loop does: (end, elapsed).
async fn click_and_settle(f: &mut Fixture, name: &str) -> (SettleEnd, Duration) {
    let s = f.observe().await;
    let target = find(&s, "button", name);
    let action = Action::click(target);
    let exec = ExecutableAction::materialize(&action, &s, &Subtask::new("g", "v")).unwrap();
    let effect = ExpectedEffect::of(&exec, &s);
    assert!(
        matches!(effect, ExpectedEffect::Expanded { expanded: true, .. }),
        "{effect:?}"
    );
    let before = f.backend.settle_probe().await.unwrap();
    f.backend.execute(&s, &exec).await.unwrap();
    let started = Instant::now();
    let cfg = SettleConfig::default();
    let report = settle_for(
        &mut f.backend,
        before,
        &effect,
        &cfg,
        cfg.cap,
        std::future::pending(),
    )
    .await
    .unwrap();
    (report.end, started.elapsed())
}

/// The page's record of animation `name`: (started, ended).
async fn anim(f: &Fixture, name: &str) -> (bool, bool) {
    let v = f.eval(&format!("window.__anim['{name}'] || null")).await;
    (v.is_object(), v.get("end").is_some_and(|e| e.is_number()))
}

#[tokio::test(flavor = "multi_thread")]
async fn another_elements_slide_does_not_hold_settling_once_the_effect_holds() {
    let mut f = Fixture::open("animate.html").await;
    let (end, took) = click_and_settle(&mut f, "Details").await;
    assert_eq!(end, SettleEnd::Effect);
    // The page's own record: the 1500 ms slide is still running when settling ends.
    assert_eq!(anim(&f, "details").await, (true, false));
    assert!(took < Duration::from_millis(1000), "{took:?}");
    assert_eq!(
        f.eval("document.getElementById('details').getAttribute('aria-expanded')")
            .await,
        "true"
    );
    // What the next observation reads: the panel opening is shown already.
    let s = f.observe().await;
    assert!(
        s.elements.iter().any(|e| e.name.contains("Details text")),
        "{:?}",
        s.elements.iter().map(|e| &e.name).collect::<Vec<_>>()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_slide_that_moves_the_clicked_control_is_waited_for() {
    let mut f = Fixture::open("animate.html").await;
    let (end, _) = click_and_settle(&mut f, "Move").await;
    assert_eq!(end, SettleEnd::Effect);
    assert_eq!(anim(&f, "move").await, (true, true));
    assert_eq!(
        f.eval("document.getElementById('move-box').style.left")
            .await,
        "120px"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_css_transition_that_moves_the_clicked_control_is_waited_for() {
    let mut f = Fixture::open("animate.html").await;
    let (end, took) = click_and_settle(&mut f, "Glide").await;
    assert_eq!(end, SettleEnd::Effect);
    assert_eq!(anim(&f, "glide").await, (true, true));
    assert!(took >= Duration::from_millis(450), "{took:?}");
}
