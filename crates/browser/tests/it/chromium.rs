//! Launch, connect, navigate, evaluate and the error paths, against real headless Chromium.

use crate::common;

use std::time::{Duration, Instant};

use arc_browser::cdp::methods::{dom, page, runtime};
use arc_browser::cdp::{BackendNodeId, Method, SessionFilter};
use arc_browser::{Browser, BrowserError, CdpError, Chromium, LaunchOptions};
use serde::Serialize;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_connect_navigate_and_read_the_title() {
    let server = common::fixture_server().await;
    let (chromium, browser) = common::launch().await;
    // A launched browser is driven over its pipe, never a port.
    assert_eq!(browser.connection().url(), "pipe");
    assert!(chromium.pid() > 0);

    let version = browser.version().await.unwrap();
    assert!(version.product.contains("Chrome"), "{version:?}");

    let page = browser.new_page(&server.url("signup.html")).await.unwrap();
    let title = page.evaluate("document.title").await.unwrap();
    assert_eq!(title, "Create your account");
    // The script from /common/oracle.js was served too (absolute path, right type).
    let oracle: bool = page
        .evaluate_as("Array.isArray(window.__submitted)")
        .await
        .unwrap();
    assert!(oracle);

    let pages = browser.pages().await.unwrap();
    let me = pages
        .iter()
        .find(|t| &t.target_id == page.target_id())
        .expect("the new page is listed");
    assert_eq!(me.url, server.url("signup.html"));
    assert_eq!(me.title, "Create your account");

    // A second navigation waits for the new document's load, not the old one's.
    page.navigate(&server.url("confirm.html")).await.unwrap();
    assert_eq!(page.evaluate("document.title").await.unwrap(), "Dialogs");
    assert_eq!(
        page.evaluate("document.readyState").await.unwrap(),
        "complete"
    );
    chromium.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_errors_name_the_method() {
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page("about:blank").await.unwrap();
    let err = page
        .call(dom::GetBoxModel {
            node: BackendNodeId(987_654_321).into(),
        })
        .await
        .unwrap_err();
    match &err {
        CdpError::Protocol {
            method,
            code,
            message,
            ..
        } => {
            assert_eq!(method, "DOM.getBoxModel");
            assert_eq!(*code, -32000);
            assert!(!message.is_empty());
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
    assert!(err.to_string().contains("DOM.getBoxModel"), "{err}");
    assert_eq!(err.method(), Some("DOM.getBoxModel"));

    // A JavaScript exception is not a protocol error: it carries the message.
    let err = page.evaluate("null.boom").await.unwrap_err();
    match err {
        BrowserError::JavaScript { text, .. } => assert!(text.contains("TypeError"), "{text}"),
        other => panic!("expected a JavaScript error, got {other:?}"),
    }
}

/// A typed method Chromium does not have.
#[derive(Serialize)]
struct Nonexistent {}
impl Method for Nonexistent {
    const NAME: &'static str = "Nope.doesNotExist";
    type Returns = arc_browser::cdp::Empty;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nonexistent_method_fails_fast() {
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page("about:blank").await.unwrap();

    let started = Instant::now();
    let err = page.call(Nonexistent {}).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    match &err {
        CdpError::Protocol { method, code, .. } => {
            assert_eq!(method, "Nope.doesNotExist");
            assert_eq!(*code, -32601, "{err}");
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }

    // Browser-level and untyped calls take the same path.
    let started = Instant::now();
    let err = browser
        .connection()
        .call_raw(None, "Nope.rawMissing", serde_json::json!({}))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(err.to_string().contains("Nope.rawMissing"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_never_answers_times_out_with_its_name() {
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page("about:blank").await.unwrap();
    let started = Instant::now();
    let err = page
        .call_with_timeout(
            runtime::Evaluate::by_value("new Promise(() => {})"),
            Duration::from_millis(300),
        )
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    match err {
        CdpError::Timeout { method, timeout } => {
            assert_eq!(method, "Runtime.evaluate");
            assert_eq!(timeout, Duration::from_millis(300));
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    // The connection is still usable afterwards.
    assert_eq!(page.evaluate("6 * 7").await.unwrap(), 42);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_socket_fails_pending_calls_at_once() {
    let (chromium, browser) = common::launch().await;
    let page = browser.new_page("about:blank").await.unwrap();
    let mut events = browser.connection().subscribe(SessionFilter::All);

    // A call that would wait the full 30 s default timeout.
    let pending = {
        let page = page.clone();
        tokio::spawn(async move {
            page.call(runtime::Evaluate::by_value("new Promise(() => {})"))
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    drop(chromium); // SIGKILL: the socket dies under the pending call.

    let result = tokio::time::timeout(Duration::from_secs(5), pending)
        .await
        .expect("the pending call ends promptly")
        .unwrap();
    match result {
        Err(CdpError::Closed { method }) => assert_eq!(method, "Runtime.evaluate"),
        other => panic!("expected Closed, got {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));

    tokio::time::timeout(Duration::from_secs(1), browser.connection().closed())
        .await
        .expect("closed() resolves");
    assert!(browser.connection().is_closed());
    // New calls fail immediately; subscriptions have ended.
    let err = page.evaluate("1").await.unwrap_err();
    assert!(
        matches!(err, BrowserError::Cdp(CdpError::Closed { .. })),
        "{err}"
    );
    while events.recv().await.is_some() {}
    assert!(browser
        .connection()
        .subscribe(SessionFilter::All)
        .recv()
        .await
        .is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connects_through_an_http_endpoint() {
    // A browser the user started with a port (a launched one has none).
    let chromium = common::PortChromium::start();
    // ws://127.0.0.1:PORT/devtools/browser/ID -> http://127.0.0.1:PORT
    let authority = chromium
        .ws_url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let browser = Browser::connect(&format!("http://{authority}"))
        .await
        .unwrap();
    assert!(browser.version().await.unwrap().product.contains("Chrome"));
    let same = Browser::connect(&chromium.ws_url).await.unwrap();
    assert!(!same.targets().await.unwrap().is_empty());

    let err = Browser::connect("http://127.0.0.1:1").await.unwrap_err();
    assert!(err.to_string().contains("127.0.0.1:1"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigation_failures_are_reported() {
    let (_chromium, browser) = common::launch().await;
    let page = browser.new_page("about:blank").await.unwrap();
    // A loopback port nobody listens on (bound, then freed): connection refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dead = format!("http://127.0.0.1:{port}/");
    let err = page.navigate(&dead).await.unwrap_err();
    match err {
        BrowserError::Navigation { url, error_text } => {
            assert_eq!(url, dead);
            assert!(
                error_text.contains("ERR_CONNECTION_REFUSED"),
                "{error_text}"
            );
        }
        other => panic!("expected a navigation error, got {other:?}"),
    }
    // A failed new_page does not leave its tab behind.
    let before = browser.pages().await.unwrap().len();
    assert!(browser.new_page(&dead).await.is_err());
    assert_eq!(browser.pages().await.unwrap().len(), before);

    // Same-document navigation returns without waiting for a load.
    let server = common::fixture_server().await;
    page.navigate(&server.url("signup.html")).await.unwrap();
    let nav = page
        .navigate(&server.url("signup.html#plan"))
        .await
        .unwrap();
    assert!(nav.loader_id.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_executable_is_named() {
    let err = Chromium::launch(LaunchOptions {
        executable: Some("/nonexistent/chromium-xyz".into()),
        ..Default::default()
    })
    .await
    .unwrap_err();
    assert!(matches!(err, BrowserError::Spawn { .. }), "{err:?}");
    assert!(
        err.to_string().contains("/nonexistent/chromium-xyz"),
        "{err}"
    );

    // A binary that exits without a DevTools line: the error carries its stderr.
    let err = Chromium::launch(LaunchOptions {
        executable: Some("/bin/sh".into()),
        extra_args: vec!["-c".into(), "echo broken-browser >&2".into()],
        ..Default::default()
    })
    .await;
    // `sh` treats the Chromium flags as its own arguments and fails; either way it
    // must exit with an error naming the path, never hang.
    let err = err.unwrap_err();
    assert!(err.to_string().contains("/bin/sh"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_level_typed_calls_reach_the_session() {
    let server = common::fixture_server().await;
    let (_chromium, browser) = common::launch().await;
    let a = browser.new_page(&server.url("signup.html")).await.unwrap();
    let b = browser.new_page(&server.url("confirm.html")).await.unwrap();
    // Each session talks to its own page.
    let ta = a.call(page::GetFrameTree {}).await.unwrap();
    let tb = b.call(page::GetFrameTree {}).await.unwrap();
    assert!(ta.frame_tree.frame.url.ends_with("signup.html"));
    assert!(tb.frame_tree.frame.url.ends_with("confirm.html"));
    assert_eq!(ta.frame_tree.frame.id.as_str(), a.target_id().as_str());
    b.close().await.unwrap();
    let pages = browser.pages().await.unwrap();
    assert!(pages.iter().all(|p| !p.url.ends_with("confirm.html")));
}
