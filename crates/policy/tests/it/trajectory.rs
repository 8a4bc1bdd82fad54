//! The trajectory log: secrets never reach the file, credential shapes are redacted, the
//! auto-labeler and the 16-feature builder are deterministic, and a recorded run replays
//! against the simulated sign-up app (seed §5.7).

use arc_core::{
    Action, ActionKind, Decision, Executor, MilestoneSignal, RuntimeConfig, SettleConfig,
    StepFailure, Subtask, TerminalKind,
};
use arc_policy::trajectory::{
    label, read_trajectory, replay, CredentialFilter, CredentialKind, DivergenceField, Features,
    MilestoneLabel, RunInfo, StepKind, StuckLabel, TrajectoryLog, TrajectoryRecord,
    TrajectoryWriter, FEATURE_NAMES,
};
use arc_sim::{ScriptedPolicy, SignupApp};
use std::path::Path;
use std::time::Duration;

const EMAIL: &str = "ada@example.com";

/// Real time (no paused clock in this crate's tests), so settle briskly; the app's
/// 300 ms confirmation still has to be waited for.
fn config() -> RuntimeConfig {
    RuntimeConfig {
        settle: SettleConfig {
            poll: Duration::from_millis(5),
            quiet: Duration::from_millis(20),
            reaction: Duration::from_millis(100),
            cap: Duration::from_secs(2),
        },
        ..RuntimeConfig::default()
    }
}

fn info(run: &str) -> RunInfo {
    RunInfo {
        run_id: run.into(),
        task_id: "signup".into(),
        integration_mode: "sim".into(),
    }
}

/// The demo sign-up with the email marked secret.
fn secret_subtask() -> Subtask {
    let mut s = SignupApp::demo_subtask();
    s.secret_inputs.insert("email".into());
    s
}

/// The demo script; the first decision's reason leaks the secret and a bearer token,
/// as a careless policy might.
fn script() -> Vec<Decision> {
    let mut d = SignupApp::demo_script();
    d[0] = d[0].clone().with_reason(format!(
        "typing {EMAIL} (Authorization: Bearer tok_9f8e7d6c5b4a)"
    ));
    d
}

/// Runs the demo over the simulated app and writes its trajectory to `path`.
async fn record_run(path: &Path, run: &str) -> Vec<TrajectoryRecord> {
    let subtask = secret_subtask();
    let mut log = TrajectoryLog::create(path, info(run), &subtask).unwrap();
    let mut exec = Executor::new(
        SignupApp::backend(),
        ScriptedPolicy::new(script()),
        config(),
    );
    let result = exec.run_with(&subtask, |e| log.on_event(&e)).await;
    assert!(result.is_complete(), "{result:?}");
    assert_eq!(log.finish().unwrap(), 6);
    read_trajectory(path).unwrap()
}

#[tokio::test]
async fn a_secret_input_never_appears_in_the_log_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("logs/run.jsonl");
    let records = record_run(&path, "run-1").await;

    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert!(!text.contains(EMAIL), "secret literal leaked:\n{text}");
    assert!(!text.contains("tok_9f8e7d6c5b4a"), "bearer token leaked");
    assert!(text.contains("[secret]"));
    assert!(
        text.contains("(Authorization: [redacted]"),
        "the header value goes whole"
    );
    assert_eq!(text.lines().count(), 6, "one line per step + the end");

    // The records are complete and typed.
    let typed = &records[0];
    assert_eq!(typed.event, StepKind::Acted);
    assert_eq!(typed.action_type, Some(ActionKind::TypeText));
    assert_eq!(typed.target_locator.as_deref(), Some("email"));
    assert_eq!(typed.target_role.as_deref(), Some("text_field"));
    assert_eq!(typed.input_key.as_deref(), Some("email"));
    assert_eq!(typed.input_value.as_deref(), Some("[secret]"));
    assert_eq!(typed.locator_strategy, Some(arc_core::Tier::Script));
    assert!(typed.state_changed && typed.hamming_distance > 0);
    assert_ne!(typed.state_hash_before, typed.state_hash_after);
    assert!(typed
        .milestone_signals
        .contains(&MilestoneSignal::DeclaredStateChange));
    assert_eq!(
        typed.escalation_decision,
        Some(arc_core::ControllerAction::Continue)
    );
    let submit = &records[4];
    assert_eq!(submit.target_locator.as_deref(), Some("submit"));
    assert!(
        submit
            .milestone_signals
            .contains(&MilestoneSignal::TextAppeared),
        "{submit:?}"
    );
    assert!(submit
        .milestone_signals
        .contains(&MilestoneSignal::FormSubmitted));
    let end = records.last().unwrap();
    assert_eq!(end.event, StepKind::Finished);
    assert_eq!(end.status, Some(TerminalKind::SubtaskComplete));
    assert!(records
        .iter()
        .all(|r| r.run_id == "run-1" && r.integration_mode == "sim"));
}

