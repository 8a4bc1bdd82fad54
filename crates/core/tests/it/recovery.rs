//! The recovery compiler rejects every forbidden plan before any step runs, naming the
//! step and the rule, and compiles a valid one to decisions (seed §5.5).

use arc_core::recovery::{compile, RecoveryCheck, MAX_PLAN_STEPS};
use arc_core::{
    Action, ActionKind, Choice, Element, Key, RecoveryError, RecoveryPlan, RecoveryRule,
    RecoveryStep, Role, ScrollDirection, Snapshot, Subtask, TerminalKind,
};

fn snapshot() -> Snapshot {
    let mut ok = Element::new("ok", Role::Button, "OK");
    ok.actions = [ActionKind::Click].into();
    let mut name = Element::new("name", Role::TextField, "Name");
    name.actions = [ActionKind::Click, ActionKind::TypeText].into();
    let mut plan = Element::new("plan", Role::ComboBox, "Plan");
    plan.actions = [ActionKind::Click, ActionKind::SelectOption].into();
    let label = Element::new("label", Role::StaticText, "Welcome");
    Snapshot::new("App", "Main", vec![ok, name, plan, label])
}

fn subtask() -> Subtask {
    Subtask::new("Recover", "done")
        .with_input("name", "Ada")
        .with_input("plan", "Pro")
        .with_input("home", "https://example.com/home")
        .with_input("evil", "  JavaScript:alert(1)")
}

fn step(verb: &str) -> RecoveryStep {
    RecoveryStep::new(verb)
}

fn reject(plan: RecoveryPlan) -> RecoveryError {
    match compile(&plan, &snapshot(), &subtask()) {
        Ok(c) => panic!("accepted a forbidden plan: {c:?}"),
        Err(e) => e,
    }
}

fn reject_one(s: RecoveryStep) -> RecoveryError {
    // Put the bad step second so the error must name its index.
    reject(RecoveryPlan::new(vec![step("CLICK").target("ok"), s]))
}

fn goto(url: &str) -> RecoveryStep {
    RecoveryStep {
        url: Some(url.into()),
        ..step("GOTO")
    }
}

#[test]
fn unknown_verb() {
    let e = reject_one(step("EXECUTE_JS"));
    assert_eq!(e.rule, RecoveryRule::UnknownVerb);
    assert_eq!(e.step, Some(1));
    assert!(
        e.to_string().contains("step 1 (EXECUTE_JS): UNKNOWN_VERB"),
        "{e}"
    );
}

#[test]
fn missing_target() {
    for verb in ["CLICK", "TYPE", "SELECT", "ASSERT_VISIBLE", "ASSERT_TEXT"] {
        let e = reject_one(step(verb));
        assert_eq!(e.rule, RecoveryRule::MissingTarget, "{verb}: {e}");
        assert_eq!(e.step, Some(1));
    }
}

#[test]
fn target_not_in_snapshot() {
    let e = reject_one(step("CLICK").target("close-modal"));
    assert_eq!(e.rule, RecoveryRule::TargetNotInSnapshot);
    assert!(e.detail.contains("close-modal"), "{e}");
    // A target that exists but cannot take the operation is refused too.
    let e = reject_one(step("CLICK").target("label"));
    assert_eq!(e.rule, RecoveryRule::TargetDoesNotOffer);
}

#[test]
fn forbidden_navigation_schemes_however_spelled() {
    for url in [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "\tjava\nscript:alert(1)",
        "%6Aavascript:alert(1)",
        "%256Aavascript:alert(1)",
        "file:///etc/passwd",
        "FILE:///etc/passwd",
        "data:text/html,<script>alert(1)</script>",
        " DaTa:text/html;base64,PHNjcmlwdD4=",
        "%64ata:text/html,x",
    ] {
        let e = reject_one(goto(url));
        assert_eq!(e.rule, RecoveryRule::ForbiddenScheme, "{url:?}: {e}");
        assert_eq!(e.step, Some(1));
    }
    // The literal behind an input key is checked as well.
    let e = reject_one(RecoveryStep {
        input_key: Some("evil".into()),
        ..step("GOTO")
    });
    assert_eq!(e.rule, RecoveryRule::ForbiddenScheme, "{e}");
    // Anything that is not absolute http(s) is refused.
    for url in ["ftp://example.com", "/relative", "example.com"] {
        assert_eq!(
            reject_one(goto(url)).rule,
            RecoveryRule::UnsupportedUrl,
            "{url}"
        );
    }
    // And a model cannot invent a destination the planner did not supply.
    assert_eq!(
        reject_one(goto("https://attacker.test/")).rule,
        RecoveryRule::UrlNotInInputs
    );
}

