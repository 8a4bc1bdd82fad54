//! One task in a fresh headless Chromium: fingerprint, run, assertions in the page.

use super::drive::drive;
use super::score::Measured;
use super::shots::{self, Shots};
use super::stack::Stack;
use super::RunOptions;
use crate::assert::{self, Assertion, AssertionOutcome};
use crate::task::Task;
use arc_browser::backend::BrowserBackend;
use arc_browser::PageSession;
use arc_core::{RuntimeConfig, Subtask};

pub(super) async fn measure(
    url: &str,
    task: &Task,
    subtask: &Subtask,
    config: RuntimeConfig,
    opts: &RunOptions,
) -> Result<Measured, String> {
    let backend = BrowserBackend::start(opts.browser.clone(), url)
        .await
        .map_err(|e| format!("cannot open {url} in Chromium: {e}"))?;
    let before = assert::page::fingerprint(backend.page()).await;
    let start_screenshot = if opts.screenshots {
        shots::capture(backend.page(), None).await
    } else {
        None
    };
    let shots = Shots::new(backend, opts.screenshots);
    let latest = shots.latest();
    let driven = drive(
        shots,
        Stack::for_run(opts.mode, opts.model.as_ref()),
        subtask,
        config,
        latest,
    )
    .await;
    let page = driven.backend.browser().page();
    let assertions = match &before {
        Ok(fp) => assert::page::check_all(page, &task.assertions, Some(fp)).await,
        Err(why) => without_fingerprint(task, page, why).await,
    };
    // Dropping the backend kills Chromium's process group at once and removes its
    // profile; a graceful close waits for the browser to exit, which adds up per task.
    Ok(Measured::from_driven(&driven, assertions, start_screenshot))
}

/// Without a fingerprint, `state_changed` cannot be judged; the rest still can.
async fn without_fingerprint(task: &Task, page: &PageSession, why: &str) -> Vec<AssertionOutcome> {
    let mut out = assert::page::check_all(page, &task.assertions, None).await;
    for o in &mut out {
        if matches!(o.assertion, Assertion::StateChanged { .. }) {
            o.message = format!("no fingerprint before the run: {why}");
        }
    }
    out
}