#[test]
fn each_credential_pattern_is_redacted() {
    let ghp = format!("ghp_{}", "a1B2c3D4e5".repeat(4));
    let google = format!("AIza{}", "Sy0123456789abcdefghijklmnopqrstu_-"); // 35 after AIza
    let cases: Vec<(CredentialKind, String, &str)> = vec![
        (
            CredentialKind::AuthorizationHeader,
            "Authorization: Basic dXNlcjpwYXNz".into(),
            "dXNlcjpwYXNz",
        ),
        (
            CredentialKind::BearerToken,
            "curl -H 'X-Token: Bearer abc.DEF-123_xyz'".into(),
            "abc.DEF-123_xyz",
        ),
        (
            CredentialKind::SecretPair,
            "login?user=ada&password=hunter2&next=/".into(),
            "hunter2",
        ),
        (CredentialKind::SecretPair, "pwd: s3cr3t!".into(), "s3cr3t!"),
        (
            CredentialKind::SecretPair,
            r#"{"api_key": "k-123456"}"#.into(),
            "k-123456",
        ),
        (
            CredentialKind::UrlCredentials,
            "https://ada:pa55w0rd@example.com/x".into(),
            "pa55w0rd",
        ),
        (
            CredentialKind::SkKey,
            "OPENAI_API=sk-proj-AbCdEfGhIjKlMnOpQrSt123".into(),
            "AbCdEfGhIjKlMnOpQrSt123",
        ),
        (
            CredentialKind::AwsAccessKey,
            "aws id AKIAIOSFODNN7EXAMPLE here".into(),
            "AKIAIOSFODNN7EXAMPLE",
        ),
        (
            CredentialKind::GithubToken,
            format!("token {ghp}"),
            "a1B2c3D4e5",
        ),
        (
            CredentialKind::SlackToken,
            "xoxb-1234567890-abcdefghij".into(),
            "1234567890-abcdefghij",
        ),
        (
            CredentialKind::GoogleApiKey,
            format!("key={google}"),
            "Sy0123456789",
        ),
        (
            CredentialKind::Jwt,
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0".into(),
            "dozjgNryP4J3jVmNHl0w5N_XgL0",
        ),
        (
            CredentialKind::PrivateKey,
            "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34\n-----END RSA PRIVATE KEY-----"
                .into(),
            "MIIBOgIBAAJBAKj34",
        ),
    ];
    let r = CredentialFilter::default();
    for (kind, text, secret) in &cases {
        assert!(
            CredentialFilter::detect(text).contains(kind),
            "{kind:?} not detected in {text:?}"
        );
        let out = r.redact(text);
        assert!(
            !out.contains(secret),
            "{kind:?}: {secret:?} survived in {out:?}"
        );
        assert!(out.contains("[redacted]"), "{kind:?}: {out:?}");
    }
    // Ordinary text is left alone.
    let plain = "Sign up for a Pro account; click Submit, then pass the password field";
    assert_eq!(r.redact(plain), plain);
    assert!(CredentialFilter::detect(plain).is_empty());
}

