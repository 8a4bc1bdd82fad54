//! The JEV adapter against a real HTTP server on loopback: the TypeSafe request shape,
//! and the reference's validation of `choice` / `confidence` / `probabilities`.

use crate::fixtures;
use crate::server;

use arc_core::PolicyError;
use arc_core::{Action, Choice, TerminalKind};
use arc_model::{validate_choice, ChoiceAnswer};
use arc_model::{JevAsk, JevPolicy};
use fixtures::*;
use serde_json::{json, Value};
use server::{ModelServer, Reply};
use std::sync::{Arc, Mutex};

fn policy(server: &ModelServer) -> JevPolicy {
    JevPolicy::new(fast_config(&server.base_url())).expect("valid config")
}

/// A valid answer for `choice` among `allowed`, most of the mass on the choice.
fn pick(choice: &str, allowed: &[&str]) -> Value {
    let rest = if allowed.len() > 1 {
        0.2 / (allowed.len() - 1) as f64
    } else {
        0.0
    };
    let top = 1.0 - rest * (allowed.len() - 1) as f64;
    let probabilities: serde_json::Map<String, Value> = allowed
        .iter()
        .map(|c| (c.to_string(), json!(if *c == choice { top } else { rest })))
        .collect();
    json!({"choice": choice, "confidence": top, "probabilities": probabilities})
}

/// The allowed choices of a question in a recorded request, sorted (a parsed JSON
/// object forgets the order).
fn allowed(body: &Value, question: &str) -> Vec<String> {
    body["questions"][question]["criteria"]
        .as_object()
        .unwrap_or_else(|| panic!("no question {question}"))
        .keys()
        .cloned()
        .collect()
}

/// A server answering each question of each request with `choose(question)` (a valid
/// distribution over that request's own choices), so tests state intent, not numbers.
async fn answering(choose: fn(&str) -> Option<&'static str>) -> ModelServer {
    ModelServer::with(move |_, request| {
        let body = request.json();
        let mut answers = serde_json::Map::new();
        for question in body["questions"].as_object().unwrap().keys() {
            if let Some(choice) = choose(question) {
                let options = allowed(&body, question);
                let options: Vec<&str> = options.iter().map(String::as_str).collect();
                answers.insert(question.clone(), pick(choice, &options));
            }
        }
        Reply::json(&json!({ "answers": answers }))
    })
    .await
}

#[tokio::test]
async fn a_valid_answer_becomes_a_decision_and_the_request_has_the_typesafe_shape() {
    bounded(async {
        let server = answering(|q| match q {
            "operation" => Some("TYPE_TEXT"),
            "type_text_target" => Some("email"),
            "type_text_input" => Some("email"),
            "click_target" => Some("submit"),
            _ => None,
        })
        .await;
        let mut p = policy(&server);
        let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Act(Action::type_text("email", "email")));
        let (confidence, margin) = (d.confidence.unwrap(), d.margin.unwrap());
        assert!(confidence > 0.79 && margin > 0.5, "{confidence} {margin}");

        let sent = &server.requests()[0];
        assert_eq!(sent.path, "/v1", "JEV posts to the base URL itself");
        assert_eq!(sent.header("authorization"), Some("Bearer sk-test-key"));
        let body = sent.json();
        assert_eq!(body["model"], "test-model");
        assert_eq!(body["questions"]["operation"]["type"], "choice");
        assert_eq!(
            allowed(&body, "click_target"),
            ["email", "password", "remember", "submit"]
        );
        assert_eq!(allowed(&body, "type_text_target"), ["email", "password"]);
        assert_eq!(
            allowed(&body, "criterion_0"),
            ["NOT_SATISFIED", "SATISFIED", "UNKNOWN"]
        );
        assert_eq!(
            body["questions"]["type_text_target"]["criteria"]["email"]["role"],
            "text_field"
        );
        assert_eq!(
            body["questions"]["type_text_input"]["criteria"]["password"],
            json!({"key": "password", "value": "[secret]"})
        );
        assert_eq!(
            body["questions"]["type_text_target"]["instructions"]["operation"],
            "TYPE_TEXT"
        );
        let state = &body["state"];
        assert_eq!(state["subtask"]["inputs"]["email"], "ada@example.com");
        assert!(state["subtask"].get("metadata").is_none());
        let ids: Vec<&str> = state["desktop"]["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert!(!ids.contains(&"ghost"), "hidden elements are not sent");
    })
    .await
}

