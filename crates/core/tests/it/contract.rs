//! The JSON boundary: reference payloads accepted verbatim, every validation rule with
//! an error naming its field, and round trips.

use arc_core::Criterion;
use arc_core::{
    ActionRecord, Decision, ElementFacts, ErrorCode, ExecutionResult, InputType, ObservationScope,
    Risk, Scalar, Snapshot, Subtask, TerminalKind,
};
use proptest::prelude::*;
use rstest::rstest;
use serde_json::json;

/// The payloads printed in the reference README and API reference.
#[rstest]
#[case(r#"{"goal": "Play Get Lucky by Daft Punk in Spotify", "inputs": {"search_query": "Get Lucky Daft Punk"}, "verification": ["Spotify shows Get Lucky as the current track"], "constraints": ["Do not modify the user's library"], "max_actions": 15}"#)]
#[case(
    r#"{
  "goal": "Open Effects and search for Gaussian Blur",
  "verification": [
    "The Effects search field contains Gaussian Blur"
  ],
  "inputs": {
    "effect_name": "Gaussian Blur"
  },
  "constraints": [
    "Do not modify another clip"
  ],
  "max_actions": 15
}"#
)]
#[case(r#"{"goal": "Search for cats", "verification": ["Search field contains cats"], "inputs": {"query": "cats"}}"#)]
#[case(
    r#"{"goal": "g", "verification": ["v"], "metadata": {"trace": {"id": [1, 2, {"x": null}]}}}"#
)]
fn reference_payloads_are_accepted_unchanged(#[case] payload: &str) {
    let subtask = Subtask::from_json(payload).expect("reference payload must parse");
    // Everything the payload said is kept, field for field.
    let original: serde_json::Value = serde_json::from_str(payload).unwrap();
    let normalized = serde_json::to_value(&subtask).unwrap();
    for (key, value) in original.as_object().unwrap() {
        assert_eq!(&normalized[key], value, "field {key}");
    }
}

#[test]
fn defaults_follow_the_reference() {
    let s = Subtask::from_json(r#"{"goal": "g", "verification": ["v"]}"#).unwrap();
    assert_eq!(s.max_actions, 30);
    assert!(s.inputs.is_empty() && s.constraints.is_empty() && s.allowed_risks.is_empty());
}

#[test]
fn the_extensions_parse() {
    let s = Subtask::from_json(
        r#"{"goal": "Log in", "verification": ["Signed in"], "inputs": {"user": "ada", "pw": "x", "remember": true, "pin": 1234, "ratio": 0.5},
            "secret_inputs": ["pw"], "allowed_risks": ["send", "close"], "shortcuts": ["mod+shift+p", "CTRL+F5"]}"#,
    )
    .unwrap();
    assert_eq!(s.inputs["remember"], Scalar::Bool(true));
    assert_eq!(s.inputs["pin"], Scalar::Int(1234));
    assert_eq!(s.inputs["ratio"], Scalar::Float(0.5));
    assert!(s.is_secret("pw") && s.allows(Risk::Send) && !s.allows(Risk::Delete));
    assert_eq!(
        s.shortcuts
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>(),
        ["MOD+SHIFT+P", "CTRL+F5"]
    );
}

