//! The reflex policy against pages that try to walk it around the risk gate (issue 15,
//! item 4), end to end in real headless Chromium. The page's own record
//! (`window.__pressed`) says what was pressed, never the runtime's claim.

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::StaticServer;
use arc_core::{ExecutionResult, Executor, RuntimeConfig, Subtask, TerminalKind, Termination};
use arc_reflex::ReflexPolicy;
use serde_json::{json, Value};

const SITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/site");

async fn run(page: &str, subtask: Value) -> (ExecutionResult, BrowserBackend, StaticServer) {
    let subtask = Subtask::from_value(subtask).expect("a valid subtask");
    let server = StaticServer::start(SITE)
        .await
        .expect("serves fixtures/site");
    let backend = BrowserBackend::start(BrowserOptions::default(), &server.url(page))
        .await
        .expect("headless Chromium starts");
    let mut executor = Executor::new(backend, ReflexPolicy::new(), RuntimeConfig::default());
    let result = executor.run(&subtask).await;
    let (backend, _) = executor.into_parts();
    (result, backend, server)
}

async fn pressed(backend: &BrowserBackend) -> Value {
    backend
        .page()
        .evaluate("window.__pressed")
        .await
        .expect("evaluate")
}

#[tokio::test(flavor = "multi_thread")]
async fn click_subscribe_on_a_button_that_shows_delete_account_is_refused() {
    let (result, backend, _server) = run(
        "risk/masked.html",
        json!({"goal": "Click Subscribe", "verification": ["Subscribe has been clicked"]}),
    )
    .await;
    assert_eq!(result.status, TerminalKind::NeedsAgent, "{result:#?}");
    assert_eq!(result.termination, Termination::RiskRefused, "{result:#?}");
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or("")
            .contains("Delete account"),
        "{:?}",
        result.reason
    );
    assert_eq!(pressed(&backend).await, json!([]));
    backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_press_an_overlay_took_is_not_a_click_on_subscribe() {
    // The overlay "Not now" takes the release of the press: Subscribe was never clicked,
    // so the reflex must not answer that it was.
    let (result, backend, _server) = run(
        "risk/overlay.html?over=Not+now",
        json!({"goal": "Click Subscribe", "verification": ["Subscribe has been clicked"]}),
    )
    .await;
    let record = pressed(&backend).await;
    assert!(
        !record
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p == "click subscribe"),
        "{record}"
    );
    assert_ne!(result.status, TerminalKind::SubtaskComplete, "{result:#?}");
    assert!(result.history[0].landed_elsewhere.is_some(), "{result:#?}");
    backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_press_a_delete_overlay_took_ends_the_run_naming_it() {
    let (result, backend, _server) = run(
        "risk/overlay.html",
        json!({"goal": "Click Subscribe", "verification": ["Subscribe has been clicked"]}),
    )
    .await;
    assert_eq!(
        pressed(&backend).await,
        json!(["mousedown subscribe", "mouseup over"])
    );
    assert_eq!(result.status, TerminalKind::NeedsAgent, "{result:#?}");
    assert_eq!(result.termination, Termination::LandedElsewhere);
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or("")
            .contains(r#"landed on button#over "Delete account""#),
        "{:?}",
        result.reason
    );
    backend.close().await;
}