#[test]
fn the_writer_redacts_every_string_field_and_bounds_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let mut w = TrajectoryWriter::create(
        &path,
        CredentialFilter::new(arc_core::Redactor::new(["s3cret-literal"])),
    )
    .unwrap();
    let mut r = TrajectoryRecord::new("run", "task", 1, StepKind::Acted);
    let mut d = Decision::act(Action::click("ok"));
    d.raw = Some(serde_json::json!({
        "headers": {"Authorization": "Bearer deep-nested-token"},
        "note": ["the s3cret-literal again"],
    }));
    r.decision = Some(d);
    r.target_name = Some("Pay with s3cret-literal".into());
    w.write(&r).unwrap();
    // An oversized record is shrunk to its line bound, still redacted.
    r.error_detail = Some(format!("s3cret-literal {}", "x".repeat(200_000)));
    w.write(&r).unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("deep-nested-token") && !text.contains("s3cret-literal"));
    assert!(text.contains("Bearer [redacted]") && text.contains("the [secret] again"));
    for line in text.lines() {
        assert!(
            line.len() < arc_policy::trajectory::MAX_LINE_BYTES,
            "{}",
            line.len()
        );
    }
    let back = read_trajectory(&path).unwrap();
    assert_eq!(back.len(), 2);
    assert!(!back[0].truncated && back[1].truncated);
    assert_eq!(back[1].target_name.as_deref(), Some("Pay with [secret]"));
    assert!(back[1]
        .error_detail
        .as_deref()
        .unwrap()
        .starts_with("[secret] xxx"));
}

// ---- the auto-labeler on a hand-built trajectory ------------------------------------

fn rec(run: &str, step: u32, target: &str, before: &str, after: &str) -> TrajectoryRecord {
    let mut r = TrajectoryRecord::new(run, "t", step, StepKind::Acted);
    r.action_type = Some(ActionKind::Click);
    r.target_locator = Some(target.into());
    r.target_role = Some("button".into());
    r.target_name = Some(target.to_uppercase());
    r.state_hash_before = before.into();
    r.state_hash_after = after.into();
    r.state_changed = before != after;
    r.hamming_distance = u32::from(r.state_changed);
    r
}

fn failed(mut r: TrajectoryRecord, f: StepFailure) -> TrajectoryRecord {
    r.error_type = Some(f);
    r.error_detected = true;
    r.execution_success = f.executed();
    r.readiness_passed = f != StepFailure::ReadinessTimeout;
    if f == StepFailure::Stale {
        r.event = StepKind::Stale;
    }
    r
}

fn hand_built() -> Vec<TrajectoryRecord> {
    let mut out = vec![
        // Run A: an A-B-A oscillation of clean transitions.
        rec("A", 1, "toggle", "X", "Y"),
        rec("A", 2, "toggle", "Y", "X"),
        rec("A", 3, "toggle", "X", "Y"),
        // Run B: no change three times, then the same target goes stale twice.
        rec("B", 1, "save", "S", "S"),
        rec("B", 2, "save", "S", "S"),
        rec("B", 3, "save", "S", "S"),
        failed(rec("B", 4, "submit", "S", "S"), StepFailure::Stale),
        failed(rec("B", 5, "submit", "S", "S"), StepFailure::Stale),
    ];
    // Run C: readiness timeouts (one showing the goal text, which must not count),
    // exceptions on two targets, then a clean navigation to the target URL.
    let mut c1 = failed(
        rec("C", 1, "load", "c0", "c1"),
        StepFailure::ReadinessTimeout,
    );
    c1.milestone_signals = vec![MilestoneSignal::TextAppeared];
    let c2 = failed(
        rec("C", 2, "load", "c1", "c2"),
        StepFailure::ReadinessTimeout,
    );
    let c3 = failed(rec("C", 3, "a", "c2", "c2"), StepFailure::ActionException);
    let c4 = failed(rec("C", 4, "b", "c2", "c2"), StepFailure::ActionException);
    let mut c5 = rec("C", 5, "home", "c2", "c3");
    c5.url_changed = true;
    c5.milestone_signals = vec![
        MilestoneSignal::DeclaredStateChange,
        MilestoneSignal::TargetUrlReached,
        MilestoneSignal::StateAdvanced,
    ];
    out.extend([c1, c2, c3, c4, c5]);
    let mut end = TrajectoryRecord::new("C", "t", 6, StepKind::Finished);
    end.status = Some(TerminalKind::SubtaskComplete);
    out.push(end);
    out
}