/// Each rule of DESIGN §1, with the field the error must name.
#[rstest]
#[case::unknown_field(
    r#"{"goal": "g", "verification": ["v"], "colour": "red"}"#,
    "colour",
    ErrorCode::UnknownField
)]
#[case::missing_goal(r#"{"verification": ["v"]}"#, "payload", ErrorCode::InvalidPayload)]
#[case::empty_goal(
    r#"{"goal": "  ", "verification": ["v"]}"#,
    "goal",
    ErrorCode::InvalidPayload
)]
#[case::bare_string_verification(
    r#"{"goal": "g", "verification": "it works"}"#,
    "verification",
    ErrorCode::InvalidPayload
)]
#[case::empty_verification(
    r#"{"goal": "g", "verification": []}"#,
    "verification",
    ErrorCode::InvalidPayload
)]
#[case::blank_criterion(
    r#"{"goal": "g", "verification": ["ok", ""]}"#,
    "verification[1]",
    ErrorCode::InvalidPayload
)]
#[case::missing_verification(r#"{"goal": "g"}"#, "payload", ErrorCode::InvalidPayload)]
#[case::zero_max_actions(
    r#"{"goal": "g", "verification": ["v"], "max_actions": 0}"#,
    "max_actions",
    ErrorCode::InvalidPayload
)]
#[case::bool_max_actions(
    r#"{"goal": "g", "verification": ["v"], "max_actions": true}"#,
    "max_actions",
    ErrorCode::InvalidPayload
)]
#[case::fractional_max_actions(
    r#"{"goal": "g", "verification": ["v"], "max_actions": 2.5}"#,
    "max_actions",
    ErrorCode::InvalidPayload
)]
#[case::negative_max_actions(
    r#"{"goal": "g", "verification": ["v"], "max_actions": -1}"#,
    "max_actions",
    ErrorCode::InvalidPayload
)]
#[case::overflowing_number(
    r#"{"goal": "g", "verification": ["v"], "inputs": {"x": 1e999}}"#,
    "inputs.x",
    ErrorCode::InvalidPayload
)]
#[case::nested_input(
    r#"{"goal": "g", "verification": ["v"], "inputs": {"x": {"y": 1}}}"#,
    "inputs.x",
    ErrorCode::InvalidPayload
)]
#[case::null_input(
    r#"{"goal": "g", "verification": ["v"], "inputs": {"x": null}}"#,
    "inputs.x",
    ErrorCode::InvalidPayload
)]
#[case::secret_not_an_input(
    r#"{"goal": "g", "verification": ["v"], "inputs": {"a": "1"}, "secret_inputs": ["b"]}"#,
    "secret_inputs",
    ErrorCode::InvalidPayload
)]
#[case::unknown_risk(
    r#"{"goal": "g", "verification": ["v"], "allowed_risks": ["format_disk"]}"#,
    "allowed_risks[0]",
    ErrorCode::InvalidPayload
)]
#[case::malformed_chord(
    r#"{"goal": "g", "verification": ["v"], "shortcuts": ["MOD+C", "MOD+"]}"#,
    "shortcuts[1]",
    ErrorCode::InvalidPayload
)]
#[case::chord_without_key(
    r#"{"goal": "g", "verification": ["v"], "shortcuts": ["CTRL+SHIFT"]}"#,
    "shortcuts[0]",
    ErrorCode::InvalidPayload
)]
#[case::not_json(r#"{"goal": "#, "payload", ErrorCode::InvalidPayload)]
#[case::not_an_object(r#"["goal"]"#, "payload", ErrorCode::InvalidPayload)]
fn invalid_payloads_name_the_field(
    #[case] payload: &str,
    #[case] field: &str,
    #[case] code: ErrorCode,
) {
    let err = Subtask::from_json(payload).expect_err("must be rejected");
    assert_eq!(err.field, field, "{err}");
    assert_eq!(err.code, code, "{err}");
    assert!(err.to_string().starts_with(field), "{err}");
}

#[test]
fn a_bare_string_verification_says_how_to_fix_it() {
    let err = Subtask::from_json(r#"{"goal": "g", "verification": "it works"}"#).unwrap_err();
    assert!(err.message.contains(r#"wrap it: ["it works"]"#), "{err}");
}

#[test]
fn an_unknown_field_error_lists_the_allowed_ones() {
    let err =
        Subtask::from_json(r#"{"goal": "g", "verification": ["v"], "budget": 3}"#).unwrap_err();
    assert!(err.message.contains("max_actions"), "{err}");
}

#[rstest]
#[case(
    r#"{"kind": "CLICK", "terminal": "BLOCKED", "target_id": "a"}"#,
    "not both"
)]
#[case(r#"{}"#, "needs kind or terminal")]
#[case(r#"{"kind": "TYPE_TEXT", "target_id": "a"}"#, "requires input_key")]
#[case(r#"{"kind": "CLICK"}"#, "requires target_id")]
#[case(
    r#"{"kind": "DRAG_TO", "target_id": "a"}"#,
    "requires secondary_target_id"
)]
#[case(r#"{"kind": "SCROLL"}"#, "requires scroll_direction")]
#[case(r#"{"kind": "HOTKEY", "hotkey": "MOD+"}"#, "ends without a key")]
#[case(
    r#"{"kind": "CLICK", "target_id": "a", "confidence": 1.5}"#,
    "within 0..=1"
)]
#[case(
    r##"{"kind": "CLICK", "target_id": "a", "selector": "#x"}"##,
    "unknown field `selector`"
)]
fn malformed_decisions_are_rejected(#[case] wire: &str, #[case] says: &str) {
    let err = serde_json::from_str::<Decision>(wire)
        .unwrap_err()
        .to_string();
    assert!(err.contains(says), "{err}");
}

