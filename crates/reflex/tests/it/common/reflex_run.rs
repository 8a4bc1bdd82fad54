//! The reflex run end to end in real headless Chromium on a fixture page or a page given
//! as HTML, the page kept open for its own record: shared by arc-reflex's browser tests
//! and arc-policy's (`judge`, `local_model_runs`, where it is `reflex_browser`).

// Shared by two test binaries: each uses part of it.
#![allow(dead_code)]

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::StaticServer;
use arc_core::{ExecutionResult, Executor, Policy, RuntimeConfig, Subtask, TerminalKind};
use arc_reflex::ReflexPolicy;
use serde_json::Value;

const SITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/site");

/// A finished run and the page it ran on, kept open for the page's own record.
pub(crate) struct Ran {
    pub(crate) result: ExecutionResult,
    backend: BrowserBackend,
    _server: StaticServer,
    /// The directory a page given as HTML is served from (`run_html`).
    _dir: Option<tempfile::TempDir>,
}

impl Ran {
    pub(crate) async fn eval(&self, expression: &str) -> Value {
        self.backend
            .page()
            .evaluate(expression)
            .await
            .expect("evaluate")
    }

    /// The page's own record: the text of its `#record` element.
    pub(crate) async fn record(&self) -> String {
        let v = self
            .eval("document.getElementById('record').textContent")
            .await;
        v.as_str().unwrap_or_default().to_owned()
    }

    /// The next subtask on the same page, as the last one left it.
    pub(crate) async fn then(self, subtask: Value) -> Ran {
        let subtask = Subtask::from_value(subtask).expect("a valid subtask");
        let mut executor =
            Executor::new(self.backend, ReflexPolicy::new(), RuntimeConfig::default());
        let result = executor.run(&subtask).await;
        let (backend, _) = executor.into_parts();
        Ran {
            result,
            backend,
            ..self
        }
    }

    pub(crate) fn actions(&self) -> Vec<String> {
        self.result
            .history
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r.action.kind(),
                    r.target_name.as_deref().unwrap_or("")
                )
                .trim()
                .to_owned()
            })
            .collect()
    }
}

pub(crate) async fn run(page: &str, subtask: Value) -> Ran {
    let server = StaticServer::start(SITE)
        .await
        .expect("serves fixtures/site");
    run_served(server, page, subtask, None, ReflexPolicy::new()).await
}

/// The reflex on a page given as HTML (served from a temporary directory).
pub(crate) async fn run_html(html: &str, subtask: Value) -> Ran {
    run_html_with(html, subtask, ReflexPolicy::new()).await
}

/// `policy` on a page given as HTML.
pub(crate) async fn run_html_with(html: &str, subtask: Value, policy: impl Policy) -> Ran {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join("page.html"), html).expect("writes the page");
    let server = StaticServer::start(dir.path()).await.expect("serves");
    run_served(server, "page.html", subtask, Some(dir), policy).await
}

async fn run_served(
    server: StaticServer,
    page: &str,
    subtask: Value,
    dir: Option<tempfile::TempDir>,
    policy: impl Policy,
) -> Ran {
    let subtask = Subtask::from_value(subtask).expect("a valid subtask");
    let backend = BrowserBackend::start(BrowserOptions::default(), &server.url(page))
        .await
        .expect("headless Chromium starts");
    let mut executor = Executor::new(backend, policy, RuntimeConfig::default());
    let result = executor.run(&subtask).await;
    let (backend, _) = executor.into_parts();
    Ran {
        result,
        backend,
        _server: server,
        _dir: dir,
    }
}

/// The page's own record, with what the run did and said when it differs.
pub(crate) async fn assert_record(ran: &Ran, want: &str) {
    assert_eq!(
        ran.record().await,
        want,
        "{:?}\nactions: {:?}",
        ran.result.reason,
        ran.actions()
    );
}

pub(crate) fn assert_complete(ran: &Ran) {
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}\nactions: {:?}",
        ran.result.reason,
        ran.actions()
    );
}
