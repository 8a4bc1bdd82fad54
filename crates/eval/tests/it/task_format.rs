//! The task file format: strict parsing, the fixture suite's files, shard arithmetic, and
//! the assertion engine on the simulated app (no browser needed).

use arc_core::{Backend, TerminalKind};
use arc_eval::assert::sim;
use arc_eval::{suite, Assertion, Category, EvalError, Mode, RunOptions, Shard, Start, Task};
use serde_json::{json, Value};

fn task(extra: Value) -> Value {
    let mut t = json!({
        "id": "t1",
        "category": "form",
        "start": {"page": "form.html"},
        "subtask": {"goal": "Submit the form", "verification": ["The page shows \"Thank you\""]},
        "assertions": [{"type": "visible_text", "text": "Thank you"}]
    });
    for (k, v) in extra.as_object().unwrap() {
        t[k] = v.clone();
    }
    t
}

fn parse(v: Value) -> Result<Task, EvalError> {
    Task::from_json(&v.to_string(), "test.json")
}

#[test]
fn the_fixture_suite_loads_one_task_per_category() {
    let tasks = suite::fixture_suite().unwrap();
    assert_eq!(tasks.len(), 12);
    let mut categories: Vec<&Category> = tasks.iter().map(|t| &t.category).collect();
    categories.dedup();
    assert_eq!(categories.len(), 12);
    assert!(categories.iter().all(|c| !matches!(c, Category::Other(_))));
    for t in &tasks {
        let Start::Page(page) = &t.start else {
            panic!("{} starts off the site", t.id)
        };
        assert!(suite::fixture_site_dir().join(page).is_file(), "{page}");
        // Round trip: what is read is what is written.
        let back: Task = serde_json::from_value(serde_json::to_value(t).unwrap()).unwrap();
        assert_eq!(&back, t);
    }
    let negative: Vec<&str> = tasks
        .iter()
        .filter(|t| !t.expect.accepts(TerminalKind::SubtaskComplete))
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(
        negative,
        ["inert-button", "missing-locator", "hidden-element"]
    );
}

#[test]
fn defaults_and_overrides() {
    let t = parse(task(json!({"max_actions": 3, "reference_steps": 2}))).unwrap();
    assert!(t.expect.is_positive());
    assert_eq!(t.effective_subtask().max_actions, 3);
    assert_eq!(t.subtask.max_actions, 30);
    let t = parse(task(json!({"expect": "NEEDS_AGENT"}))).unwrap();
    assert_eq!(t.expect.statuses(), [TerminalKind::NeedsAgent]);
    let t = parse(task(
        json!({"expect": ["BLOCKED", "NEEDS_AGENT", "BLOCKED"]}),
    ))
    .unwrap();
    assert_eq!(
        t.expect.statuses(),
        [TerminalKind::Blocked, TerminalKind::NeedsAgent]
    );
    let t = parse(task(json!({"category": "webarena_shopping"}))).unwrap();
    assert_eq!(t.category, Category::Other("webarena_shopping".into()));
    let t = parse(task(json!({"start": {"sim": "signup"}}))).unwrap();
    assert!(matches!(t.start, Start::Sim(_)));
}

#[test]
fn unknown_fields_and_broken_rules_are_refused_with_the_file_name() {
    let cases = [
        (task(json!({"steps": 3})), "unknown field `steps`"),
        (
            task(json!({"subtask": {"goal": "x", "verification": ["y"], "budget": 2}})),
            "unknown field `budget`",
        ),
        (
            task(json!({"assertions": [{"type": "visible_text", "text": "x", "exact": true}]})),
            "unknown field `exact`",
        ),
        (
            task(json!({"assertions": [{"type": "url", "contains": "a", "matches": "b"}]})),
            "exactly one of",
        ),
        (
            task(json!({"assertions": [{"type": "url", "matches": "(unclosed"}]})),
            "not a valid regex",
        ),
        (
            task(
                json!({"assertions": [{"type": "element_state", "target": {"role": "tab"}, "state": "visible"}]}),
            ),
            "`role` and `name`",
        ),
        (
            task(
                json!({"assertions": [{"type": "element_state", "target": {"selector": "#x"}, "state": "shiny"}]}),
            ),
            "unknown variant `shiny`",
        ),
        (
            task(json!({"assertions": [{"type": "smells_right"}]})),
            "unknown variant `smells_right`",
        ),
        (task(json!({"assertions": []})), "at least one assertion"),
        (task(json!({"expect": []})), "at least one status"),
        (task(json!({"expect": "DONE"})), "expect"),
        (task(json!({"id": "Has Spaces"})), "must be non-empty"),
        (
            task(json!({"start": {"page": "../secret.html"}})),
            "inside the site",
        ),
        (
            task(json!({"start": {"url": "file:///etc/passwd"}})),
            "http(s)",
        ),
        (
            task(json!({"start": {"sim": "bank"}})),
            "unknown variant `bank`",
        ),
        (
            task(json!({"subtask": {"goal": " ", "verification": ["y"]}})),
            "subtask",
        ),
        (task(json!({"max_actions": 0})), "at least 1"),
    ];
    for (value, needle) in cases {
        let err = parse(value.clone())
            .expect_err(&value.to_string())
            .to_string();
        assert!(err.starts_with("test.json: "), "{err}");
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
}

#[test]
fn duplicate_ids_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.json", "b.json"] {
        std::fs::write(dir.path().join(name), task(json!({})).to_string()).unwrap();
    }
    std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
    let err = suite::load_dir(dir.path()).unwrap_err().to_string();
    assert!(
        err.contains("\"t1\" appears more than once")
            && err.contains("a.json")
            && err.contains("b.json"),
        "{err}"
    );
}