#[test]
fn decisions_use_the_reference_wire_shape() {
    let wire = r#"{"kind":"TYPE_TEXT","target_id":"search","input_key":"query","confidence":0.9}"#;
    let d: Decision = serde_json::from_str(wire).unwrap();
    assert_eq!(serde_json::to_string(&d).unwrap(), wire);
    let t: Decision = serde_json::from_str(r#"{"terminal":"SUBTASK_COMPLETE"}"#).unwrap();
    assert_eq!(
        t.choice,
        arc_core::Choice::Terminal(TerminalKind::SubtaskComplete)
    );
}

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        any::<bool>().prop_map(Scalar::Bool),
        any::<i64>().prop_map(Scalar::Int),
        (-1e15f64..1e15)
            .prop_filter("integral floats read back as floats", |f| f.fract() != 0.0)
            // Others are read back as the exact text JSON gave them (`NumberText`).
            .prop_filter("printed alike by Display and JSON", |f| {
                f.to_string() == serde_json::to_string(f).unwrap()
            })
            .prop_map(Scalar::Float),
        ".{0,12}".prop_map(Scalar::Text),
    ]
}

fn subtask() -> impl Strategy<Value = Subtask> {
    (
        "[a-zA-Z ]{1,30}".prop_filter("non-blank", |g| !g.trim().is_empty()),
        prop::collection::vec("[a-z]{1,10}", 1..4),
        prop::collection::btree_map("[a-z_]{1,8}", scalar(), 0..5),
        prop::collection::vec(
            "[a-z ]{1,10}".prop_filter("non-blank", |c| !c.trim().is_empty()),
            0..3,
        ),
        1u32..500,
        prop::collection::btree_set(prop::sample::select(Risk::ALL.to_vec()), 0..3),
        prop::sample::subsequence(vec!["MOD+C", "CTRL+SHIFT+K", "ALT+F4", "F5"], 0..3),
    )
        .prop_map(
            |(goal, verification, inputs, constraints, max_actions, risks, chords)| {
                let mut s = Subtask::new(goal.clone(), "x");
                s.verification = verification.into_iter().map(Criterion::Text).collect();
                // A stated check round-trips beside the sentences.
                s.verification.push(
                    arc_core::Check::TextPresent {
                        text: goal,
                        within: None,
                    }
                    .into(),
                );
                s.secret_inputs = inputs.keys().take(1).cloned().collect();
                s.inputs = inputs;
                s.constraints = constraints;
                s.max_actions = max_actions;
                s.allowed_risks = risks;
                s.shortcuts = chords.into_iter().map(|c| c.parse().unwrap()).collect();
                s
            },
        )
}

proptest! {
    #[test]
    fn subtasks_round_trip_through_json(s in subtask()) {
        let text = serde_json::to_string(&s).unwrap();
        prop_assert_eq!(Subtask::from_json(&text).unwrap(), s);
    }

    #[test]
    fn results_round_trip_through_json(s in subtask(), steps in 0usize..4, status in prop::sample::select(vec![
        TerminalKind::SubtaskComplete, TerminalKind::Blocked, TerminalKind::NeedsAgent])) {
        let result = sample_result(&s, steps, status);
        let text = serde_json::to_string(&result).unwrap();
        let back: ExecutionResult = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, result);
    }
}

