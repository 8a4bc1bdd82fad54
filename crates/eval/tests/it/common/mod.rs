//! Shared by the integration tests: a page of the fixture site in real headless Chromium.

#![allow(dead_code)]

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::{PageSession, StaticServer};
use arc_eval::{run_suite, suite, Assertion, AssertionOutcome, Mode, RunOptions, SuiteResult};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// A fixture page open in its own Chromium.
pub struct Page {
    pub backend: BrowserBackend,
    _server: StaticServer,
}

impl Page {
    pub async fn open(path: &str) -> Page {
        let server = StaticServer::start(suite::fixture_site_dir())
            .await
            .expect("serves fixtures/site");
        let backend = BrowserBackend::start(BrowserOptions::default(), &server.url(path))
            .await
            .expect("headless Chromium starts");
        Page {
            backend,
            _server: server,
        }
    }

    pub fn session(&self) -> &PageSession {
        self.backend.page()
    }

    pub async fn eval(&self, js: &str) -> Value {
        self.session().evaluate(js).await.expect("evaluate")
    }

    /// Checks one assertion written as task JSON.
    pub async fn check(&self, assertion: Value) -> AssertionOutcome {
        let a: Assertion = serde_json::from_value(assertion).expect("a valid assertion");
        arc_eval::assert::page::check(self.session(), &a, None).await
    }
}

/// Asserts the outcome's verdict, showing its message either way.
#[track_caller]
pub fn expect(outcome: &AssertionOutcome, pass: bool) {
    assert_eq!(
        outcome.passed(),
        pass,
        "{} → {:?}: {}",
        outcome.assertion,
        outcome.verdict,
        outcome.message
    );
}

/// Runs the task files of `fixtures/<dir>` with the reflex (20 s a task), plus one line per
/// task (id, status, agreement, reason or error, assertion messages) for failure messages.
pub async fn run_reflex_dir(dir: &str) -> (SuiteResult, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(dir);
    let tasks = suite::load_dir(&dir).unwrap();
    let opts = RunOptions {
        task_timeout: Duration::from_secs(20),
        ..RunOptions::new(Mode::Reflex)
    };
    let run = run_suite(&tasks, &opts).await.unwrap();
    let shown = run
        .tasks
        .iter()
        .map(|t| {
            format!(
                "{} {:?} {:?} {:?} {:?}\n",
                t.id,
                t.status,
                t.agreement(),
                t.reason.as_deref().or(t.error.as_deref()),
                t.assertions.iter().map(|a| &a.message).collect::<Vec<_>>()
            )
        })
        .collect();
    (run, shown)
}
