//! One task on a built-in simulated app: no browser; the assertions are checked on an
//! observation the harness makes itself after the run.

use super::drive::drive;
use super::score::Measured;
use super::stack::Stack;
use crate::assert::{self, AssertionOutcome, Fingerprint};
use crate::result::Mode;
use crate::task::{SimApp, Task};
use arc_core::{Backend, RuntimeConfig, Subtask};

pub(super) async fn measure(
    app: SimApp,
    task: &Task,
    mode: Mode,
    subtask: &Subtask,
    config: RuntimeConfig,
) -> Measured {
    let mut backend = match app {
        SimApp::Signup => arc_sim::SignupApp::backend(),
    };
    let before: Option<Fingerprint> = backend
        .observe()
        .await
        .ok()
        .map(|s| assert::sim::fingerprint(&s));
    let mut driven = drive(backend, Stack::new(mode), subtask, config, None).await;
    let assertions = match driven.backend.observe().await {
        Ok(now) => assert::sim::check_all(&now, &task.assertions, before.as_ref()),
        Err(e) => task
            .assertions
            .iter()
            .map(|a| AssertionOutcome::fail(a, format!("could not observe the app: {e}")))
            .collect(),
    };
    Measured::from_driven(&driven, assertions, None)
}