#[tokio::test]
async fn secret_literals_never_leave_in_the_jev_request() {
    bounded(async {
        let server = answering(|q| (q == "operation").then_some("NEEDS_AGENT")).await;
        let history = [typed(
            1,
            "shown",
            "password",
            SECRET,
            &format!("Password {SECRET}"),
        )];
        decide(
            &mut policy(&server),
            &leaky_subtask(),
            &leaky_snapshot(),
            &history,
        )
        .await
        .unwrap();
        let body = &server.requests()[0].body;
        assert!(!body.contains(SECRET), "secret in request: {body}");
        assert!(body.contains("[secret]"));
    })
    .await
}

#[tokio::test]
async fn complete_is_checked_against_the_criterion_questions() {
    bounded(async {
        let server = answering(|q| match q {
            "operation" => Some("SUBTASK_COMPLETE"),
            "criterion_0" => Some("SATISFIED"),
            "criterion_1" => Some("NOT_SATISFIED"),
            _ => None,
        })
        .await;
        let d = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::NeedsAgent));
        assert!(d.reason.unwrap().contains("criterion 1"));
    })
    .await
}

fn operation_answer(probabilities: Value, choice: &str) -> Reply {
    Reply::json(&json!({"answers": {"operation": {
        "choice": choice, "confidence": 0.9, "probabilities": probabilities
    }}}))
}

/// Probabilities over the form's operations with `blocked` on BLOCKED and the rest of
/// `total` spread evenly.
fn spread(blocked: f64, total: f64) -> Value {
    let ops = [
        "CLICK",
        "RIGHT_CLICK",
        "TYPE_TEXT",
        "PRESS_KEY",
        "HOTKEY",
        "SCROLL",
        "SUBTASK_COMPLETE",
        "BLOCKED",
        "NEEDS_AGENT",
    ];
    let rest = (total - blocked) / (ops.len() - 1) as f64;
    ops.iter()
        .map(|op| {
            (
                op.to_string(),
                json!(if *op == "BLOCKED" { blocked } else { rest }),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[tokio::test]
async fn invalid_answers_are_rejected_with_a_reason() {
    bounded(async {
        let mut negative = spread(0.9, 1.0);
        negative["CLICK"] = json!(-0.1);
        negative["TYPE_TEXT"] = json!(0.1125);
        let mut partial = spread(0.9, 1.0);
        partial.as_object_mut().unwrap().remove("SCROLL");
        let cases: Vec<(Reply, &str)> = vec![
            (operation_answer(spread(0.5, 0.7), "BLOCKED"), "sum to 0.7"),
            (operation_answer(negative, "BLOCKED"), "probability of \"CLICK\" is -0.1"),
            (operation_answer(spread(0.9, 1.0), "DRAG_TO"), "choice \"DRAG_TO\" is not among"),
            (operation_answer(partial, "BLOCKED"), "lack the allowed choice \"SCROLL\""),
            (operation_answer(spread(0.05, 1.0), "BLOCKED"), "not the most probable"),
            (
                Reply::status(200, r#"{"answers":{"operation":{"choice":"BLOCKED","confidence":NaN,"probabilities":{}}}}"#),
                "not a JEV answer set",
            ),
            (Reply::json(&json!({"answers": {}})), "question operation is unanswered"),
            (
                Reply::json(&json!({"answers": {"operation": {"choice": "BLOCKED"}}})),
                "not a {choice, confidence, probabilities} answer",
            ),
            (
                Reply::json(&json!({"answers": {"operation": {
                    "choice": "BLOCKED", "confidence": 1.2, "probabilities": spread(0.9, 1.0)
                }}})),
                "confidence is 1.2",
            ),
        ];
        for (reply, expect) in cases {
            let server = ModelServer::with(move |_, _| reply.clone()).await;
            let mut p = policy(&server);
            let e = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
                .await
                .unwrap_err();
            assert!(e.0.contains(expect), "expected {expect:?} in {e}");
            assert!(e.0.contains("rejected twice"), "{e}");
            assert_eq!(server.count(), 2, "one re-ask, then the error");
            assert_eq!(p.stats().snapshot().failures, 1);
        }
    })
    .await
}

#[tokio::test]
async fn one_bad_answer_is_asked_again() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            operation_answer(spread(0.5, 0.7), "BLOCKED"),
            operation_answer(spread(0.9, 1.0), "BLOCKED"),
        ])
        .await;
        let mut p = policy(&server);
        let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::Blocked));
        assert_eq!(p.stats().snapshot().reasks, 1);
        let r = server.requests();
        assert_eq!(r[0].body, r[1].body, "the re-ask repeats the request");
    })
    .await
}

