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

/// A page that reports, in its own text, what the server gives it for other paths.
const PROBING_PAGE: &str = r#"<!doctype html><title>Odd</title>
<button>Unique Zebra</button>
<script>
  for (const p of ['.env', 'sub/.git/config', '../outside.txt', 'img/a.css', 'sub/']) {
    const x = new XMLHttpRequest();
    x.open('GET', p, false);
    x.send();
    document.write('<p>fetched ' + p + ' status ' + x.status + '</p>');
  }
</script>"#;

#[test]
fn observe_serves_a_file_whose_name_needs_escaping_and_nothing_hidden() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("sub/.git")).unwrap();
    std::fs::create_dir_all(site.join("img")).unwrap();
    std::fs::write(site.join("sub/.git/config"), "top secret").unwrap();
    std::fs::write(site.join(".env"), "top secret").unwrap();
    std::fs::write(site.join("img/a.css"), "p{}").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "top secret").unwrap();
    // A sibling that a wrongly encoded URL (`a` + fragment) would serve instead.
    std::fs::write(site.join("a"), "<title>WRONG FILE</title>").unwrap();
    let page = site.join("a#b?c%d é.html");
    std::fs::write(&page, PROBING_PAGE).unwrap();
    let out = arc()
        .arg("observe")
        .arg(&page)
        .arg("--json")
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let url = json["url"].as_str().unwrap();
    assert!(url.ends_with("/a%23b%3Fc%25d%20%C3%A9.html"), "{url}");
    let view = json["view"]["text"].as_str().unwrap();
    assert!(view.contains("Unique Zebra"), "{view}");
    for (path, status) in [
        (".env", 404),
        ("sub/.git/config", 404),
        ("../outside.txt", 404),
        ("img/a.css", 200),
        ("sub/", 404),
    ] {
        assert!(
            view.contains(&format!("fetched {path} status {status}")),
            "{path}: {view}"
        );
    }
}

#[test]
fn a_local_file_the_server_refuses_exits_3_naming_it_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join(".page.html");
    std::fs::write(&page, "<title>hidden</title><button>Go</button>").unwrap();
    let observe = arc().arg("observe").arg(&page).output().unwrap();
    let run = arc()
        .args(["run", "--backend", "browser", "--policy", "reflex", "--url"])
        .arg(&page)
        .write_stdin(r#"{"goal": "Click Go", "verification": ["Go was clicked"]}"#)
        .output()
        .unwrap();
    for out in [observe, run] {
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(
            err.contains(".page.html") && err.contains("HTTP 404"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}
