//! The reflex on pages it was never tuned to (`fixtures/generalize/`, one task per generic
//! capability), in headless Chromium: each page records what was pressed, and the run must
//! agree with it — SUBTASK_COMPLETE exactly when the page's record shows the goal done.

use crate::common::run_reflex_dir;
use arc_eval::result::Agreement;

#[tokio::test(flavor = "multi_thread")]
async fn the_reflex_agrees_with_pages_it_was_never_tuned_to() {
    let (run, shown) = run_reflex_dir("generalize").await;
    for t in &run.tasks {
        assert_eq!(t.agreement(), Agreement::AgreedSuccess, "{}\n{shown}", t.id);
    }
}