#[test]
fn validate_choice_applies_the_reference_rules() {
    let allowed: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let answer = |choice: &str, confidence: f64, p: [f64; 3]| ChoiceAnswer {
        choice: choice.into(),
        confidence,
        probabilities: allowed.iter().cloned().zip(p).collect(),
    };
    assert_eq!(
        validate_choice(&answer("a", 0.7, [0.7, 0.2, 0.1]), &allowed),
        Ok(())
    );
    // Within the reference's 0.02 tolerance, and a tie counts as the most probable.
    assert_eq!(
        validate_choice(&answer("b", 0.5, [0.5, 0.5, 0.01]), &allowed),
        Ok(())
    );
    for (bad, why) in [
        (answer("a", 0.7, [0.7, 0.2, 0.0]), "sum to"),
        (
            answer("a", 0.7, [1.2, -0.1, -0.1]),
            "not a number within [0, 1]",
        ),
        (answer("a", 0.7, [f64::NAN, 0.5, 0.5]), "NaN"),
        (answer("a", 0.7, [f64::INFINITY, 0.0, 0.0]), "inf"),
        (answer("a", f64::NAN, [0.7, 0.2, 0.1]), "confidence is NaN"),
        (answer("a", -0.1, [0.7, 0.2, 0.1]), "confidence is -0.1"),
        (answer("z", 0.7, [0.7, 0.2, 0.1]), "not among the 3 allowed"),
        (answer("c", 0.7, [0.7, 0.2, 0.1]), "not the most probable"),
    ] {
        let e = validate_choice(&bad, &allowed).unwrap_err();
        assert!(e.contains(why), "expected {why:?} in {e}");
    }
}

/// A caller's asker: records what it is asked and answers `operation` with BLOCKED.
struct Recorder(Arc<Mutex<Vec<(Value, Value)>>>);

impl JevAsk for Recorder {
    fn ask(&self, state: Value, questions: Value) -> Result<String, PolicyError> {
        let options: Vec<String> = questions["operation"]["criteria"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        let options: Vec<&str> = options.iter().map(String::as_str).collect();
        let answer = json!({"answers": {"operation": pick("BLOCKED", &options)}});
        self.0.lock().unwrap().push((state, questions));
        Ok(answer.to_string())
    }
}

#[tokio::test]
async fn a_caller_s_asker_gets_what_the_endpoint_would_and_its_answer_decides() {
    bounded(async {
        let server = answering(|q| (q == "operation").then_some("BLOCKED")).await;
        let mut http = policy(&server);
        decide(&mut http, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        let sent = server.requests()[0].json();

        let asked = Arc::new(Mutex::new(Vec::new()));
        let config = fast_config(&server.base_url());
        let mut p = JevPolicy::with_asker(config, Box::new(Recorder(asked.clone())));
        let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::Blocked));
        assert_eq!(server.requests().len(), 1, "the asker, not HTTP, was asked");
        let asked = asked.lock().unwrap();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].0, sent["state"]);
        assert_eq!(asked[0].1, sent["questions"]);
    })
    .await
}
