//! The OpenAI-compatible model policy against a real HTTP server on loopback that the
//! test scripts: the request it sends, what it accepts, and how it fails.

use crate::fixtures;
use crate::server;

use arc_core::{Action, Choice, Executor, Key, RuntimeConfig, ScrollDirection, TerminalKind};
use arc_model::{ModelStatsSnapshot, OpenAiPolicy};
use fixtures::*;
use serde_json::{json, Value};
use server::{answer, chat, chat_text, ModelServer, Reply};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn policy(server: &ModelServer) -> OpenAiPolicy {
    OpenAiPolicy::new(fast_config(&server.base_url())).expect("valid config")
}

fn schema_of(body: &Value) -> &Value {
    &body["response_format"]["json_schema"]["schema"]
}

fn enum_of<'a>(body: &'a Value, head: &str) -> Vec<&'a str> {
    schema_of(body)["properties"][head]["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{head} has no enum"))
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn request_body_matches_the_golden_file() {
    bounded(async {
        let server = ModelServer::scripted(vec![chat(&answer(
            "TYPE_TEXT",
            &[("type_text_target", "email"), ("type_text_input", "email")],
        ))])
        .await;
        let history = [typed(1, "password", "password", "[secret]", "Password")];
        decide(
            &mut policy(&server),
            &form_subtask(),
            &form_snapshot(),
            &history,
        )
        .await
        .unwrap();
        let sent = &server.requests()[0];
        assert_eq!(sent.method, "POST");
        assert_eq!(sent.path, "/v1/chat/completions");
        assert_eq!(sent.header("authorization"), Some("Bearer sk-test-key"));
        assert_eq!(sent.header("content-type"), Some("application/json"));
        // Compared in order: the order of schema properties is the order a model answers.
        let body = OrderedJson::parse(&sent.body);
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/openai_request.json");
        let pretty = body.pretty();
        if std::env::var_os("UPDATE_GOLDEN").is_some() || !path.exists() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &pretty).unwrap();
            panic!("wrote {}; review it and run again", path.display());
        }
        let golden = std::fs::read_to_string(&path).unwrap();
        if OrderedJson::parse(&golden) != body {
            let line = golden
                .lines()
                .zip(pretty.lines())
                .position(|(a, b)| a != b)
                .map_or(golden.lines().count().min(pretty.lines().count()), |i| i);
            panic!(
                "request body differs from {} at line {} (UPDATE_GOLDEN=1 rewrites it):\n{pretty}",
                path.display(),
                line + 1
            );
        }
    })
    .await
}

#[tokio::test]
async fn schema_offers_only_legal_ids_per_operation() {
    bounded(async {
        let server = ModelServer::scripted(vec![chat(&answer("BLOCKED", &[]))]).await;
        decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        let body = server.requests()[0].json();
        // Disabled "locked", invisible "ghost", inert "heading"/"note" and right-click-only
        // "more" are never click targets.
        assert_eq!(
            enum_of(&body, "click_target"),
            ["email", "password", "remember", "submit"]
        );
        assert_eq!(enum_of(&body, "type_text_target"), ["email", "password"]);
        assert_eq!(enum_of(&body, "right_click_target"), ["more"]);
        assert_eq!(enum_of(&body, "type_text_input"), ["email", "password"]);
        assert_eq!(
            enum_of(&body, "operation"),
            [
                "CLICK",
                "RIGHT_CLICK",
                "TYPE_TEXT",
                "PRESS_KEY",
                "HOTKEY",
                "SCROLL",
                "SUBTASK_COMPLETE",
                "BLOCKED",
                "NEEDS_AGENT"
            ]
        );
        assert_eq!(
            enum_of(&body, "criterion_1"),
            ["SATISFIED", "NOT_SATISFIED", "UNKNOWN"]
        );
        let schema = schema_of(&body);
        for absent in [
            "double_click_target",
            "set_value_target",
            "drag_to_target",
            "navigate_input",
        ] {
            assert!(
                schema["properties"].get(absent).is_none(),
                "{absent} offered"
            );
        }
        // Strict mode: every property required, nothing else allowed.
        let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(schema["required"].as_array().unwrap().len(), props.len());
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(
            body["response_format"]["json_schema"]["strict"],
            json!(true)
        );
    })
    .await
}

