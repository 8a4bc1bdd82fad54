//! The second look in Chromium: a policy that gives up right after its press is asked
//! again when, `--late-reaction-ms` later, the page shows what the press did (a save
//! answered 2 s late); with `--late-reaction-ms 0` the give-up stands on a page that has
//! not answered yet. The policy is a script, so the runtime alone decides when to ask.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;

const SCRIPT: &str = r#"[
  {"kind": "TYPE_TEXT", "target": {"role": "text_field", "name": "Note"}, "input_key": "note"},
  {"kind": "CLICK", "target": {"role": "button", "name": "Save"}},
  {"terminal": "NEEDS_AGENT"},
  {"terminal": "SUBTASK_COMPLETE"}
]"#;

const SUBTASK: &str = r#"{"goal": "Type the note and save it", "inputs": {"note": "Buy stamps"},
  "verification": ["The page shows \"Saved\""]}"#;

fn run(late_ms: &str) -> Value {
    let mut script = tempfile::NamedTempFile::new().unwrap();
    script.write_all(SCRIPT.as_bytes()).unwrap();
    let page = format!(
        "file://{}/../../fixtures/site/late-save.html?after=2000",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = Command::cargo_bin("arc-cua")
        .unwrap()
        .args(["run", "--quiet", "--backend", "browser", "--url", &page])
        .args(["--script", script.path().to_str().unwrap()])
        .args(["--late-reaction-ms", late_ms])
        .write_stdin(SUBTASK)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)))
}

fn shows_saved(result: &Value) -> bool {
    result["final_snapshot"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["name"] == "Saved")
}

fn looked_again(result: &Value) -> bool {
    result["observations"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o.as_str().unwrap().contains("right after an action"))
}

#[test]
fn a_give_up_right_after_the_press_is_asked_again_once_the_late_save_shows() {
    let result = run("4000");
    assert_eq!(result["status"], "SUBTASK_COMPLETE", "{result}");
    assert!(shows_saved(&result), "{result}");
    assert!(looked_again(&result), "{result}");
}

#[test]
fn without_the_second_look_the_give_up_stands_before_the_page_answers() {
    let result = run("0");
    assert_eq!(result["status"], "NEEDS_AGENT", "{result}");
    assert!(!shows_saved(&result), "{result}");
    assert!(!looked_again(&result), "{result}");
}

#[test]
fn a_second_look_longer_than_its_bound_is_refused_naming_the_flag() {
    let out = Command::cargo_bin("arc-cua")
        .unwrap()
        .args(["run", "--late-reaction-ms", "40000"])
        .write_stdin(SUBTASK)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--late-reaction-ms"), "{err}");
}