#[test]
fn the_labeler_gives_the_expected_labels() {
    use MilestoneLabel::*;
    use StuckLabel::*;
    let labeled = label(&hand_built());
    let got: Vec<(String, u32, Vec<StuckLabel>, Vec<MilestoneLabel>)> = labeled
        .steps
        .iter()
        .map(|s| {
            (
                s.run_id.clone(),
                s.step_id,
                s.stuck.clone(),
                s.milestone.clone(),
            )
        })
        .collect();
    let want: Vec<(String, u32, Vec<StuckLabel>, Vec<MilestoneLabel>)> = vec![
        ("A".into(), 1, vec![], vec![CleanTransition]),
        ("A".into(), 2, vec![], vec![CleanTransition]),
        (
            "A".into(),
            3,
            vec![CyclicOscillation],
            vec![CleanTransition],
        ),
        ("B".into(), 1, vec![], vec![]),
        ("B".into(), 2, vec![], vec![]),
        ("B".into(), 3, vec![ThreeConsecutiveNoChange], vec![]),
        ("B".into(), 4, vec![ThreeConsecutiveNoChange], vec![]),
        (
            "B".into(),
            5,
            vec![ThreeConsecutiveNoChange, SameTargetFailing],
            vec![],
        ),
        ("C".into(), 1, vec![], vec![]),
        ("C".into(), 2, vec![RepeatedReadinessTimeouts], vec![]),
        ("C".into(), 3, vec![RepeatedReadinessTimeouts], vec![]),
        (
            "C".into(),
            4,
            vec![RepeatedReadinessTimeouts, RepeatedActionExceptions],
            vec![],
        ),
        (
            "C".into(),
            5,
            vec![RepeatedReadinessTimeouts, RepeatedActionExceptions],
            vec![DeclaredStateChange, TargetUrlReached, CleanTransition],
        ),
    ];
    assert_eq!(got, want);
    let s = &labeled.summary;
    assert_eq!(
        (s.runs, s.steps, s.stuck_steps, s.milestone_steps),
        (3, 13, 8, 4)
    );
    assert_eq!(s.stuck_counts[&ThreeConsecutiveNoChange], 3);
    assert_eq!(s.milestone_counts[&CleanTransition], 4);

    // Deterministic, and written as the seed's three artifacts.
    assert_eq!(label(&hand_built()), labeled);
    let dir = tempfile::tempdir().unwrap();
    labeled.write_to(dir.path()).unwrap();
    let stuck = std::fs::read_to_string(dir.path().join("stuck.jsonl")).unwrap();
    assert_eq!(stuck.lines().count(), 8);
    let milestone = std::fs::read_to_string(dir.path().join("milestone.jsonl")).unwrap();
    assert_eq!(milestone.lines().count(), 4);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["stuck_counts"]["SAME_TARGET_FAILING"], 1);
}

// ---- the 16-feature builder ----------------------------------------------------------