#[tokio::test]
async fn ids_evicted_from_the_view_are_not_offered() {
    bounded(async {
        let elements: Vec<arc_core::Element> = (0..400)
            .map(|i| {
                let mut e = arc_core::Element::new(
                    format!("b{i}"),
                    arc_core::Role::Button,
                    format!("Button number {i}"),
                );
                e.actions = [arc_core::ActionKind::Click].into();
                e
            })
            .collect();
        let snap = std::sync::Arc::new(arc_core::Snapshot::new("Big", "Page", elements));
        let server = ModelServer::scripted(vec![chat(&answer("BLOCKED", &[]))]).await;
        let mut config = fast_config(&server.base_url());
        config.view_budget_tokens = 300;
        let mut p = OpenAiPolicy::new(config).unwrap();
        decide(&mut p, &form_subtask(), &snap, &[]).await.unwrap();
        let body = server.requests()[0].json();
        let offered = enum_of(&body, "click_target");
        let user = body["messages"][1]["content"].as_str().unwrap();
        assert!(
            offered.len() > 10 && offered.len() < 400,
            "{}",
            offered.len()
        );
        assert!(
            user.contains("# truncated"),
            "the view announces the eviction"
        );
        for id in offered {
            assert!(
                user.contains(&format!("[{id}]")),
                "{id} offered but not shown"
            );
        }
    })
    .await
}

#[tokio::test]
async fn secret_literals_never_leave_even_on_a_reask() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            chat(&answer("CLICK", &[("click_target", "locked")])),
            chat(&answer("NEEDS_AGENT", &[])),
        ])
        .await;
        let history = [typed(
            1,
            "shown",
            "password",
            SECRET,
            &format!("Password {SECRET}"),
        )];
        let d = decide(
            &mut policy(&server),
            &leaky_subtask(),
            &leaky_snapshot(),
            &history,
        )
        .await
        .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::NeedsAgent));
        let requests = server.requests();
        assert_eq!(requests.len(), 2);
        for r in &requests {
            assert!(
                !r.body.contains(SECRET),
                "secret in request body: {}",
                r.body
            );
            assert!(r.body.contains("[secret]"));
        }
        // The planner's other literal is shown by key and value.
        assert!(requests[0].body.contains("ada@example.com"));
    })
    .await
}

#[tokio::test]
async fn a_500_then_200_succeeds_after_one_retry() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            Reply::status(500, r#"{"error":"boom"}"#),
            chat(&answer("CLICK", &[("click_target", "submit")])),
        ])
        .await;
        let mut p = policy(&server);
        let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Act(Action::click("submit")));
        assert_eq!(d.confidence, Some(0.9));
        assert!(d.latency_ms.is_some());
        let s = p.stats().snapshot();
        assert_eq!(
            (s.requests, s.retries, s.decisions, s.failures),
            (2, 1, 1, 0)
        );
        assert_eq!(server.requests()[0].body, server.requests()[1].body);
    })
    .await
}

#[tokio::test]
async fn persistent_500_ends_in_an_error_naming_the_status() {
    bounded(async {
        let server = ModelServer::with(|_, _| Reply::status(503, "overloaded")).await;
        let mut p = policy(&server);
        let e = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(
            e.0.contains("after 3 attempt(s)") && e.0.contains("503"),
            "{e}"
        );
        assert!(e.0.contains("overloaded"), "{e}");
        assert_eq!(server.count(), 3);
        assert_eq!(p.stats().snapshot().failures, 1);
    })
    .await
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    bounded(async {
        let server =
            ModelServer::with(|_, _| Reply::status(400, r#"{"error":{"message":"bad schema"}}"#))
                .await;
        let e = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(e.0.contains("400") && e.0.contains("bad schema"), "{e}");
        // Not retried as it was: asked once more only in the other structured-output form.
        let formats: Vec<Value> = server
            .requests()
            .iter()
            .map(|r| r.json()["response_format"]["type"].clone())
            .collect();
        assert_eq!(formats, [json!("json_schema"), json!("json_object")]);
    })
    .await
}

#[tokio::test]
async fn a_429_waits_for_retry_after_then_succeeds() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            Reply::status(429, "slow down").header("Retry-After", "1"),
            chat(&answer("BLOCKED", &[])),
        ])
        .await;
        let started = Instant::now();
        let d = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::Blocked));
        assert!(
            started.elapsed() >= Duration::from_secs(1),
            "Retry-After ignored"
        );
    })
    .await
}

