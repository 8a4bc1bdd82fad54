//! Secrets never leave `arc-cua run`: not in the step lines, the result, the trajectory
//! file, nor stderr at `ARC_CUA_LOG=trace` — on the simulated app and on a real Chromium
//! page that echoes the typed code into a button's name, the title, a link's URL (two
//! encodings) and the next page's text.
//!
//! The code contains the pin (`Qz7`), a space and `&<%+`, so a redactor replacing in key
//! order, or missing an encoding, leaves a fragment. Every form of the code keeps `Qz7`,
//! `k9` and `Wp` literally (alphanumerics are never escaped) and `517a37` is `Qz7` in
//! hex (how a WebSocket frame dump would carry it): none of them may appear anywhere.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

const FRAGMENTS: [&str; 4] = ["Qz7", "k9", "Wp", "517a37"];

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

struct Outputs {
    stdout: String,
    stderr: String,
    trajectory: String,
    code: Option<i32>,
}

fn run(args: &[&str], payload: &str, script: &str, dir: &Path) -> Outputs {
    let log = dir.join("run.jsonl");
    let script = file(script);
    let out = Command::cargo_bin("arc-cua")
        .unwrap()
        .arg("run")
        .args(args)
        .arg("--script")
        .arg(script.path())
        .arg("--trajectory")
        .arg(&log)
        .env("ARC_CUA_LOG", "trace")
        .env_remove("ARC_CUA_MODEL")
        .write_stdin(payload)
        .output()
        .unwrap();
    Outputs {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        trajectory: std::fs::read_to_string(&log).unwrap_or_default(),
        code: out.status.code(),
    }
}

fn assert_no_fragment(o: &Outputs) {
    for (name, text) in [
        ("stdout", &o.stdout),
        ("stderr", &o.stderr),
        ("trajectory", &o.trajectory),
    ] {
        for f in FRAGMENTS {
            if let Some(at) = text.find(f) {
                let from = text[..at]
                    .char_indices()
                    .rev()
                    .nth(200)
                    .map_or(0, |(i, _)| i);
                let to = (at + 200).min(text.len());
                let to = (to..=text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap();
                panic!("{f:?} leaked into {name}: …{}…", &text[from..to]);
            }
        }
    }
}

fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

#[test]
fn nothing_of_a_secret_leaves_a_run_in_chromium() {
    let page = format!(
        "{}/../../fixtures/site/echo.html",
        env!("CARGO_MANIFEST_DIR")
    );
    let payload = r#"{"goal": "Enter the access code, continue and share the page",
        "inputs": {"code": "Qz7 X&k9<Wp%+", "pin": "Qz7"}, "secret_inputs": ["pin", "code"],
        "verification": ["The page shows Welcome back"], "max_actions": 8}"#;
    let script = r#"[
        {"kind": "TYPE_TEXT", "target": {"role": "text_field", "name": "Access code"}, "input_key": "code"},
        {"kind": "CLICK", "target": {"role": "button", "name": "Continue as Qz7 X&k9<Wp%+"}},
        {"kind": "CLICK", "target": {"role": "link", "name": "Share this page"}},
        {"kind": "WAIT"},
        {"terminal": "SUBTASK_COMPLETE"}]"#;
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        &["--backend", "browser", "--url", &page],
        payload,
        script,
        dir.path(),
    );
    assert_eq!(o.code, Some(0), "{}\n{}", o.stdout, o.stderr);
    assert_no_fragment(&o);

    // The secret did reach the page and every output, as the placeholder: the button's
    // name, the title after the link, the URL with both encodings, the page's own text.
    let lines = lines(&o.stdout);
    assert!(
        lines.len() >= 5,
        "a line per step, then the result: {}",
        o.stdout
    );
    let result = lines.last().unwrap();
    assert_eq!(result["history"][1]["target_name"], "Continue as [secret]");
    assert_eq!(result["final_snapshot"]["window"], "Welcome back [secret]");
    let shown = result["final_snapshot"]["elements"].to_string();
    assert!(shown.contains("Welcome back, [secret]"), "{shown}");
    assert!(
        shown.contains("You came from ?c1=[secret]&c2=[secret]"),
        "{shown}"
    );
    assert!(
        o.trajectory.contains("c1=[secret]&c2=[secret]"),
        "{}",
        o.trajectory
    );
    assert!(o
        .stdout
        .lines()
        .nth(1)
        .unwrap()
        .contains("Continue as [secret]"));
    // Tracing was on (the CDP calls are there, the typed text among them).
    assert!(o.stderr.contains("Input.insertText"), "{}", o.stderr);
}

#[test]
fn nothing_of_a_secret_leaves_a_simulated_run() {
    let payload = r#"{"goal": "Sign up", "inputs": {"email": "Qz7+Wp k9@x.io", "pin": "Qz7"},
        "secret_inputs": ["pin", "email"], "verification": ["Welcome"], "max_actions": 10}"#;
    let script = r#"[
        {"kind": "TYPE_TEXT", "target_id": "email", "input_key": "email"},
        {"kind": "CLICK", "target_id": "terms"},
        {"kind": "CLICK", "target_id": "submit"},
        {"terminal": "SUBTASK_COMPLETE"}]"#;
    let dir = tempfile::tempdir().unwrap();
    let o = run(&[], payload, script, dir.path());
    assert_eq!(o.code, Some(0), "{}\n{}", o.stdout, o.stderr);
    assert_no_fragment(&o);
    let result = lines(&o.stdout).pop().unwrap();
    assert_eq!(result["history"][0]["action"]["value"], "[secret]");
    assert!(
        result["final_snapshot"].to_string().contains("[secret]"),
        "{result}"
    );
    assert_eq!(o.trajectory.lines().count(), 4, "{}", o.trajectory);
}
