//! A launched browser is driven over `--remote-debugging-pipe`: no TCP port for another
//! local user to reach, no `DevToolsActivePort` file — checked from the process's own
//! fd table and /proc/net, not from the runtime — while observe and act still work.
//! Attaching over `ws://` to a browser started with a port keeps working.

use crate::common;

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{Action, Backend, Subtask};
use common::{find, listening_sockets_of_group, Fixture, PortChromium};
use std::time::Duration;

fn task() -> Subtask {
    Subtask::new("Exercise the event page", "Every event arrives").with_input("text", "hello")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_launched_browser_has_no_devtools_port_and_still_round_trips() {
    let mut f = Fixture::open("events.html").await;
    let chromium = f.backend.chromium().expect("the backend launched Chromium");
    let (pgid, profile) = (chromium.pid(), chromium.user_data_dir().to_path_buf());

    // A full observe → act round trip over the pipe, checked in the page's own record.
    let s = f.observe().await;
    f.act(&s, Action::click(find(&s, "button", "Click me")), &task())
        .await
        .unwrap();
    let events = f.events().await;
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "click" && e["target"] == "btn" && e["isTrusted"] == true),
        "{events:?}"
    );

    // No process of the launch holds a listening TCP socket …
    let procs = common::launch_processes(pgid, "");
    assert!(procs.len() >= 3, "browser and helpers expected: {procs:#?}");
    let listening = listening_sockets_of_group(pgid);
    assert!(listening.is_empty(), "listening sockets: {listening:?}");
    // … none was even asked for, and no file announces one.
    for p in &procs {
        assert!(
            !p.cmdline.contains("--remote-debugging-port"),
            "{}",
            p.cmdline
        );
    }
    let browser = procs.iter().find(|p| p.pid == pgid).expect("browser");
    assert!(browser.cmdline.contains("--remote-debugging-pipe"));
    assert!(
        !profile.join("DevToolsActivePort").exists(),
        "{} announces a port",
        profile.display()
    );
}

/// The check above can fail: a browser started with a port is seen listening.
#[tokio::test(flavor = "multi_thread")]
async fn the_port_check_sees_a_browser_started_with_a_port() {
    let chromium = PortChromium::start();
    let listening = listening_sockets_of_group(chromium.pid());
    assert!(!listening.is_empty(), "no listening socket found");
    assert!(chromium.profile.path().join("DevToolsActivePort").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn attach_over_ws_still_observes_and_acts() {
    let server = common::fixture_server().await;
    let chromium = PortChromium::start();
    let options = BrowserOptions {
        cdp_endpoint: Some(chromium.ws_url.clone()),
        ..Default::default()
    };
    let mut backend = BrowserBackend::start(options, &server.url("confirm.html"))
        .await
        .unwrap();
    assert!(backend.chromium().is_none());
    assert!(backend.page().connection().url().starts_with("ws://"));
    let s = backend.observe().await.unwrap();
    let exec = arc_core::ExecutableAction::materialize(
        &Action::click(find(&s, "button", "Delete item")),
        &s,
        &task(),
    )
    .unwrap();
    backend.execute(&s, &exec).await.unwrap();
    // confirm() is open: the snapshot is the dialog; OK answers it.
    let d = tokio::time::timeout(Duration::from_secs(5), backend.observe())
        .await
        .unwrap()
        .unwrap();
    let ok = find(&d, "button", "OK");
    let exec = arc_core::ExecutableAction::materialize(&Action::click(ok), &d, &task()).unwrap();
    backend.execute(&d, &exec).await.unwrap();
    let status = backend
        .page()
        .evaluate("document.getElementById('status').textContent")
        .await
        .unwrap();
    assert_eq!(status, "Deleted");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reply_over_the_message_limit_fails_its_call_and_the_pipe_keeps_working() {
    use arc_browser::cdp::methods::runtime;
    use arc_browser::cdp::ConnectionOptions;
    use arc_browser::{CdpError, Chromium, LaunchOptions};
    let limit = 64 * 1024;
    let chromium = Chromium::launch(LaunchOptions {
        connection: ConnectionOptions {
            max_message_size: limit,
            ..Default::default()
        },
        ..Default::default()
    })
    .await
    .unwrap();
    let browser = chromium.connect().await.unwrap();
    let page = browser.new_page("about:blank").await.unwrap();
    let started = std::time::Instant::now();
    let err = page
        .call(runtime::Evaluate::by_value("'x'.repeat(1 << 20)"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, CdpError::TooLarge { method, limit: l } if method == "Runtime.evaluate" && *l == limit),
        "{err:?}"
    );
    assert!(err.to_string().contains(&limit.to_string()), "{err}");
    // Not the 30 s call timeout: the skipped reply failed its call (slack for load).
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    // The stream resynchronized at the next message: later calls are answered.
    let n = page.evaluate("'x'.repeat(1000).length").await.unwrap();
    assert_eq!(n, 1000);
}