/// A real result: the sign-up demo run for `steps` actions.
fn sample_result(_s: &Subtask, steps: usize, status: TerminalKind) -> ExecutionResult {
    use arc_core::{Executor, RuntimeConfig, SettleConfig};
    use arc_sim::{ScriptedPolicy, SignupApp};
    let mut script: Vec<Decision> = SignupApp::demo_script().into_iter().take(steps).collect();
    script.push(Decision::terminal(status).with_reason("sampled"));
    // On real time: no second look after the sampled give-up (the sample is its JSON).
    let config = RuntimeConfig {
        settle: SettleConfig::immediate(),
        late_reaction: std::time::Duration::ZERO,
        ..Default::default()
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut ex = Executor::new(SignupApp::backend(), ScriptedPolicy::new(script), config);
    rt.block_on(ex.run(&SignupApp::demo_subtask()))
}

#[test]
fn results_carry_the_reference_keys() {
    let r = sample_result(&Subtask::new("g", "v"), 2, TerminalKind::SubtaskComplete);
    let v = serde_json::to_value(&r).unwrap();
    for key in [
        "status",
        "actions_taken",
        "reason",
        "observations",
        "history",
        "final_snapshot",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["status"], "SUBTASK_COMPLETE");
    let record: ActionRecord = serde_json::from_value(v["history"][0].clone()).unwrap();
    assert_eq!(record.action.kind().as_str(), "TYPE_TEXT");
    assert_eq!(v["history"][0]["action"]["value"], "ada@example.com");
}

#[rstest]
#[case::trailing_garbage(r#"{"goal": "g", "verification": ["v"]} x"#, "trailing characters")]
#[case::second_object(
    r#"{"goal": "g", "verification": ["v"]}{"goal": "h"}"#,
    "trailing characters"
)]
#[case::top_level_array(
    r#" [{"goal": "g", "verification": ["v"]}]"#,
    "must be a JSON object, found an array at line 1 column 2"
)]
#[case::top_level_string(r#""goal""#, "found a string at line 1 column 1")]
#[case::top_level_number("\n\n  42", "found a number at line 3 column 3")]
fn only_one_object_is_a_payload(#[case] payload: &str, #[case] says: &str) {
    let err = Subtask::from_json(payload).expect_err("must be rejected");
    assert_eq!(err.field, "payload", "{err}");
    assert_eq!(err.code, ErrorCode::InvalidPayload);
    assert!(err.message.contains(says), "{err}");
}