#[test]
fn waits_are_bounded_at_sixty_seconds() {
    let wait = |ms| RecoveryStep {
        wait_ms: Some(ms),
        ..step("WAIT")
    };
    let e = reject_one(wait(61_000));
    assert_eq!(e.rule, RecoveryRule::WaitTooLong);
    assert!(e.detail.contains("61000"), "{e}");
    let ok = RecoveryPlan::new(vec![wait(60_000)]);
    assert!(compile(&ok, &snapshot(), &subtask()).is_ok());
}

#[test]
fn plans_are_bounded_and_non_empty() {
    let long = RecoveryPlan::new(vec![step("NOOP"); MAX_PLAN_STEPS + 1]);
    let e = reject(long);
    assert_eq!(e.rule, RecoveryRule::PlanTooLong);
    assert_eq!(e.step, None);
    assert_eq!(
        reject(RecoveryPlan::new(vec![])).rule,
        RecoveryRule::EmptyPlan
    );
    let max = RecoveryPlan::new(vec![step("NOOP"); MAX_PLAN_STEPS]);
    assert!(compile(&max, &snapshot(), &subtask()).is_ok());
}

#[test]
fn literals_come_only_from_the_subtask() {
    // A plan cannot carry text to type: the field does not exist.
    let e = RecoveryPlan::from_json(
        r#"{"steps":[{"verb":"TYPE","target":"name","value":"rm -rf /"}]}"#,
    )
    .unwrap_err();
    assert_eq!(e.rule, RecoveryRule::InvalidPayload);
    let e = reject_one(RecoveryStep {
        input_key: Some("password".into()),
        ..step("TYPE").target("name")
    });
    assert_eq!(e.rule, RecoveryRule::UnknownInputKey);
}

#[test]
fn other_malformed_steps() {
    let e = reject_one(RecoveryStep {
        url: Some("https://example.com/home".into()),
        ..step("CLICK").target("ok")
    });
    assert_eq!(e.rule, RecoveryRule::FieldNotAllowed);
    assert_eq!(
        reject_one(step("PRESS_KEY")).rule,
        RecoveryRule::MissingField
    );
    assert_eq!(reject_one(step("SCROLL")).rule, RecoveryRule::MissingField);
    let e = reject(RecoveryPlan::new(vec![step("ESCALATE"), step("NOOP")]));
    assert_eq!(e.rule, RecoveryRule::EscalateNotLast);
    assert_eq!(e.step, Some(0));
}

#[test]
fn a_valid_plan_compiles_to_decisions() {
    let json = r#"{
        "plan_id": "p1",
        "root_cause": "the modal covered the form",
        "steps": [
            {"verb": "click", "target": "ok"},
            {"verb": "TYPE", "target": "name", "input_key": "name"},
            {"verb": "SELECT", "target": "plan", "input_key": "plan"},
            {"verb": "ASSERT_TEXT", "target": "label", "text": "Welcome"},
            {"verb": "SCROLL", "direction": "DOWN"},
            {"verb": "PRESS_KEY", "key": "ENTER"},
            {"verb": "WAIT", "wait_ms": 1500},
            {"verb": "GOTO", "url": " https://example.com/home "},
            {"verb": "NOOP"},
            {"verb": "ESCALATE"}
        ]
    }"#;
    let plan = RecoveryPlan::from_json(json).unwrap();
    let c = compile(&plan, &snapshot(), &subtask()).unwrap();
    let actions: Vec<Option<Action>> = c.decisions.iter().map(|d| d.action().cloned()).collect();
    assert_eq!(
        actions,
        [
            Some(Action::click("ok")),
            Some(Action::type_text("name", "name")),
            Some(Action::SelectOption {
                target: "plan".into(),
                input_key: "plan".into()
            }),
            Some(Action::Scroll {
                direction: ScrollDirection::Down,
                target: None
            }),
            Some(Action::PressKey { key: Key::Enter }),
            Some(Action::Wait),
            Some(Action::Navigate {
                input_key: "home".into()
            }),
            None,
        ]
    );
    assert_eq!(
        c.decisions.last().unwrap().choice,
        Choice::Terminal(TerminalKind::NeedsAgent)
    );
    assert!(c.escalates);
    assert_eq!(
        c.checks,
        [(
            3,
            RecoveryCheck::Text {
                target: "label".into(),
                text: "Welcome".into()
            }
        )]
    );
    // Each decision says where it came from.
    assert_eq!(c.decisions[0].tier(), Some(arc_core::Tier::Recovery));
    let raw = c.decisions[0].raw.as_ref().unwrap();
    assert_eq!(raw["recovery"]["plan_id"], "p1");
    assert_eq!(raw["recovery"]["verb"], "CLICK");
    assert!(c.decisions[0].reason.as_deref().unwrap().contains("p1"));
}
