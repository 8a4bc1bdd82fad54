//! Real applications (`fixtures/apps/`: installed from PyPI by scripts/fetch-apps.sh,
//! started fresh) in headless Chromium, their tasks chained on one live page, each judged
//! by the row-level difference of the app's own database: the runtime never says done for
//! work the database does not show, and never acts where a task forbids it.

use arc_eval::apps::{self, AppOptions};
use arc_eval::result::Agreement;
use arc_eval::Mode;

#[tokio::test(flavor = "multi_thread")]
async fn real_apps_confirm_only_what_their_databases_show() {
    let all = apps::load(&apps::apps_dir()).unwrap();
    let total: usize = all.iter().map(|a| a.tasks.len()).sum();
    assert!(total >= 20, "the apps' tasks shrank: {total}");
    let python = apps::installed_python().unwrap();
    let run = apps::run_apps_with(&all, &AppOptions::new(Mode::Reflex, python), |_| {}).await;
    assert_eq!(run.tasks.len(), total);
    for t in &run.tasks {
        // The app started, and the oracle read its database before and after each task.
        assert!(t.error.is_none(), "{}: {:?}", t.id, t.error);
        let unread = t
            .assertions
            .iter()
            .find(|a| a.message.starts_with("could not"));
        assert!(unread.is_none(), "{}: {unread:?}", t.id);
    }
    let false_completions: Vec<String> = run
        .tasks
        .iter()
        .filter(|t| t.agreement() == Agreement::FalseCompletion)
        .map(|t| format!("{} {:?}", t.id, t.assertions))
        .collect();
    assert!(false_completions.is_empty(), "{false_completions:#?}");
    // A task that must not be done (a deletion not allowed, a record that is gone) is
    // handed back with the database untouched.
    for t in run.tasks.iter().filter(|t| !t.expected.is_positive()) {
        assert!(t.success, "{}: {:?} {:?}", t.id, t.status, t.assertions);
    }
}