#[tokio::test]
async fn persistent_429_and_an_excessive_retry_after_end_in_errors() {
    bounded(async {
        let server =
            ModelServer::with(|_, _| Reply::status(429, "rate limited").header("Retry-After", "0"))
                .await;
        let e = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(e.0.contains("429"), "{e}");
        assert_eq!(server.count(), 3);

        let server =
            ModelServer::with(|_, _| Reply::status(429, "later").header("Retry-After", "3600"))
                .await;
        let started = Instant::now();
        let e = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(
            e.0.contains("retry after 3600 s") && e.0.contains("cap"),
            "{e}"
        );
        assert_eq!(server.count(), 1);
        assert!(started.elapsed() < Duration::from_secs(2));
    })
    .await
}

#[tokio::test]
async fn a_server_that_never_answers_is_given_up_within_the_timeout() {
    bounded(async {
        let server = ModelServer::scripted(vec![Reply::Hang]).await;
        let mut config = fast_config(&server.base_url());
        config.timeout = Duration::from_millis(400);
        let mut p = OpenAiPolicy::new(config).unwrap();
        // The tokenizer's one-time set-up (~0.5 s in a debug build) is not the timeout.
        arc_view::warm_up();
        let started = Instant::now();
        let e = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        let took = started.elapsed();
        assert!(e.0.contains("no answer") && e.0.contains("400 ms"), "{e}");
        // Generous upper bound for a loaded 2-core CI machine: the point is that it gives
        // up (the server never answers), not how fast.
        assert!(
            took >= Duration::from_millis(400) && took < Duration::from_millis(5_000),
            "{took:?}"
        );
        assert_eq!(server.count(), 1, "a timeout is not retried");
    })
    .await
}

#[tokio::test]
async fn a_dropped_connection_is_retried_and_a_dead_port_is_an_error() {
    bounded(async {
        let server = ModelServer::scripted(vec![Reply::Drop, chat(&answer("BLOCKED", &[]))]).await;
        let d = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::Blocked));
        assert_eq!(server.count(), 2);

        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let mut p = OpenAiPolicy::new(fast_config(&format!("http://127.0.0.1:{port}/v1"))).unwrap();
        let e = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(
            e.0.contains("connection failed") && e.0.contains("3 attempt"),
            "{e}"
        );
    })
    .await
}

#[tokio::test]
async fn garbage_is_asked_again_once_then_an_error() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            Reply::status(200, "<html>proxy error</html>"),
            chat(&answer("BLOCKED", &[])),
        ])
        .await;
        let mut p = policy(&server);
        let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::Blocked));
        assert_eq!(p.stats().snapshot().reasks, 1);

        let server = ModelServer::with(|_, _| chat_text("I think you should click Sign in.")).await;
        let e = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(
            e.0.contains("rejected twice") && e.0.contains("not a JSON object"),
            "{e}"
        );
        assert_eq!(server.count(), 2);
    })
    .await
}

#[tokio::test]
async fn an_illegal_id_is_reasked_with_the_reason() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            chat(&answer("CLICK", &[("click_target", "locked")])),
            chat(&answer("CLICK", &[("click_target", "remember")])),
        ])
        .await;
        let mut p = policy(&server);
        let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(d.choice, Choice::Act(Action::click("remember")));
        let second = server.requests()[1].json();
        let messages = second["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 4);
        assert_eq!(messages[2]["role"], "assistant");
        assert!(messages[2]["content"].as_str().unwrap().contains("locked"));
        let why = messages[3]["content"].as_str().unwrap();
        assert!(
            why.contains("click_target") && why.contains("\"locked\""),
            "{why}"
        );

        let server = ModelServer::with(|_, _| {
            chat(&answer(
                "TYPE_TEXT",
                &[("type_text_target", "submit"), ("type_text_input", "email")],
            ))
        })
        .await;
        let e = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap_err();
        assert!(
            e.0.contains("type_text_target") && e.0.contains("\"submit\""),
            "{e}"
        );
    })
    .await
}

