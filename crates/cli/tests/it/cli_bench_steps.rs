//! `arc-cua bench observe` names the scope of each observation; `bench steps` splits real
//! MiniWoB++ episodes' steps into observe / decide / execute / settle and says how each
//! settle ended.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn arc() -> Command {
    Command::cargo_bin("arc-cua").unwrap()
}

fn site(page: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site");
    root.join(page).display().to_string()
}

fn json_rows(out: &std::process::Output) -> Vec<Value> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    serde_json::from_slice(&out.stdout).expect("one JSON array")
}

#[test]
fn bench_observe_reports_the_scope_of_every_observation() {
    let out = arc()
        .args(["bench", "observe", "--runs", "3", "--json"])
        .arg(site("signup.html"))
        .arg(site("table.html"))
        .output()
        .unwrap();
    let rows = json_rows(&out);
    // A small page is read whole; 25,000 elements only near the viewport.
    assert_eq!(rows[0]["scopes"], serde_json::json!({"full": 3}));
    assert_eq!(rows[1]["scopes"], serde_json::json!({"viewport": 3}));
}

#[test]
fn bench_steps_splits_miniwob_steps_and_counts_settle_ends() {
    arc_eval::miniwob::ensure_pages().expect("fetch the MiniWoB++ pages");
    let out = arc()
        .args([
            "bench",
            "steps",
            "--no-fixtures",
            "--tasks",
            "enter-text,click-checkboxes",
            "--seeds",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    let rows = json_rows(&out);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row["episodes"], 4);
    let steps = row["steps"].as_u64().unwrap();
    assert!(steps >= 4, "{row}");
    for phase in [
        "observe_ms",
        "decide_ms",
        "execute_ms",
        "settle_ms",
        "step_ms",
    ] {
        let p50 = row[phase]["p50"].as_f64().unwrap();
        let p95 = row[phase]["p95"].as_f64().unwrap();
        assert!(p50 >= 0.0 && p95 >= p50, "{phase}: {row}");
    }
    let ends = row["settle_ends"].as_object().unwrap();
    let counted: u64 = ends.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(counted, steps, "{row}");
    // Typing into a field and ticking a box have effects the page shows at once.
    assert!(
        ends.get("effect").and_then(Value::as_u64).unwrap_or(0) > 0,
        "{row}"
    );
}
