//! Shared by the integration tests: a page of the fixture site in real headless Chromium.

#![allow(dead_code)]

use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::{PageSession, StaticServer};
use arc_eval::{suite, Assertion, AssertionOutcome};
use serde_json::Value;

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