#[test]
fn shards_partition_the_suite() {
    let s: Shard = "2/3".parse().unwrap();
    assert_eq!(
        (s.index(), s.count(), s.to_string()),
        (2, 3, "2/3".to_owned())
    );
    let held: Vec<usize> = (0..8).filter(|&i| s.holds(i)).collect();
    assert_eq!(held, [1, 4, 7]);
    for bad in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    for n in 1..=5u32 {
        let mut owners = vec![0; 13];
        for k in 1..=n {
            let s = Shard::new(k, n).unwrap();
            (0..13).filter(|&i| s.holds(i)).for_each(|i| owners[i] += 1);
        }
        assert!(owners.iter().all(|&o| o == 1), "{n}: {owners:?}");
    }
    assert_eq!(serde_json::to_value(s).unwrap(), json!("2/3"));
    assert_eq!("cascade".parse::<Mode>().unwrap(), Mode::Cascade);
}

fn assertion(v: Value) -> Assertion {
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn the_simulated_app_is_checked_on_the_harness_own_observation() {
    let mut app = arc_sim::SignupApp::backend();
    let snapshot = app.observe().await.unwrap();
    let before = sim::fingerprint(&snapshot);
    let checks = [
        (
            json!({"type": "visible_text", "text": "Create your account"}),
            true,
        ),
        (json!({"type": "visible_text", "text": "Welcome"}), false),
        (
            json!({"type": "element_state", "target": {"role": "checkbox", "name": "I accept the terms"}, "state": "unchecked"}),
            true,
        ),
        (
            json!({"type": "element_state", "target": {"role": "checkbox", "name": "I accept the terms"}, "state": "checked"}),
            false,
        ),
        (
            json!({"type": "element_state", "target": {"selector": "#email"}, "state": "enabled"}),
            true,
        ),
        (
            json!({"type": "element_state", "target": {"selector": "#nope"}, "state": "detached"}),
            true,
        ),
        (
            json!({"type": "input_value", "target": {"selector": "#plan"}, "value": "Free"}),
            true,
        ),
        (
            json!({"type": "input_value", "target": {"selector": "#plan"}, "value": "Pro"}),
            false,
        ),
        (json!({"type": "url", "contains": "/"}), false),
        (json!({"type": "state_changed", "changed": false}), true),
        (json!({"type": "state_changed"}), false),
    ];
    for (a, pass) in checks {
        let o = sim::check(&snapshot, &assertion(a), Some(&before));
        assert_eq!(o.passed(), pass, "{} → {}", o.assertion, o.message);
    }
}

#[tokio::test]
async fn a_simulated_app_task_runs_without_a_browser() {
    let t = parse(json!({
        "id": "sim-signup",
        "category": "form",
        "start": {"sim": "signup"},
        "subtask": {
            "goal": "Sign up with the email address, choose the plan and accept the terms",
            "inputs": {"email": "ada@example.com", "plan": "Pro"},
            "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]
        },
        "assertions": [
            {"type": "visible_text", "text": "Welcome, ada@example.com!"},
            {"type": "input_value", "target": {"selector": "#plan"}, "value": "Pro"},
            {"type": "state_changed"}
        ],
        "reference_steps": 4
    }))
    .unwrap();
    for mode in [Mode::Reflex, Mode::Cascade] {
        let opts = RunOptions::new(mode);
        let run = arc_eval::run_suite(std::slice::from_ref(&t), &opts)
            .await
            .unwrap();
        let r = &run.tasks[0];
        assert!(
            r.success,
            "{mode}: {:?} {:?} {:#?}",
            r.status, r.reason, r.assertions
        );
        assert_eq!(r.steps as usize, r.trace.len());
        assert_eq!(r.tiers.is_some(), mode == Mode::Cascade);
    }
}
