//! The reflex on pages it was never tuned to (`fixtures/generalize/`, one task per generic
//! capability), in headless Chromium: each page records what was pressed, and the run must
//! agree with it — SUBTASK_COMPLETE exactly when the page's record shows the goal done.

use arc_eval::result::Agreement;
use arc_eval::{run_suite, suite, Mode, RunOptions};
use std::path::Path;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn the_reflex_agrees_with_pages_it_was_never_tuned_to() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/generalize");
    let tasks = suite::load_dir(&dir).unwrap();
    let opts = RunOptions {
        task_timeout: Duration::from_secs(20),
        ..RunOptions::new(Mode::Reflex)
    };
    let run = run_suite(&tasks, &opts).await.unwrap();
    let shown: String = run
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
    for t in &run.tasks {
        assert_eq!(t.agreement(), Agreement::AgreedSuccess, "{}\n{shown}", t.id);
    }
}