#[tokio::test]
async fn malformed_heads_are_rejected() {
    bounded(async {
        for (bad, expect) in [
            (answer("CLICK", &[]), "click_target is missing"),
            (
                answer(
                    "TYPE_TEXT",
                    &[("type_text_target", "email"), ("type_text_input", "nope")],
                ),
                "type_text_input",
            ),
            (answer("DRAG_TO", &[]), "operation"),
            (
                answer("PRESS_KEY", &[("press_key_value", "Q")]),
                "press_key_value",
            ),
            (
                json!({"operation": "BLOCKED", "confidence": 1.5}),
                "confidence 1.5",
            ),
            (json!({"operation": 3}), "operation must be a string"),
        ] {
            let server = ModelServer::with(move |_, _| chat(&bad)).await;
            let e = decide(&mut policy(&server), &form_subtask(), &form_snapshot(), &[])
                .await
                .unwrap_err();
            assert!(e.0.contains(expect), "expected {expect:?} in {e}");
        }
    })
    .await
}

#[tokio::test]
async fn every_operation_reads_only_its_own_heads() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            chat(&json!({
                "criterion_0": "NOT_SATISFIED", "criterion_1": "UNKNOWN",
                "operation": "PRESS_KEY", "click_target": "not-an-id",
                "press_key_value": "ENTER", "hotkey_value": "MOD+Q",
                "confidence": 0.4, "reason": "submit with Enter"
            })),
            chat(&answer("SCROLL", &[("scroll_direction", "DOWN")])),
            chat(&answer("HOTKEY", &[("hotkey_value", "MOD+A")])),
        ])
        .await;
        let mut p = policy(&server);
        let (task, snap) = (form_subtask(), form_snapshot());
        let d = decide(&mut p, &task, &snap, &[]).await.unwrap();
        assert_eq!(d.choice, Choice::Act(Action::PressKey { key: Key::Enter }));
        assert_eq!(d.reason.as_deref(), Some("submit with Enter"));
        let d = decide(&mut p, &task, &snap, &[]).await.unwrap();
        assert_eq!(
            d.choice,
            Choice::Act(Action::Scroll {
                direction: ScrollDirection::Down,
                target: None
            })
        );
        let d = decide(&mut p, &task, &snap, &[]).await.unwrap();
        assert_eq!(
            d.choice,
            Choice::Act(Action::Hotkey {
                chord: "MOD+A".parse().unwrap()
            })
        );
    })
    .await
}

#[tokio::test]
async fn complete_needs_every_criterion_satisfied() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            chat(&answer(
                "SUBTASK_COMPLETE",
                &[("criterion_0", "SATISFIED"), ("criterion_1", "UNKNOWN")],
            )),
            chat(&answer(
                "SUBTASK_COMPLETE",
                &[("criterion_0", "SATISFIED"), ("criterion_1", "SATISFIED")],
            )),
        ])
        .await;
        let mut p = policy(&server);
        let (task, snap) = (form_subtask(), form_snapshot());
        let d = decide(&mut p, &task, &snap, &[]).await.unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::NeedsAgent));
        let reason = d.reason.unwrap();
        assert!(
            reason.contains("criterion 1")
                && reason.contains("UNKNOWN")
                && reason.contains("email field"),
            "{reason}"
        );
        let d = decide(&mut p, &task, &snap, &[]).await.unwrap();
        assert_eq!(d.choice, Choice::Terminal(TerminalKind::SubtaskComplete));
    })
    .await
}

#[tokio::test]
async fn stats_count_calls_and_tokens() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            Reply::status(502, "bad gateway"),
            chat(&answer("CLICK", &[("click_target", "nope")])),
            chat(&answer("BLOCKED", &[])),
        ])
        .await;
        let mut p = policy(&server);
        let stats = p.stats();
        decide(&mut p, &form_subtask(), &form_snapshot(), &[])
            .await
            .unwrap();
        assert_eq!(
            stats.snapshot(),
            ModelStatsSnapshot {
                decisions: 1,
                requests: 3,
                retries: 1,
                reasks: 1,
                failures: 0,
                judgments: 0,
                response_format: arc_model::Dialect::JsonSchema,
                prompt_tokens: 200,
                completion_tokens: 40,
                total_tokens: 240,
            }
        );
    })
    .await
}