#[test]
fn a_duplicate_key_is_an_error_naming_it() {
    let err = Subtask::from_json(
        r#"{"goal": "g", "verification": ["v"], "inputs": {"card": "1", "name": "x", "card": "2"}}"#,
    )
    .unwrap_err();
    assert!(err.field.starts_with("inputs"), "{err}");
    assert!(err.message.contains("duplicate input name `card`"), "{err}");
    let err =
        Subtask::from_json(r#"{"goal": "g", "verification": ["v"], "goal": "h"}"#).unwrap_err();
    assert!(err.message.contains("duplicate field `goal`"), "{err}");
}

#[rstest]
#[case("12345678901234567890")]
#[case("-98765432109876543210987")]
#[case("9007199254740993")]
#[case("1.0")]
#[case("1e3")]
#[case("0.1000000000000000055511151231257827")]
#[case("-0")]
fn numbers_keep_the_exact_text_the_planner_sent(#[case] number: &str) {
    let payload =
        format!(r#"{{"goal": "g", "verification": ["v"], "inputs": {{"card": {number}}}}}"#);
    let s = Subtask::from_json(&payload).unwrap();
    assert_eq!(s.inputs["card"].as_text(), number);
    // The JSON echo carries the same number, unquoted.
    let echo = serde_json::to_string(&s).unwrap();
    assert!(
        echo.contains(&format!(r#""inputs":{{"card":{number}}}"#)),
        "{echo}"
    );
    assert_eq!(Subtask::from_json(&echo).unwrap(), s);
}

#[test]
fn plain_numbers_stay_ints_and_floats() {
    let s = Subtask::from_json(
        r#"{"goal": "g", "verification": ["v"], "inputs": {"a": 9007199254740992, "b": -5, "c": 0.25, "d": 1e400}}"#,
    );
    let err = s.unwrap_err();
    assert_eq!(err.field, "inputs.d", "{err}");
    assert!(err.message.contains("finite"), "{err}");
    let s = Subtask::from_json(
        r#"{"goal": "g", "verification": ["v"], "inputs": {"a": 9007199254740992, "b": -5, "c": 0.25}}"#,
    )
    .unwrap();
    assert_eq!(s.inputs["a"], Scalar::Int(9007199254740992));
    assert_eq!(s.inputs["b"], Scalar::Int(-5));
    assert_eq!(s.inputs["c"], Scalar::Float(0.25));
}

#[test]
fn errors_never_echo_unbounded_input() {
    let huge = "k".repeat(4 << 20);
    for payload in [
        format!(r#"{{"goal": "g", "verification": ["v"], "{huge}": 1}}"#),
        format!(r#"{{"goal": "g", "verification": ["v"], "inputs": {{"{huge}": null}}}}"#),
        format!(r#"{{"goal": "g", "verification": ["v"], "max_actions": "{huge}"}}"#),
        format!(r#"{{"goal": "g", "verification": ["v"], "allowed_risks": ["{huge}"]}}"#),
        format!(r#"{{"goal": "g", "verification": ["v"], "shortcuts": ["{huge}"]}}"#),
        format!(
            r#"{{"goal": "g", "verification": ["v"], "inputs": {{"a": "b"}}, "secret_inputs": ["{huge}"]}}"#
        ),
        format!(r#"{{"goal": "g", "verification": ["v"]}} {huge}"#),
        format!(r#"{{"goal": "{huge}"#),
    ] {
        let err = Subtask::from_json(&payload).unwrap_err().to_string();
        assert!(err.len() < 1024, "{} bytes: {}", err.len(), &err[..200]);
    }
}

/// A snapshot as a browser backend wrote it before its facts were typed: page facts in
/// `context`, element facts in `metadata`, beside extras only the backend reads.
fn snapshot_on_the_wire() -> serde_json::Value {
    json!({
        "application": "Chromium",
        "window": "Checkout",
        "revision": "r1",
        "elements": [{
            "id": "e1",
            "role": "text_field",
            "name": "Email",
            "actions": ["CLICK", "TYPE_TEXT"],
            "source": "cdp",
            "metadata": {
                "dom_id": "mail",
                "test_id": "email-field",
                "automation_id": "EmailBox",
                "name_attr": "contact_email",
                "placeholder": "you@example.com",
                "input_type": "email",
                "tag": "input",
                "href": "/x"
            }
        }],
        "context": {
            "url": "http://127.0.0.1:4000/checkout",
            "title": "Checkout",
            "scope": "viewport",
            "left_out_elements": 24981,
            "dialog": 3,
            "pid": 4242
        }
    })
}

#[test]
fn snapshot_facts_are_typed_and_keep_their_reference_keys() {
    let wire = snapshot_on_the_wire();
    let s: Snapshot = serde_json::from_value(wire.clone()).unwrap();
    assert_eq!(s.url(), Some("http://127.0.0.1:4000/checkout"));
    assert_eq!(s.title(), "Checkout");
    assert_eq!(s.facts.scope, Some(ObservationScope::Viewport));
    assert_eq!(s.facts.left_out_elements, Some(24981));
    assert_eq!(s.facts.dialog, Some(3));
    assert_eq!(s.facts.extra["pid"], 4242);
    let f = &s.elements[0].facts;
    assert_eq!(f.dom_id.as_deref(), Some("mail"));
    assert_eq!(f.test_id.as_deref(), Some("email-field"));
    assert_eq!(f.automation_id.as_deref(), Some("EmailBox"));
    assert_eq!(f.form_name.as_deref(), Some("contact_email"));
    assert_eq!(f.placeholder.as_deref(), Some("you@example.com"));
    assert_eq!(f.input_type, Some(InputType::Email));
    assert_eq!(f.extra.len(), 2, "{:?}", f.extra);
    // The same keys, the same values, nothing added.
    assert_eq!(serde_json::to_value(&s).unwrap(), wire);
}

#[test]
fn a_snapshot_without_facts_carries_no_context_or_metadata() {
    let s: Snapshot = serde_json::from_value(json!({
        "application": "App", "window": "W", "revision": "r",
        "elements": [{"id": "e1", "role": "button", "name": "OK"}]
    }))
    .unwrap();
    assert_eq!((s.url(), s.title()), (None, "W"));
    assert!(s.facts.is_empty() && s.elements[0].facts.is_empty());
    let v = serde_json::to_value(&s).unwrap();
    assert!(v.get("context").is_none() && v["elements"][0].get("metadata").is_none());
}

#[test]
fn input_types_parse_as_html_does_and_keep_unknown_ones_verbatim() {
    assert_eq!(InputType::parse("SUBMIT"), InputType::Submit);
    assert_eq!(InputType::parse("datetime-local"), InputType::DatetimeLocal);
    assert_eq!(InputType::Submit.as_str(), "submit");
    assert_eq!(
        InputType::parse("x-Custom"),
        InputType::Other("x-Custom".into())
    );
    assert_eq!(InputType::parse("x-Custom").as_str(), "x-Custom");
    assert!(InputType::parse("Week").is_date_or_time());
    assert!(!InputType::Email.is_date_or_time());
}

#[rstest]
#[case(json!({"scope": "partial"}), "partial")]
#[case(json!({"url": 5}), "string")]
#[case(json!({"left_out_elements": "many"}), "many")]
fn a_mistyped_page_fact_is_an_error_naming_it(
    #[case] context: serde_json::Value,
    #[case] says: &str,
) {
    let mut wire = snapshot_on_the_wire();
    wire["context"] = context;
    let err = serde_json::from_value::<Snapshot>(wire)
        .unwrap_err()
        .to_string();
    assert!(err.contains(says), "{err}");
}

fn input_type() -> impl Strategy<Value = InputType> {
    prop_oneof![
        prop::sample::select(vec!["submit", "email", "date", "text", "tel"])
            .prop_map(InputType::parse),
        "x-[a-z]{1,6}".prop_map(InputType::Other),
    ]
}

fn element_facts() -> impl Strategy<Value = ElementFacts> {
    let text = || proptest::option::of("[ -~]{0,12}");
    (
        (text(), text(), text(), text(), text()),
        proptest::option::of(input_type()),
        prop::collection::btree_map("x_[a-z]{1,5}", "[a-z]{0,5}", 0..3),
        proptest::bool::ANY,
    )
        .prop_map(
            |(
                (dom_id, test_id, automation_id, form_name, placeholder),
                input_type,
                extra,
                opened_tab,
            )| {
                ElementFacts {
                    dom_id,
                    test_id,
                    automation_id,
                    form_name,
                    placeholder,
                    input_type,
                    autocomplete: None,
                    opened_tab,
                    multiline: false,
                    scroll: None,
                    extra: extra.into_iter().map(|(k, v)| (k, v.into())).collect(),
                }
            },
        )
}

proptest! {
    #[test]
    fn element_facts_round_trip_through_json(f in element_facts()) {
        let wire = serde_json::to_string(&f).unwrap();
        let back: ElementFacts = serde_json::from_str(&wire).unwrap();
        prop_assert_eq!(back, f);
    }
}

/// An unknown risk and a secret that is not an input are named as the reference names
/// them, with the field.
#[test]
fn risks_and_secret_keys_are_named_when_refused() {
    let err = Subtask::from_json(r#"{"goal":"x","verification":["y"],"allowed_risks":["launch"]}"#)
        .unwrap_err();
    assert!(err.field.starts_with("allowed_risks"), "{err}");
    assert!(
        err.message
            .contains("Unknown allowed_risks: \"launch\"; use delete, send"),
        "{err}"
    );
    let err = Subtask::from_json(r#"{"goal":"x","verification":["y"],"secret_inputs":["pw"]}"#)
        .unwrap_err();
    assert_eq!(err.field, "secret_inputs");
    assert!(
        err.message
            .contains("names keys that are not inputs: \"pw\""),
        "{err}"
    );
}