#[test]
fn features_are_sixteen_named_values() {
    let records = hand_built();
    let run_b: Vec<&TrajectoryRecord> = records.iter().filter(|r| r.run_id == "B").collect();
    let f = Features::of_window(&run_b);
    let values = f.values();
    assert_eq!(values.len(), 16);
    let names: Vec<&str> = values.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, FEATURE_NAMES);
    let json = serde_json::to_value(&f).unwrap();
    let mut keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let mut want = FEATURE_NAMES.to_vec();
    want.sort_unstable();
    assert_eq!(keys, want, "the serialized names are the feature names");

    assert_eq!(f.window_size, 5);
    assert_eq!(
        f.action_repeat_count, 1,
        "one earlier stale click on submit"
    );
    assert_eq!(f.locator_repeat_count, 1);
    assert_eq!(f.locator_failure_count, 2);
    assert_eq!(f.consecutive_no_state_change, 5);
    assert_eq!(f.hamming_distance_sequence, [0, 0, 0, 0, 0]);
    assert!(f.error_detected && !f.url_changed && !f.state_hash_cycle_detected);
    assert_eq!(f.action_type_sequence, ["CLICK"; 5]);
    assert_eq!(
        f.target_name_sequence,
        ["SAVE", "SAVE", "SAVE", "SUBMIT", "SUBMIT"]
    );

    let run_a: Vec<&TrajectoryRecord> = records.iter().filter(|r| r.run_id == "A").collect();
    assert!(Features::of_window(&run_a).state_hash_cycle_detected);
    let per_step = arc_policy::trajectory::features_per_step(&records);
    assert_eq!(per_step.len(), 13);
    assert!(per_step.iter().all(|f| f.window_size <= 5));
}

// ---- trace replay --------------------------------------------------------------------

#[tokio::test]
async fn a_recorded_run_replays_against_the_simulated_app() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.jsonl");
    let records = record_run(&path, "run-r").await;
    let subtask = secret_subtask();

    let report = replay(&records, &subtask, SignupApp::backend(), config())
        .await
        .unwrap();
    assert!(report.reproduced(), "{:?}", report.divergences);
    assert_eq!(report.steps_compared, 5);
    assert_eq!(report.replayed.status, TerminalKind::SubtaskComplete);
    assert_eq!(report.recorded_status, Some(TerminalKind::SubtaskComplete));

    // A recording altered after the fact is reported as diverging: a flipped change
    // flag, a different final status, a decision that no longer matches its outcome.
    let mut flipped = records.clone();
    flipped[1].state_changed = false;
    let report = replay(&flipped, &subtask, SignupApp::backend(), config())
        .await
        .unwrap();
    assert!(!report.reproduced());
    assert_eq!(report.divergences.len(), 1, "{:?}", report.divergences);
    assert_eq!(report.divergences[0].field, DivergenceField::StateChanged);
    assert_eq!(report.divergences[0].step, Some(1));

    let mut status = records.clone();
    status.last_mut().unwrap().status = Some(TerminalKind::Blocked);
    let report = replay(&status, &subtask, SignupApp::backend(), config())
        .await
        .unwrap();
    assert_eq!(
        report
            .divergences
            .iter()
            .map(|d| d.field)
            .collect::<Vec<_>>(),
        [DivergenceField::Status]
    );

    let mut retargeted = records.clone();
    retargeted[3].decision = Some(Decision::act(Action::click("plan")));
    let report = replay(&retargeted, &subtask, SignupApp::backend(), config())
        .await
        .unwrap();
    assert!(
        report
            .divergences
            .iter()
            .any(|d| d.field == DivergenceField::Target && d.step == Some(3)),
        "{:?}",
        report.divergences
    );
}

// ---- the loop's monitors, URL-aware, in real Chromium ---------------------------------

const SITE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/site");

