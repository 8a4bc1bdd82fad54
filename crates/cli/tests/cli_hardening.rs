//! The binary at its edges (issue 15): loose input, a closed stdout, a trajectory that
//! cannot be written, and local files whose names need escaping.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;
use std::process::Stdio;

fn arc() -> Command {
    Command::cargo_bin("arc-cua").unwrap()
}

fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(bytes).unwrap();
    f
}

const TYPE_THEN_STOP: &str = r#"[
  {"kind": "TYPE_TEXT", "target_id": "email", "input_key": "card"},
  {"terminal": "BLOCKED"}
]"#;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn invalid_utf8_is_bad_input_from_stdin_and_from_a_file_alike() {
    let bytes = b"{\"goal\": \"g\xff\xfe\", \"verification\": [\"v\"]}";
    let via_stdin = arc()
        .arg("validate")
        .write_stdin(&bytes[..])
        .output()
        .unwrap();
    let payload = file(bytes);
    let via_file = arc()
        .args(["validate", "--file"])
        .arg(payload.path())
        .output()
        .unwrap();
    for out in [via_stdin, via_file] {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("not valid UTF-8") && err.contains("offset 11"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn loose_json_is_refused_naming_the_problem() {
    for (payload, says) in [
        (
            r#"{"goal": "g", "verification": ["v"]} trailing"#,
            "trailing characters",
        ),
        (
            r#"[{"goal": "g", "verification": ["v"]}]"#,
            "found an array at line 1 column 1",
        ),
        (
            r#"{"goal": "g", "verification": ["v"], "inputs": {"card": "1", "card": "2"}}"#,
            "duplicate input name `card`",
        ),
        (
            r#"{"goal": "g", "goal": "h", "verification": ["v"]}"#,
            "duplicate field `goal`",
        ),
    ] {
        let out = arc().arg("validate").write_stdin(payload).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{payload}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{payload}: {}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_four_megabyte_key_is_not_echoed_on_stderr() {
    let key = "k".repeat(4_000_000);
    for payload in [
        format!(r#"{{"goal": "g", "verification": ["v"], "{key}": 1}}"#),
        format!(r#"{{"goal": "g", "verification": ["v"], "inputs": {{"{key}": [1]}}}}"#),
        format!(r#"{{"goal": "g", "verification": ["v"], "allowed_risks": ["{key}"]}}"#),
    ] {
        let out = arc().arg("validate").write_stdin(payload).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.len() < 1024, "{} bytes on stderr", err.len());
        assert!(err.contains("…(4000000 bytes)"), "{err}");
    }
}

#[test]
fn an_integer_beyond_2_pow_53_is_typed_and_echoed_exactly() {
    let payload = r#"{"goal": "Type the card", "verification": ["done"],
        "inputs": {"card": 12345678901234567890}}"#;
    let out = arc()
        .args(["run", "--script"])
        .arg(file(TYPE_THEN_STOP.as_bytes()).path())
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let result: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    // What the app's field holds: the digits as sent, not 12345678901234567000.
    let email = result["final_snapshot"]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "email")
        .unwrap();
    assert_eq!(email["value"], "12345678901234567890", "{email}");
    // The echo of the literal keeps the same number text.
    assert!(
        stdout.contains(r#""value":12345678901234567890"#),
        "{stdout}"
    );
    let validated = arc().arg("validate").write_stdin(payload).output().unwrap();
    assert!(String::from_utf8_lossy(&validated.stdout)
        .contains(r#""inputs":{"card":12345678901234567890}"#));
}

/// Runs the binary with a stdout whose reader is already gone.
fn with_closed_stdout(args: &[&str], stdin: &str) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("arc-cua"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_with_exit_4_not_a_panic() {
    let script = file(TYPE_THEN_STOP.as_bytes());
    let script = script.path().to_str().unwrap();
    let payload = r#"{"goal": "g", "verification": ["v"], "inputs": {"card": "1"}}"#;
    for args in [
        vec!["run", "--script", script],
        vec!["run", "--quiet", "--script", script],
        vec!["validate"],
        vec!["demo", "--sim"],
    ] {
        let out = with_closed_stdout(&args, payload);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("stdout"), "{args:?}: {err}");
    }
}

#[test]
fn a_trajectory_write_error_keeps_the_result_line() {
    let payload = r#"{"goal": "g", "verification": ["v"], "inputs": {"card": "4"}}"#;
    let out = arc()
        .args(["run", "--script"])
        .arg(file(TYPE_THEN_STOP.as_bytes()).path())
        .args(["--trajectory", "/dev/full"])
        .write_stdin(payload)
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("trajectory") && err.contains("/dev/full"),
        "{err}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let result: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(result["status"], "BLOCKED");
    assert_eq!(result["actions_taken"], 1);
}