/// The whole loop: the executor, the simulated sign-up app and the model policy talking
/// to a scripted endpoint, one answer per step. The app's own state is the oracle.
#[tokio::test]
async fn signs_up_end_to_end_through_the_executor() {
    bounded(async {
        let server = ModelServer::scripted(vec![
            chat(&answer(
                "TYPE_TEXT",
                &[("type_text_target", "email"), ("type_text_input", "email")],
            )),
            chat(&answer("CLICK", &[("click_target", "plan")])),
            chat(&answer("CLICK", &[("click_target", "plan-pro")])),
            chat(&answer("CLICK", &[("click_target", "terms")])),
            chat(&answer("CLICK", &[("click_target", "submit")])),
            chat(&answer("SUBTASK_COMPLETE", &[("criterion_0", "SATISFIED")])),
        ])
        .await;
        let policy = policy(&server);
        let stats = policy.stats();
        let mut executor = Executor::new(
            arc_sim::SignupApp::backend(),
            policy,
            RuntimeConfig::default(),
        );
        let result = executor.run(&arc_sim::SignupApp::demo_subtask()).await;
        assert_eq!(
            result.status,
            TerminalKind::SubtaskComplete,
            "{:?}",
            result.reason
        );
        assert_eq!(result.actions_taken, 5);
        let (backend, _) = executor.into_parts();
        let state = backend.state();
        assert_eq!(
            state.confirmation().as_deref(),
            Some("Welcome, ada@example.com! Your Pro account is ready.")
        );
        assert_eq!(
            state.received,
            [
                "TYPE_TEXT email",
                "CLICK plan",
                "CLICK plan-pro",
                "CLICK terms",
                "CLICK submit"
            ]
        );
        let bodies: Vec<Value> = server.requests().iter().map(|r| r.json()).collect();
        assert_eq!(bodies.len(), 6);
        // plan-pro is offered only once the dropdown is open.
        assert!(!enum_of(&bodies[1], "click_target").contains(&"plan-pro"));
        assert!(enum_of(&bodies[2], "click_target").contains(&"plan-pro"));
        let s = stats.snapshot();
        assert_eq!((s.decisions, s.requests, s.total_tokens), (6, 6, 720));
    })
    .await
}

/// An endpoint that answers OpenAI's `json_schema` form with an error (as
/// llama-cpp-python's server answers 500) and takes `json_object` with the schema beside it.
fn refuses_json_schema(request: &server::Recorded) -> Reply {
    let body = request.json();
    match body["response_format"]["type"].as_str() {
        Some("json_object") if body["response_format"]["schema"].is_object() => {
            chat(&answer("CLICK", &[("click_target", "submit")]))
        }
        _ => Reply::status(500, "{\"error\": \"unsupported response_format\"}"),
    }
}

#[tokio::test]
async fn an_endpoint_refusing_json_schema_is_asked_in_json_object_and_kept_there() {
    bounded(async {
        let server = ModelServer::with(|_, r| refuses_json_schema(r)).await;
        let mut p = policy(&server);
        let stats = p.stats();
        for _ in 0..2 {
            let d = decide(&mut p, &form_subtask(), &form_snapshot(), &[])
                .await
                .expect("a decision in the dialect the endpoint takes");
            assert!(
                matches!(d.choice, Choice::Act(Action::Click { .. })),
                "{d:?}"
            );
        }
        let formats: Vec<String> = server
            .requests()
            .iter()
            .map(|r| {
                r.json()["response_format"]["type"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        // json_schema (retried as a server error), then json_object from then on.
        assert_eq!(formats.last().map(String::as_str), Some("json_object"));
        let first_object = formats.iter().position(|f| f == "json_object").unwrap();
        assert!(formats[..first_object].iter().all(|f| f == "json_schema"));
        assert!(formats[first_object..].iter().all(|f| f == "json_object"));
        assert_eq!(formats.len() - first_object, 2, "{formats:?}");
        assert_eq!(
            stats.snapshot().response_format,
            arc_model::Dialect::JsonObject
        );
    })
    .await
}
