//! `arc-cua eval miniwob` and `eval merge` on real MiniWoB++ pages in headless Chromium:
//! the default report directory, progress lines on a non-terminal stderr, the `--json`
//! summary, shards that merge into the whole run, and merges that must be refused.

use arc_eval::report;
use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn arc() -> Command {
    Command::cargo_bin("arc-cua").unwrap()
}

const RUN: [&str; 6] = [
    "eval",
    "miniwob",
    "--tasks",
    "click-test,click-button",
    "--seeds",
    "2",
];

fn ok(out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

/// Per episode: id, status, the page's raw reward and the verdict (wall times differ).
fn outcomes(scorecard: &Path) -> Vec<(String, Option<String>, String, bool)> {
    let card = report::read_json(scorecard).unwrap();
    card.runs[0]
        .tasks
        .iter()
        .map(|c| &c.result)
        .map(|t| {
            let status = t.status.map(|s| s.as_str().to_owned());
            (
                t.id.to_string(),
                status,
                format!("{:.2}", t.reward),
                t.success,
            )
        })
        .collect()
}

#[test]
fn miniwob_shards_merge_into_the_whole_run_and_bad_merges_are_refused() {
    arc_eval::miniwob::ensure_pages().expect("fetch the MiniWoB++ pages");
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path();

    // The whole run, with the default --out (eval-report in the working directory).
    let out = arc()
        .args(RUN)
        .arg("--json")
        .current_dir(at)
        .output()
        .unwrap();
    let stderr = ok(&out);
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(summary["success_rate"].is_number());
    assert_eq!(summary["tasks"].as_array().unwrap().len(), 2);
    assert_eq!(summary["records"].as_array().unwrap().len(), 4);
    // Not a terminal: one plain line per episode, then where the report is.
    for n in 1..=4 {
        assert!(stderr.contains(&format!("[{n}/4] reflex ")), "{stderr}");
    }
    assert!(stderr.contains("eval-report/miniwob.html"), "{stderr}");
    for file in ["miniwob.json", "miniwob.md", "miniwob.html"] {
        assert!(at.join("eval-report").join(file).is_file(), "{file}");
    }

    let shard = |spec: &str| {
        let results = at.join(format!("part-{}.json", spec.replace('/', "-")));
        let out = arc()
            .args(RUN)
            .args(["--shard", spec, "--results"])
            .arg(&results)
            .arg("--out")
            .arg(at.join(format!("shard-{}", spec.replace('/', "-"))))
            .output()
            .unwrap();
        ok(&out);
        // Markdown on stdout by default.
        assert!(String::from_utf8_lossy(&out.stdout).contains("# arc-cua MiniWoB++ report"));
        results
    };
    let (first, second) = (shard("1/2"), shard("2/2"));
    let merged = at.join("merged");
    let out = arc()
        .args(["eval", "merge"])
        .arg(&second)
        .arg(&first)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    ok(&out);
    let whole = outcomes(&at.join("eval-report/miniwob.json"));
    assert_eq!(whole.len(), 4);
    assert_eq!(outcomes(&merged.join("miniwob.json")), whole);
    assert!(merged.join("miniwob.html").is_file());

    // Half a run is not a result: the absent shard is named.
    let alone = arc()
        .args(["eval", "merge"])
        .arg(&first)
        .arg("--out")
        .arg(at.join("x"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert_eq!(alone.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("shard 2/2 absent"), "{stderr}");
    assert!(stderr.contains("part-1-2.json"), "{stderr}");

    // A task-suite shard and a MiniWoB++ shard are different runs, whatever their sizes.
    let tasks = at.join("fixtures-part.json");
    std::fs::write(
        &tasks,
        r#"[{"mode": "reflex", "suite_size": 4, "shard": "2/2", "tasks": [], "wall_ms": 0}]"#,
    )
    .unwrap();
    let mixed = arc()
        .args(["eval", "merge"])
        .arg(&first)
        .arg(&tasks)
        .arg("--out")
        .arg(at.join("y"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert_eq!(mixed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("fixtures-part.json"), "{stderr}");
    assert!(
        stderr.contains("MiniWoB++") && stderr.contains("task-suite"),
        "{stderr}"
    );
}
