//! The two ways the runtime once said done for work it had not done, each on a page of our
//! own in headless Chromium (`fixtures/truth/`): a draft typed into a box that adds on
//! Enter, read as the list holding it; an item's text on the page, read as its state. The
//! page's own record judges; the runtime may do the work or hand back, never claim it.

use crate::common::run_reflex_dir;
use arc_eval::result::Agreement;

#[tokio::test(flavor = "multi_thread")]
async fn a_draft_or_an_items_text_is_never_taken_for_the_work_done() {
    let (run, shown) = run_reflex_dir("truth").await;
    assert_eq!(run.tasks.len(), 5, "{shown}");
    for t in &run.tasks {
        let a = t.agreement();
        assert!(
            matches!(a, Agreement::AgreedSuccess | Agreement::AgreedHandBack),
            "{} {a:?}\n{shown}",
            t.id
        );
    }
    // Nothing to move: the box that creates cards on Enter is left alone.
    let moved = run
        .tasks
        .iter()
        .find(|t| t.id.as_str() == "enter-creates-not-moves");
    assert!(moved.is_some_and(|t| t.success), "{shown}");
    // A box with no button commits on Enter: the work is done, then confirmed.
    for id in ["draft-add-enter", "draft-appears-in-list"] {
        let t = run.tasks.iter().find(|t| t.id.as_str() == id);
        assert_eq!(
            t.map(|t| t.agreement()),
            Some(Agreement::AgreedSuccess),
            "{id}\n{shown}"
        );
    }
    // Where nothing needs doing, the box's state is evidence enough.
    let done = run
        .tasks
        .iter()
        .find(|t| t.id.as_str() == "state-already-done");
    assert_eq!(
        done.map(|t| t.agreement()),
        Some(Agreement::AgreedSuccess),
        "{shown}"
    );
}
