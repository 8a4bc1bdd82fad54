//! The MiniWoB++ report in real headless Chromium: 2 tasks × 2 seeds with screenshots make
//! one self-contained HTML file with the utterances (escaped), a picture per step, and the
//! per-task table over seeds.

use arc_eval::miniwob::{ensure_pages, run_miniwob, MiniwobOptions, MiniwobResult, TaskName};
use arc_eval::{report, Pricing, Scorecard, SuiteKind};

fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screenshots_and_utterances_make_one_self_contained_html_report() {
    let opts = MiniwobOptions {
        html_root: Some(ensure_pages().expect("fetch the MiniWoB++ pages")),
        tasks: TaskName::parse_list("click-button,click-checkboxes").unwrap(),
        seeds: 2,
        screenshots: true,
        ..MiniwobOptions::default()
    };
    let run = run_miniwob(&opts).await.unwrap();
    assert!(matches!(run.kind, SuiteKind::Miniwob(_)));
    assert_eq!((run.suite_size, run.tasks.len()), (4, 4));
    let card = Scorecard::compare(std::slice::from_ref(&run), Pricing::default());
    let dir = tempfile::tempdir().unwrap();
    let written = report::write_all(&card, dir.path()).unwrap();
    assert!(
        written.html.ends_with("miniwob.html"),
        "{}",
        written.html.display()
    );
    let html = std::fs::read_to_string(&written.html).unwrap();

    let mut quoted = 0;
    for t in &run.tasks {
        let e = t.episode.as_ref().unwrap();
        assert_eq!(t.error, None, "{}", t.id);
        assert!(!e.utterance.is_empty());
        assert!(
            html.contains(&escaped(&e.utterance)),
            "{:?} missing",
            e.utterance
        );
        if e.utterance.contains('"') {
            // Page text is never written raw.
            assert!(!html.contains(&e.utterance), "{:?} unescaped", e.utterance);
            quoted += 1;
        }
        assert!(html.contains(&format!("id=\"task-{}\"", t.id)));
        assert!(t.start_screenshot.is_some(), "{}", t.id);
        assert_eq!(t.trace.len() as u32, t.steps);
        assert!(t.trace.iter().all(|s| s.screenshot.is_some()), "{}", t.id);
    }
    assert!(quoted > 0, "click-button's utterances quote the button");
    // One picture per step, plus each episode's start.
    let steps: u32 = run.tasks.iter().map(|t| t.steps).sum();
    assert!(steps >= 4, "the reflex acts on these tasks");
    let pictures = html.matches("src=\"data:image/jpeg;base64,").count();
    assert_eq!(pictures, steps as usize + run.tasks.len());
    // Self-contained: nothing fetched, nothing run.
    for needle in ["src=\"http", "href=\"http", "<link", "<script", "url("] {
        assert!(!html.contains(needle), "the HTML references {needle}");
    }
    // The per-task table over seeds, in the HTML, the Markdown and the JSON.
    assert!(html.contains("Per task, over seeds"));
    let md = std::fs::read_to_string(&written.markdown).unwrap();
    // The first column after the task is agreed success (the headline), then the per-kind
    // table.
    let row = md
        .lines()
        .find(|l| l.starts_with("| click-checkboxes | "))
        .unwrap_or_else(|| panic!("{md}"));
    let page = card.runs[0].groups[1].summary.passed;
    assert!(row.contains(&format!("| {page}/2 (")), "{md}");
    assert!(md.contains("## Per kind of task"), "{md}");
    assert!(md.contains("| click/form | 2 |"), "{md}");
    assert!(!md.contains("base64"), "the Markdown stays small");
    let back = report::read_json(&written.json).unwrap();
    assert_eq!(back, card);
    assert_eq!(back.runs[0].groups.len(), 2);
    assert_eq!(back.runs[0].groups[1].summary.tasks, 2);
    // The compact summary (`--json`) agrees with the scorecard.
    let summary = MiniwobResult::from_run(&run).unwrap();
    assert_eq!(summary.episodes, 4);
    assert_eq!(summary.successes as usize, card.runs[0].summary.passed);
    assert_eq!(
        summary.agreed as usize,
        card.runs[0].summary.agreed_successes
    );
}