#[tokio::test]
async fn in_chromium_a_url_change_on_a_page_with_the_same_dom_is_a_change() {
    use arc_browser::backend::{BrowserBackend, BrowserOptions};
    use arc_browser::StaticServer;
    // The twin pages are one page at two URLs.
    let a = std::fs::read(format!("{SITE}/same-dom-a.html")).unwrap();
    let b = std::fs::read(format!("{SITE}/same-dom-b.html")).unwrap();
    assert_eq!(a, b);

    let server = StaticServer::start(SITE)
        .await
        .expect("serves fixtures/site");
    let backend = BrowserBackend::start(BrowserOptions::default(), &server.url("same-dom-a.html"))
        .await
        .expect("headless Chromium starts");
    // Three pushes of the other twin's URL (same document, same DOM: before the loop was
    // URL-aware, three "unchanged" clicks hit the no-change limit), then a navigation.
    let state = r#"{"kind": "CLICK", "target": {"role": "button", "name": "Next state"}}"#;
    let page = r#"{"kind": "CLICK", "target": {"role": "button", "name": "Next page"}}"#;
    let script =
        format!(r#"[{state}, {state}, {state}, {page}, {{"terminal": "SUBTASK_COMPLETE"}}]"#);
    let policy = arc_sim::LabelledScript::from_json(&script).unwrap();
    let subtask = Subtask::new(
        "Visit the twin pages",
        "The URL ends with \"/same-dom-a.html\"",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twins.jsonl");
    let mut log = TrajectoryLog::create(&path, info("twins"), &subtask).unwrap();
    let mut exec = Executor::new(backend, policy, RuntimeConfig::default());
    let mut events = Vec::new();
    let result = exec
        .run_with(&subtask, |e| {
            log.on_event(&e);
            events.push(e);
        })
        .await;
    assert_eq!(log.finish().unwrap(), 5);
    assert!(result.is_complete(), "{result:?}");

    // The page's own record: where it is, and how it got there.
    let (backend, _) = exec.into_parts();
    let path_now = backend.page().evaluate("location.pathname").await.unwrap();
    assert_eq!(path_now, "/same-dom-a.html");
    let entries = backend.page().evaluate("history.length").await.unwrap();
    // The tab's about:blank, the first page, 3 pushes and 1 navigation.
    assert_eq!(entries, 6);

    // The loop: every click was a change; the monitors saw each URL change, once.
    assert_eq!(result.actions_taken, 4);
    assert!(result.history.iter().all(|r| r.state_changed), "{result:?}");
    let verdicts: Vec<_> = events
        .iter()
        .filter_map(|e| e.verdict.as_deref().map(|v| (e.cycle, v)))
        .collect();
    assert_eq!(verdicts.len(), 4);
    // The pushes left the elements exactly as they were: only the URL made them a change.
    let elements_only = |s: &arc_core::Snapshot| {
        arc_core::Snapshot::fingerprint(&s.application, &s.window, &s.elements)
    };
    for pair in events[..4].windows(2) {
        assert_eq!(
            elements_only(&pair[0].snapshot),
            elements_only(&pair[1].snapshot)
        );
        assert_ne!(pair[0].snapshot.url(), pair[1].snapshot.url());
    }
    for (cycle, v) in &verdicts {
        assert_eq!(v.step, *cycle, "one monitor step per cycle");
        assert!(v.signal.url_changed, "{v:?}");
        assert!(v.stuck.patterns.is_empty(), "{v:?}");
        assert_eq!(v.controller.action, arc_core::ControllerAction::Continue);
    }

    // The trajectory carries the loop's word, not a second opinion.
    let records = read_trajectory(&path).unwrap();
    for (r, (_, v)) in records.iter().zip(&verdicts) {
        assert!(r.url_changed && r.state_changed, "{r:?}");
        assert_ne!(r.url_before, r.url_after);
        assert_eq!(r.escalation_decision, Some(v.controller.action));
        assert_eq!(r.monitor_stuck_score, v.stuck.score);
        assert_eq!(r.milestone_signals, v.milestone.signals);
        assert_eq!(r.locator_strategy, Some(arc_core::Tier::Script));
        assert!(!r.recovery_attempted);
    }
}
