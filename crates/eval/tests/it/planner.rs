//! The planner corpus (`fixtures/planner/`, written apart from the criterion reader) in
//! headless Chromium, every subtask in each of its three criterion styles, judged by each
//! page's own record: the runtime never says done for work that is not done. Two shards
//! run side by side (two browsers) to keep the wall time near six minutes on two cores.

use arc_eval::result::Agreement;
use arc_eval::{corpus, run_suite, Mode, RunOptions, Shard};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn the_planner_corpus_has_no_false_completion() {
    let tasks = corpus::load(&corpus::planner_dir()).unwrap();
    assert!(
        tasks.len() >= 450,
        "the corpus shrank: {} tasks",
        tasks.len()
    );
    let shard = |k: u32| RunOptions {
        task_timeout: Duration::from_secs(30),
        shard: Some(Shard::new(k, 2).unwrap()),
        ..RunOptions::new(Mode::Reflex)
    };
    let (one, two) = (shard(1), shard(2));
    let (a, b) = tokio::join!(run_suite(&tasks, &one), run_suite(&tasks, &two));
    let runs = [a.unwrap(), b.unwrap()];
    let all: Vec<_> = runs.iter().flat_map(|r| &r.tasks).collect();
    assert_eq!(all.len(), tasks.len());
    let false_completions: Vec<String> = all
        .iter()
        .filter(|t| t.agreement() == Agreement::FalseCompletion)
        .map(|t| format!("{} ({:?}) {:?}", t.id, t.reason, t.verification))
        .collect();
    assert!(
        false_completions.is_empty(),
        "{} false completions:\n{}",
        false_completions.len(),
        false_completions.join("\n")
    );
    // Negatives must not complete: every one handed back.
    let negatives = all.iter().filter(|t| !t.expected.is_positive()).count();
    assert!(negatives >= 100, "{negatives} negatives");
    // Every completion carries evidence: each criterion held, on something named.
    for t in all
        .iter()
        .filter(|t| t.status == Some(arc_core::TerminalKind::SubtaskComplete))
    {
        assert!(!t.verification.is_empty(), "{}: no verification", t.id);
        for v in &t.verification {
            assert!(v.holds && !v.evidence.text.is_empty(), "{}: {v:?}", t.id);
        }
    }
}
