//! Outcome statements as planners write them ("Grace Hopper added", "Bob Stone removed",
//! "Bio saved", "Dark mode on", "Ada is signed in") on pages of our own in headless
//! Chromium (`fixtures/outcomes/`), where the page confirms in its own words or not at
//! all. Each is judged by what its verb says happened — a row that appeared, a name that
//! went, a field committed and confirmed, a control's state, a sign-out control — and
//! each has a twin where the page refused the work: the page's own record judges, and
//! the runtime must agree with it both ways. And a form is not sent while the goal names
//! a choice no input gives ("a billing question", a Topic select showing "General
//! question"): "Message sent" would hold.

use crate::common::run_reflex_dir;
use arc_eval::result::Agreement;

#[tokio::test(flavor = "multi_thread")]
async fn an_outcome_holds_on_what_happened_and_never_on_a_refusal() {
    let (run, shown) = run_reflex_dir("outcomes").await;
    assert_eq!(run.tasks.len(), 13, "{shown}");
    for t in &run.tasks {
        let refused = t.id.as_str().ends_with("-refused");
        let want = if refused {
            Agreement::AgreedHandBack
        } else {
            Agreement::AgreedSuccess
        };
        assert_eq!(t.agreement(), want, "{}\n{shown}", t.id);
    }
}
