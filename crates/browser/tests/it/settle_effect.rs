//! Effect-aware settling on real headless Chromium: a checkbox's tick ends settling once it
//! is checked and the page is quiet, but a request the page starts in reaction keeps
//! settling going until its answer is on the page.

use crate::common::{find, Fixture};
use arc_core::settle::settle_for;
use arc_core::{
    Action, Backend, ExecutableAction, ExpectedEffect, SettleConfig, SettleEnd, Subtask,
};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A loopback server that answers every request after `delay` with `body` (CORS open).
async fn slow_server(delay: Duration, body: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf).await;
                tokio::time::sleep(delay).await;
                let reply = format!(
                    "HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/verify")
}

/// Ticks the checkbox named `name` and settles as the loop does: (end, elapsed).
async fn tick_and_settle(f: &mut Fixture, name: &str) -> (SettleEnd, Duration) {
    let s = f.observe().await;
    let target = find(&s, "checkbox", name);
    let action = Action::click(target);
    let exec = ExecutableAction::materialize(&action, &s, &Subtask::new("g", "v")).unwrap();
    let effect = ExpectedEffect::of(&exec, &s);
    assert!(
        matches!(effect, ExpectedEffect::Checked { checked: true, .. }),
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

#[tokio::test(flavor = "multi_thread")]
async fn a_late_answer_to_a_request_is_still_waited_for() {
    let check = slow_server(Duration::from_millis(300), "Address verified").await;
    let page = format!("late.html?check={check}");
    let mut f = Fixture::open(&page).await;
    let (end, took) = tick_and_settle(&mut f, "Subscribe").await;
    assert_eq!(end, SettleEnd::Effect);
    assert!(took >= Duration::from_millis(300), "{took:?}");
    // The page's own record: the answer is there when settling ends, so the next
    // observation shows it.
    let verdict = f
        .eval("document.getElementById('verdict').textContent")
        .await;
    assert_eq!(verdict, "Address verified");
    assert_eq!(
        f.eval("document.getElementById('subscribe').checked").await,
        true
    );
    let s = f.observe().await;
    find(&s, "status", "Address verified");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tick_with_nothing_in_flight_ends_on_its_effect() {
    let check = slow_server(Duration::from_millis(300), "unused").await;
    let page = format!("late.html?check={check}");
    let mut f = Fixture::open(&page).await;
    let (end, took) = tick_and_settle(&mut f, "Remember me").await;
    assert_eq!(end, SettleEnd::Effect);
    assert_eq!(
        f.eval("document.getElementById('remember').checked").await,
        true
    );
    // Without the effect the same tick waits out the 600 ms reaction window (a checked
    // box mutates no DOM); 2 s is the settling cap.
    assert!(took < Duration::from_millis(600), "{took:?}");
}
