//! The runtime's word against the page's: a real suite in headless Chromium whose pages
//! record their own outcome, scored for agreement. It holds a hand-back on success by
//! design (a criterion the page does not show) and a false completion by design (an
//! assertion the page never meets); both must be counted, not hidden. The other tasks are
//! pages where the runtime once handed back after succeeding.

use crate::common::run_reflex_dir;
use arc_core::TerminalKind;
use arc_eval::result::Agreement;
use arc_eval::Scorecard;

#[tokio::test(flavor = "multi_thread")]
async fn agreement_counts_hand_backs_on_success_and_false_completions() {
    let (run, shown) = run_reflex_dir("agreement").await;
    let agreement = |id: &str| {
        let t = run.tasks.iter().find(|t| t.id.as_str() == id).unwrap();
        assert!(t.error.is_none(), "{id}: {:?}", t.error);
        t.agreement()
    };
    for id in ["focus-blurred", "accordion-submit", "login-ok"] {
        assert_eq!(agreement(id), Agreement::AgreedSuccess, "{id}\n{shown}");
    }
    assert_eq!(
        agreement("unreadable-criterion"),
        Agreement::HandBackOnSuccess,
        "{shown}"
    );
    let handback = run
        .tasks
        .iter()
        .find(|t| t.id.as_str() == "unreadable-criterion")
        .unwrap();
    assert_ne!(handback.status, Some(TerminalKind::SubtaskComplete));
    assert!(
        handback
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("The warehouse has received the order")),
        "the hand-back names the criterion it could not read: {shown}"
    );
    assert_eq!(
        agreement("failing-assertion"),
        Agreement::FalseCompletion,
        "{shown}"
    );

    let card = Scorecard::from(&run);
    let s = &card.runs[0].summary;
    assert_eq!(s.tasks, 5);
    assert_eq!(s.agreed_successes, 3, "{shown}");
    assert_eq!(s.handbacks_on_success, 1, "{shown}");
    assert_eq!(s.false_completions, 1, "{shown}");
    let md = arc_eval::report::render_markdown(&card);
    assert!(
        md.contains(
            "| hand-backs on success (the page succeeded, the runtime said otherwise) | 1 |"
        ),
        "{md}"
    );
    assert!(md.contains("| false completions (SUBTASK_COMPLETE, the page did not succeed) | 1 |"));
}
