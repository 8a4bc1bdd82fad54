//! The fixture suite end to end in real headless Chromium, in both modes.

use arc_core::TerminalKind;
use arc_eval::{
    merge, report, run_suite, suite, Mode, Pricing, RunOptions, Scorecard, Shard, SuiteResult,
};
use std::time::Duration;

fn options(mode: Mode) -> RunOptions {
    RunOptions {
        task_timeout: Duration::from_secs(20),
        ..RunOptions::new(mode)
    }
}

fn table(run: &SuiteResult) -> String {
    let mut out = format!("{} mode:\n", run.mode);
    for t in &run.tasks {
        out.push_str(&format!(
            "  {:<18} {:<5} {:<16} steps {:<2} {:>5} ms  {}\n",
            t.id.as_str(),
            if t.success { "pass" } else { "FAIL" },
            t.status.map(|s| s.as_str()).unwrap_or("-"),
            t.steps,
            t.wall_ms,
            t.reason.as_deref().or(t.error.as_deref()).unwrap_or("")
        ));
    }
    out
}

/// Tasks the reflex policy is expected to solve on its own.
const SOLVABLE: [&str; 8] = [
    "form-fill",
    "tab-navigation",
    "dropdown",
    "scroll-reveal",
    "input-validation",
    "multi-step",
    // The local recoveries: a swallowed first click, a button that appears after loading.
    "noop-recovery",
    "slow-response",
];

fn check_run(run: &SuiteResult) {
    let shown = table(run);
    eprintln!("{shown}");
    assert_eq!(run.tasks.len(), 12, "{shown}");
    for t in &run.tasks {
        assert!(t.error.is_none(), "{}: {:?}\n{shown}", t.id, t.error);
        if !t.expected.is_positive() {
            assert_ne!(
                t.status,
                Some(TerminalKind::SubtaskComplete),
                "{} faked success\n{shown}",
                t.id
            );
            assert!(t.success, "{} should be a correct hand-back\n{shown}", t.id);
        }
    }
    let failing = run
        .tasks
        .iter()
        .find(|t| t.id.as_str() == "failing-assertion")
        .unwrap();
    assert!(!failing.success, "{shown}");
    let payment = failing
        .assertions
        .iter()
        .find(|a| a.assertion.to_string().contains("Payment accepted"))
        .unwrap();
    assert!(!payment.passed(), "{}", payment.message);
    let solved: Vec<&str> = run
        .tasks
        .iter()
        .filter(|t| t.success && t.expected.is_positive())
        .map(|t| t.id.as_str())
        .collect();
    for id in SOLVABLE {
        assert!(solved.contains(&id), "{id} failed\n{shown}");
    }
    for t in &run.tasks {
        assert_eq!(t.step_latency_ms.len() as u32, t.steps);
        assert!(!t.decision_latency_us.is_empty(), "{}", t.id);
        assert_eq!(t.model_calls, 0);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn reflex_mode_and_two_shards_merged_equal_one_run() {
    let tasks = suite::fixture_suite().unwrap();
    let full = run_suite(&tasks, &options(Mode::Reflex)).await.unwrap();
    check_run(&full);
    // The shards run at once, as they would on two machines.
    let shard = |k| RunOptions {
        shard: Some(Shard::new(k, 2).unwrap()),
        ..options(Mode::Reflex)
    };
    let (one, two) = (shard(1), shard(2));
    let (one, two) = tokio::join!(run_suite(&tasks, &one), run_suite(&tasks, &two));
    let parts = vec![one.unwrap(), two.unwrap()];
    assert!(parts.iter().all(|p| p.tasks.len() == 6));
    let merged = merge(parts.clone()).unwrap();
    let key = |r: &SuiteResult| {
        r.tasks
            .iter()
            .map(|t| {
                (
                    t.id.clone(),
                    t.status,
                    t.success,
                    t.assertions.iter().map(|a| a.verdict).collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        key(&merged),
        key(&full),
        "{}\n{}",
        table(&merged),
        table(&full)
    );
    assert_eq!(merged.suite_size, full.suite_size);
    // One shard alone is not the suite.
    assert!(merge(vec![parts[0].clone()]).is_err());
    assert!(merge(vec![parts[0].clone(), parts[0].clone()]).is_err());
}

#[tokio::test(flavor = "multi_thread")]
async fn cascade_mode_hands_back_and_reports_side_by_side() {
    let tasks = suite::fixture_suite().unwrap();
    let cascade = run_suite(&tasks, &options(Mode::Cascade)).await.unwrap();
    check_run(&cascade);
    assert!(cascade.tasks.iter().all(|t| t.tiers.is_some()));

    let card = Scorecard::compare(&[cascade], Pricing::default());
    let dir = tempfile::tempdir().unwrap();
    let written = report::write_all(&card, dir.path()).unwrap();
    let back = report::read_json(&written.json).unwrap();
    assert_eq!(back, card);
    let html = std::fs::read_to_string(&written.html).unwrap();
    for t in &tasks {
        assert!(
            html.contains(t.id.as_str()),
            "{} missing from the HTML",
            t.id
        );
    }
    // Self-contained: nothing fetched, nothing run.
    for needle in ["src=\"http", "href=\"http", "<link", "<script", "url("] {
        assert!(!html.contains(needle), "the HTML references {needle}");
    }
    let md = std::fs::read_to_string(&written.markdown).unwrap();
    assert!(md.contains("cascade (no model)"));
}

#[tokio::test(flavor = "multi_thread")]
async fn screenshots_and_both_modes_side_by_side_in_the_report() {
    let tasks: Vec<_> = suite::fixture_suite()
        .unwrap()
        .into_iter()
        .filter(|t| ["form-fill", "missing-locator"].contains(&t.id.as_str()))
        .collect();
    let mut runs = Vec::new();
    for mode in [Mode::Reflex, Mode::Cascade] {
        let opts = RunOptions {
            screenshots: true,
            ..options(mode)
        };
        runs.push(run_suite(&tasks, &opts).await.unwrap());
    }
    let form = &runs[0].tasks[0];
    assert!(form.success, "{}", table(&runs[0]));
    assert!(form.start_screenshot.is_some());
    assert!(!form.trace.is_empty() && form.trace.iter().all(|s| s.screenshot.is_some()));
    let card = Scorecard::compare(&runs, Pricing::default());
    assert_eq!(card.runs.len(), 2);
    let dir = tempfile::tempdir().unwrap();
    let written = report::write_all(&card, &dir.path().join("nested")).unwrap();
    let html = std::fs::read_to_string(&written.html).unwrap();
    assert!(html.contains("data:image/jpeg;base64,"));
    assert!(html.contains("reflex-only") && html.contains("cascade (no model)"));
    let md = std::fs::read_to_string(&written.markdown).unwrap();
    let header = md.lines().find(|l| l.starts_with("| task |")).unwrap();
    assert_eq!(
        header,
        "| task | category | expected | reflex-only | cascade (no model) |"
    );
    assert!(!md.contains("base64"), "the Markdown stays small");
    assert_eq!(report::read_json(&written.json).unwrap(), card);
}
