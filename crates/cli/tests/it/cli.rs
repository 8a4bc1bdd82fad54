//! The built `arc-cua` binary: exit codes and output shape, as a script would see them.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;

const SIGNUP: &str = r#"{"goal": "Sign up for a Pro account", "inputs": {"email": "ada@example.com"},
  "verification": ["The page shows Welcome"], "max_actions": 10}"#;

const SCRIPT_OK: &str = r#"[
  {"kind": "TYPE_TEXT", "target_id": "email", "input_key": "email"},
  {"kind": "CLICK", "target_id": "terms"},
  {"kind": "CLICK", "target_id": "submit"},
  {"terminal": "SUBTASK_COMPLETE"}
]"#;

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn arc() -> Command {
    Command::cargo_bin("arc-cua").unwrap()
}

fn lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line: {l}: {e}")))
        .collect()
}

#[test]
fn run_prints_a_line_per_step_then_the_result_and_exits_0_on_completion() {
    let script = file(SCRIPT_OK);
    let out = arc()
        .args(["run", "--script"])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = lines(&out.stdout);
    assert_eq!(lines.len(), 4, "3 steps + the result");
    for (i, step) in lines[..3].iter().enumerate() {
        assert_eq!(step["event"], "acted");
        assert_eq!(step["record"]["step"], i as u64 + 1);
    }
    assert_eq!(lines[0]["record"]["action"]["kind"], "TYPE_TEXT");
    let result = &lines[3];
    assert_eq!(result["status"], "SUBTASK_COMPLETE");
    assert_eq!(result["actions_taken"], 3);
    for key in ["reason", "observations", "history", "final_snapshot"] {
        assert!(result.get(key).is_some(), "result lacks {key}");
    }
    // The app's own final state shows what it received.
    let shown = result["final_snapshot"]["elements"].as_array().unwrap();
    let email = shown.iter().find(|e| e["id"] == "email").unwrap();
    assert_eq!(email["value"], "ada@example.com");
    assert!(shown.iter().any(|e| e["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("Welcome, ada@example.com"))));
}

#[test]
fn run_exits_1_when_the_subtask_is_not_complete() {
    let script = file(r#"[{"kind": "CLICK", "target_id": "submit"}, {"terminal": "BLOCKED"}]"#);
    let out = arc()
        .args(["run", "--quiet", "--script"])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines = lines(&out.stdout);
    assert_eq!(lines.len(), 1, "--quiet prints only the result");
    assert_eq!(lines[0]["status"], "BLOCKED");
}

#[test]
fn run_reads_the_payload_from_a_file() {
    let (payload, script) = (file(SIGNUP), file(SCRIPT_OK));
    let out = arc()
        .args(["run", "--quiet", "--file"])
        .arg(payload.path())
        .arg("--script")
        .arg(script.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn run_exits_2_on_a_bad_payload_and_names_the_field() {
    let script = file(SCRIPT_OK);
    let bad = r#"{"goal": "g", "verification": "just a string"}"#;
    let out = arc()
        .args(["run", "--script"])
        .arg(script.path())
        .write_stdin(bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing may run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("verification"), "{err}");
    assert!(err.contains("invalid_payload"), "{err}");
}

#[test]
fn run_exits_2_on_a_bad_script() {
    let script = file(r#"[{"kind": "CLICK"}]"#);
    let out = arc()
        .args(["run", "--script"])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("requires target_id"));
}

#[test]
fn validate_prints_the_normalized_subtask() {
    let out = arc()
        .arg("validate")
        .write_stdin(r#"{"goal": "g", "verification": ["v"], "shortcuts": ["shift+mod+p"]}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["max_actions"], 30);
    assert_eq!(v["shortcuts"][0], "MOD+SHIFT+P");
}

#[test]
fn validate_exits_2_and_names_the_unknown_field() {
    let out = arc()
        .arg("validate")
        .write_stdin(r#"{"goal": "g", "verification": ["v"], "budget": 3}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("budget") && err.contains("unknown_field"),
        "{err}"
    );
}

#[test]
fn validate_reads_a_file_and_reports_a_missing_one() {
    let out = arc()
        .args(["validate", "--file", "/nonexistent/payload.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/payload.json"));
}

#[test]
fn demo_completes_the_signup_in_headless_chromium() {
    let out = arc().arg("demo").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("headless Chromium"), "{text}");
    assert!(text.contains("SUBTASK_COMPLETE after 5 actions"), "{text}");
    // The confirmation is read from the page by the verify callback, not claimed.
    assert!(
        text.contains("Welcome, ada@example.com! Your Pro account is ready."),
        "{text}"
    );
    assert_eq!(text.matches(" ms  (settle:").count(), 5, "{text}");
}

#[test]
fn demo_runs_the_simulated_app_on_request() {
    let out = arc().args(["demo", "--sim"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("simulated sign-up app"), "{text}");
    assert!(text.contains("SUBTASK_COMPLETE after 5 actions"), "{text}");
}

fn fixture(page: &str) -> String {
    format!("{}/../../fixtures/site/{page}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn observe_prints_the_compact_view_of_a_page() {
    let out = arc()
        .args(["observe", &fixture("signup.html")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.trim_start().starts_with("[e") && l.ends_with("button \"Sign up\"")),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.contains("text_field \"Email\"")),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("tokens (budget 1200)"));
}

#[test]
fn observe_json_carries_the_view_and_every_element() {
    let out = arc()
        .args([
            "observe",
            "--json",
            "--budget",
            "60",
            &fixture("table.html"),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["view"]["tokens"].as_u64().unwrap() <= 60);
    assert_eq!(v["view"]["truncated"], true);
    assert!(v["snapshot"]["elements"].as_array().unwrap().len() > 100);
}

#[test]
fn observe_rejects_a_missing_file() {
    let out = arc()
        .args(["observe", "/nonexistent/page.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file"));
}

#[test]
fn run_drives_the_fixture_page_in_chromium() {
    let script = file(
        r#"[{"kind": "TYPE_TEXT", "target": {"role": "text_field", "name": "Email"}, "input_key": "email"},
            {"kind": "CLICK", "target": {"role": "checkbox", "name": "I accept the terms"}},
            {"kind": "CLICK", "target": {"role": "button", "name": "Sign up"}},
            {"kind": "WAIT"},
            {"terminal": "SUBTASK_COMPLETE"}]"#,
    );
    let out = arc()
        .args([
            "run",
            "--backend",
            "browser",
            "--url",
            &fixture("signup.html"),
            "--script",
        ])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = lines(&out.stdout);
    let result = lines.last().unwrap();
    assert_eq!(result["status"], "SUBTASK_COMPLETE");
    assert_eq!(result["actions_taken"], 4);
    let shown = result["final_snapshot"]["elements"].as_array().unwrap();
    assert!(
        shown
            .iter()
            .any(|e| e["name"] == "Welcome, ada@example.com! Your Free account is ready."),
        "{shown:#?}"
    );
}

#[test]
fn run_with_a_label_that_does_not_exist_hands_back_to_the_agent() {
    let script = file(r#"[{"kind": "CLICK", "target": {"role": "button", "name": "Checkout"}}]"#);
    let out = arc()
        .args([
            "run",
            "--quiet",
            "--backend",
            "browser",
            "--url",
            &fixture("missing.html"),
            "--script",
        ])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let result = &lines(&out.stdout)[0];
    assert_eq!(result["status"], "NEEDS_AGENT");
    assert!(result["reason"].as_str().unwrap().contains("Checkout"));
    assert_eq!(result["actions_taken"], 0);
}

#[test]
fn run_requires_a_url_for_the_browser() {
    let script = file(SCRIPT_OK);
    let out = arc()
        .args(["run", "--backend", "browser", "--script"])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--url"));
}

/// A page named without `--backend` runs in the browser; named with `--backend sim` it is
/// an error, not silently the simulated app.
#[test]
fn a_url_chooses_the_browser_and_is_never_dropped_for_the_simulated_app() {
    let script = file(SCRIPT_OK);
    let out = arc()
        .args(["run", "--backend", "sim", "--url", "page.html", "--script"])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--backend browser"));
    let out = arc()
        .args([
            "run",
            "--quiet",
            "--url",
            &fixture("signup.html"),
            "--script",
        ])
        .arg(script.path())
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    let result = &lines(&out.stdout)[0];
    assert_eq!(
        result["final_snapshot"]["application"], "Chromium",
        "{result}"
    );
}

#[test]
fn every_command_has_help() {
    for cmd in [
        vec!["--help"],
        vec!["run", "--help"],
        vec!["validate", "--help"],
        vec!["demo", "--help"],
    ] {
        let out = arc().args(&cmd).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{cmd:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Usage"),
            "{cmd:?}"
        );
    }
}

#[test]
fn the_default_policy_completes_the_fixture_signup_in_chromium_with_no_model() {
    let payload = r#"{"goal": "Sign up with the email address, choose the plan and accept the terms",
        "inputs": {"email": "ada@example.com", "plan": "Pro"},
        "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]}"#;
    let out = arc()
        .args([
            "run",
            "--quiet",
            "--backend",
            "browser",
            "--url",
            &fixture("signup.html"),
        ])
        .env_remove("ARC_CUA_MODEL")
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let result = &lines(&out.stdout)[0];
    assert_eq!(result["status"], "SUBTASK_COMPLETE");
    // Every decision came from the reflex tier: no model was configured or called.
    for step in result["history"].as_array().unwrap() {
        assert_eq!(step["decision"]["provenance"]["tier"], "reflex", "{step}");
        assert_eq!(step["decision"]["provenance"]["policy"], "reflex", "{step}");
    }
}

#[test]
fn a_trajectory_is_written_redacted_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("run.jsonl");
    let payload = r#"{"goal": "Sign up", "inputs": {"email": "secret-ada@example.com"}, "secret_inputs": ["email"],
        "verification": ["Welcome"], "max_actions": 10}"#;
    let out = arc()
        .args(["run", "--quiet", "--script"])
        .arg(file(SCRIPT_OK).path())
        .arg("--trajectory")
        .arg(&log)
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        !text.contains("secret-ada"),
        "the secret literal must not reach the file"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("secret-ada"));
    let labels = arc()
        .arg("label")
        .arg(&log)
        .arg("--out")
        .arg(dir.path().join("labels"))
        .output()
        .unwrap();
    assert_eq!(
        labels.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&labels.stderr)
    );
    let summary: Value = serde_json::from_slice(&labels.stdout).unwrap();
    assert_eq!(summary["runs"], 1);
    assert!(dir.path().join("labels/summary.json").is_file());
}

#[test]
fn with_a_trajectory_the_monitors_still_run_once_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("run.jsonl");
    let payload = r#"{"goal": "Sign up", "inputs": {"email": "ada@example.com"},
        "verification": ["Welcome"], "max_actions": 10}"#;
    let out = arc()
        .args(["run", "--script"])
        .arg(file(SCRIPT_OK).path())
        .arg("--trajectory")
        .arg(&log)
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = lines(&out.stdout);
    let steps = &printed[..printed.len() - 1];
    assert!(!steps.is_empty());
    // One monitor step per cycle: the monitors' own count is the cycle, not twice it.
    for step in steps {
        assert_eq!(step["verdict"]["step"], step["cycle"], "{step}");
    }
    // The trajectory holds the loop's verdicts and the decisions' own tier.
    let records: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (step, record) in steps.iter().zip(&records) {
        assert_eq!(record["step_id"], step["cycle"]);
        assert_eq!(
            record["escalation_decision"], step["verdict"]["controller"]["action"],
            "{record}"
        );
        assert_eq!(
            record["monitor_stuck_score"],
            step["verdict"]["stuck"]["score"]
        );
        assert_eq!(record["locator_strategy"], "script");
    }
}

#[test]
fn model_policies_without_a_model_name_are_a_bad_input() {
    let out = arc()
        .args(["run", "--policy", "model"])
        .env_remove("ARC_CUA_MODEL")
        .env_remove("ARC_CUA_MODEL_BASE_URL")
        .write_stdin(SIGNUP)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .to_lowercase()
        .contains("model"));
}

#[test]
fn eval_fixtures_shards_merge_into_one_report_and_a_missing_shard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |spec: &str| {
        let results = dir
            .path()
            .join(format!("part-{}.json", spec.replace('/', "-")));
        let out = arc()
            .args([
                "eval", "fixtures", "--mode", "reflex", "--shard", spec, "--out",
            ])
            .arg(dir.path().join("report"))
            .arg("--results")
            .arg(&results)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        results
    };
    let (first, second) = (shard("1/2"), shard("2/2"));
    let alone = arc()
        .args(["eval", "merge"])
        .arg(&first)
        .arg("--out")
        .arg(dir.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(alone.status.code(), Some(2), "half a suite is not a result");
    assert!(String::from_utf8_lossy(&alone.stderr).contains("missing"));
    let merged = dir.path().join("merged");
    let out = arc()
        .args(["eval", "merge"])
        .arg(&first)
        .arg(&second)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(merged.join("report.html")).unwrap();
    let card = std::fs::read_to_string(merged.join("scorecard.json")).unwrap();
    for task in std::fs::read_dir(format!(
        "{}/../../fixtures/tasks",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    {
        let text = std::fs::read_to_string(task.unwrap().path()).unwrap();
        let id = serde_json::from_str::<Value>(&text).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            card.contains(&id) && html.contains(&id),
            "{id} missing from the merged report"
        );
    }
}

#[test]
fn mcp_refuses_an_allow_navigate_that_is_not_an_origin() {
    for bad in [
        "*",
        "not an origin",
        "javascript:alert(1)",
        "HTTP://127.0.0.1:8080",
        "http://127.0.0.1:8080/admin",
        "http://*",
        "https://*.com",
        "https://a.*.example.com",
        "http://127.0.0.1:8*",
    ] {
        let out = arc()
            .args(["mcp", "--allow-navigate", bad])
            .write_stdin("")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("--allow-navigate") && err.contains("not an origin"),
            "{bad}: {err}"
        );
        if bad == "*" {
            assert!(
                err.contains("--allow-any-origin"),
                "says what to use: {err}"
            );
        }
    }
}

#[test]
fn schema_subtask_describes_sentences_and_checks() {
    let out = arc().args(["schema", "subtask"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(
        schema["required"],
        serde_json::json!(["goal", "verification"])
    );
    let kinds: Vec<&str> = schema["$defs"]["Check"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["properties"]["check"]["const"].as_str().unwrap())
        .collect();
    for k in [
        "text_present",
        "text_absent",
        "field_value",
        "element_state",
        "url",
        "title",
        "count",
        "none_remain",
    ] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    // Every kind the schema lists is one `validate` reads (and the other way round).
    for k in kinds {
        let out = arc()
            .arg("validate")
            .write_stdin(format!(
                r#"{{"goal": "g", "verification": [{{"check": "{k}"}}]}}"#
            ))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("unknown variant"), "{k}: {err}");
    }
}
