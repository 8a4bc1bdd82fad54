//! The risk gate cannot be walked around (issue 15, item 4), in real headless Chromium on
//! pages of our own under `fixtures/site/risk/`. A refused action presses nothing: each
//! test reads the page's own record (`window.__pressed`, `window.__submitted`,
//! `window.__events`), never the runtime's claim.

use crate::common;

use arc_browser::backend::{BrowserOptions, Scope};
use arc_core::{
    Action, DecideContext, Decision, ExecutionResult, Executor, Key, Policy, PolicyError, Risk,
    RuntimeConfig, Snapshot, SubmitKey, Subtask, TerminalKind, Termination,
};
use common::Fixture;
use serde_json::json;

/// One action (built from the snapshot), then SUBTASK_COMPLETE: the loop, not a policy,
/// must stop what the action would press.
struct Once {
    action: Box<dyn Fn(&Snapshot) -> Action + Send>,
    done: bool,
}

#[async_trait::async_trait]
impl Policy for Once {
    fn name(&self) -> &'static str {
        "once"
    }
    async fn decide(&mut self, ctx: DecideContext<'_>) -> Result<Decision, PolicyError> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(Decision::terminal(TerminalKind::SubtaskComplete));
        }
        Ok(Decision::act((self.action)(ctx.snapshot)))
    }
}

/// The element whose DOM id is `id` (the fixture's own handle on it).
fn by_dom_id(s: &Snapshot, id: &str) -> arc_core::ElementId {
    s.elements
        .iter()
        .find(|e| e.facts.dom_id.as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no element #{id} in {:#?}", s.elements))
        .id
        .clone()
}

fn click(id: &'static str) -> Box<dyn Fn(&Snapshot) -> Action + Send> {
    Box::new(move |s| Action::click(by_dom_id(s, id)))
}

/// Runs one action through the whole loop on `page`; returns the result and the page.
async fn run(
    page: &str,
    subtask: &Subtask,
    action: Box<dyn Fn(&Snapshot) -> Action + Send>,
) -> (ExecutionResult, Fixture) {
    run_after(page, "", subtask, action).await
}

/// As `run`, after `setup` ran in the page (focus, say).
async fn run_after(
    page: &str,
    setup: &str,
    subtask: &Subtask,
    action: Box<dyn Fn(&Snapshot) -> Action + Send>,
) -> (ExecutionResult, Fixture) {
    run_in(Scope::default(), page, setup, subtask, action).await
}

/// As `run_after`, observing with `scope` (the full read or the viewport scan).
async fn run_in(
    scope: Scope,
    page: &str,
    setup: &str,
    subtask: &Subtask,
    action: Box<dyn Fn(&Snapshot) -> Action + Send>,
) -> (ExecutionResult, Fixture) {
    let options = BrowserOptions {
        scope,
        ..Default::default()
    };
    let f = Fixture::open_with(page, options).await;
    if !setup.is_empty() {
        f.eval(setup).await;
    }
    let Fixture { server, backend } = f;
    let policy = Once {
        action,
        done: false,
    };
    let mut ex = Executor::new(backend, policy, RuntimeConfig::default());
    let result = ex.run(subtask).await;
    let (backend, _) = ex.into_parts();
    (result, Fixture { server, backend })
}

fn refused(result: &ExecutionResult, word: &str) {
    assert_eq!(result.status, TerminalKind::NeedsAgent, "{result:#?}");
    assert_eq!(result.termination, Termination::RiskRefused, "{result:#?}");
    assert_eq!(result.actions_taken, 0);
    let reason = result.reason.as_deref().unwrap_or("");
    assert!(reason.contains(word), "{reason}");
}

fn task(goal: &str) -> Subtask {
    Subtask::new(goal, "The page shows a confirmation")
}

#[tokio::test(flavor = "multi_thread")]
async fn invisible_or_look_alike_characters_do_not_hide_delete() {
    for id in ["shy", "zwsp", "zwj", "fullwidth", "accent"] {
        let (result, f) = run(
            "risk/words.html",
            &task("Click the account button"),
            click(id),
        )
        .await;
        refused(&result, "delete");
        assert_eq!(
            f.eval("window.__pressed").await,
            json!([]),
            "#{id} was pressed"
        );
        assert_eq!(
            f.eval("window.__events.filter(e => e.type === 'mousedown').length")
                .await,
            0,
            "#{id}: the page saw a press"
        );
        f.backend.close().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_allowed_risk_and_a_harmless_button_are_pressed() {
    // The page's record does see presses: the refusals above are not a blind spot.
    let (result, f) = run(
        "risk/words.html",
        &task("Click Keep account"),
        click("keep"),
    )
    .await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        f.eval("window.__pressed").await,
        json!(["mousedown keep", "mouseup keep", "click keep"])
    );
    f.backend.close().await;
    let mut allowed = task("Delete the account");
    allowed.allowed_risks.insert(Risk::Delete);
    let (result, f) = run("risk/words.html", &allowed, click("shy")).await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        f.eval("window.__pressed").await,
        json!(["mousedown shy", "mouseup shy", "click shy"])
    );
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn visible_text_under_a_harmless_accessible_name_is_classified() {
    for id in ["subscribe", "follow", "join", "notify"] {
        let (result, f) = run("risk/masked.html", &task("Click Subscribe"), click(id)).await;
        refused(&result, "Delete account");
        assert_eq!(
            f.eval("window.__pressed").await,
            json!([]),
            "#{id} was pressed"
        );
        f.backend.close().await;
    }
    let (result, f) = run(
        "risk/masked.html",
        &task("Click Bookmark"),
        click("bookmark"),
    )
    .await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        f.eval("window.__pressed").await,
        json!(["mousedown bookmark", "mouseup bookmark", "click bookmark"])
    );
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_viewport_scan_feeds_the_gate_the_same_facts() {
    let (result, f) = run_in(
        Scope::Viewport,
        "risk/masked.html",
        "",
        &task("Click Subscribe"),
        click("subscribe"),
    )
    .await;
    refused(&result, "Delete account");
    assert_eq!(f.eval("window.__pressed").await, json!([]));
    f.backend.close().await;
    let focus = "document.getElementById('reason').focus()";
    let (result, f) = run_in(
        Scope::Viewport,
        "risk/enter.html",
        focus,
        &task("Press Enter"),
        press(Key::Enter),
    )
    .await;
    refused(&result, "Delete account");
    assert_eq!(f.eval("window.__submitted").await, json!([]));
    f.backend.close().await;
}

fn press(key: Key) -> Box<dyn Fn(&Snapshot) -> Action + Send> {
    Box::new(move |_| Action::PressKey { key })
}

#[tokio::test(flavor = "multi_thread")]
async fn enter_in_a_field_is_refused_when_it_would_submit_through_a_risky_button() {
    let focus = "document.getElementById('reason').focus()";
    let (result, f) = run_after(
        "risk/enter.html",
        focus,
        &task("Press Enter"),
        press(Key::Enter),
    )
    .await;
    refused(&result, "Delete account");
    assert_eq!(f.eval("window.__submitted").await, json!([]));
    assert_eq!(
        f.eval("window.__events.filter(e => e.type === 'keydown').length")
            .await,
        0,
        "the page saw a key press"
    );
    f.backend.close().await;

    // A chord with Enter is Enter too.
    let mut chord = task("Press Ctrl+Enter");
    chord.shortcuts.push("CTRL+ENTER".parse().unwrap());
    let ctrl_enter = Box::new(|_: &Snapshot| Action::Hotkey {
        chord: "CTRL+ENTER".parse().unwrap(),
    });
    let (result, f) = run_after("risk/enter.html", focus, &chord, ctrl_enter).await;
    refused(&result, "Delete account");
    assert_eq!(f.eval("window.__submitted").await, json!([]));
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn enter_in_a_harmless_form_submits() {
    let focus = "document.getElementById('nickname').focus()";
    let (result, f) = run_after(
        "risk/enter.html",
        focus,
        &task("Press Enter"),
        press(Key::Enter),
    )
    .await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        f.eval("window.__submitted").await,
        json!([{"form": "profile", "submitter": "save"}])
    );
    f.backend.close().await;
    // And with the risk allowed, Enter submits through the risky button.
    let mut allowed = task("Delete the account");
    allowed.allowed_risks.insert(Risk::Delete);
    let focus = "document.getElementById('reason').focus()";
    let (result, f) = run_after("risk/enter.html", focus, &allowed, press(Key::Enter)).await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        f.eval("window.__submitted").await,
        json!([{"form": "danger", "submitter": "wipe"}])
    );
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn enter_after_typing_submits_unless_the_form_would_submit_through_a_risky_button() {
    let typed = |id: &'static str| {
        Box::new(move |s: &Snapshot| Action::TypeText {
            target: by_dom_id(s, id),
            input_key: "text".into(),
            submit: Some(SubmitKey::Enter),
        }) as Box<dyn Fn(&Snapshot) -> Action + Send>
    };
    let subtask = task("Type and press Enter").with_input("text", "moving away");
    let (result, f) = run("risk/enter.html", &subtask, typed("nickname")).await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        serde_json::to_value(&result.history[0]).unwrap()["action"]["key"],
        "ENTER"
    );
    assert_eq!(
        f.eval("window.__submitted").await,
        json!([{"form": "profile", "submitter": "save"}])
    );
    f.backend.close().await;
    // The reason field's form submits through "Delete account": nothing is typed or sent.
    let (result, f) = run("risk/enter.html", &subtask, typed("reason")).await;
    refused(&result, "Delete account");
    assert_eq!(f.eval("window.__submitted").await, json!([]));
    assert_eq!(f.eval("document.getElementById('reason').value").await, "");
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn typed_text_ending_in_a_newline_does_not_submit() {
    // TYPE_TEXT inserts text (one trusted insertion), which never submits a form: the gate
    // has nothing to refuse, and the page's record shows it.
    let subtask = task("Type the reason").with_input("reason", "moving away\n");
    let type_text = Box::new(|s: &Snapshot| Action::type_text(by_dom_id(s, "reason"), "reason"));
    let (result, f) = run("risk/enter.html", &subtask, type_text).await;
    assert_eq!(result.actions_taken, 1, "{result:#?}");
    assert_eq!(
        f.eval("document.getElementById('reason').value").await,
        "moving away"
    );
    assert_eq!(f.eval("window.__submitted").await, json!([]));
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_press_an_overlay_took_is_reported_and_ends_the_run_when_risky() {
    let (result, f) = run(
        "risk/overlay.html",
        &task("Click Subscribe"),
        click("subscribe"),
    )
    .await;
    // The page's own record: the release went to the overlay, no click reached Subscribe.
    assert_eq!(
        f.eval("window.__pressed").await,
        json!(["mousedown subscribe", "mouseup over"])
    );
    assert_eq!(result.status, TerminalKind::NeedsAgent, "{result:#?}");
    assert_eq!(result.termination, Termination::LandedElsewhere);
    let reason = result.reason.as_deref().unwrap_or("");
    assert!(
        reason.contains(r#"button#over "Delete account""#) && reason.contains("delete"),
        "{reason}"
    );
    assert_eq!(
        result.actions_taken, 1,
        "the press happened and is recorded"
    );
    let landed = result.history[0]
        .landed_elsewhere
        .as_ref()
        .expect("landed elsewhere");
    assert_eq!(landed.element.name, "Delete account");
    assert!(!result.history[0].on_target());
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_harmless_overlay_is_reported_and_the_click_not_counted_as_done() {
    let page = "risk/overlay.html?over=Not+now";
    let (result, f) = run(page, &task("Click Subscribe"), click("subscribe")).await;
    assert_eq!(
        f.eval("window.__pressed").await,
        json!(["mousedown subscribe", "mouseup over"])
    );
    assert_ne!(
        result.termination,
        Termination::LandedElsewhere,
        "{result:#?}"
    );
    let landed = result.history[0]
        .landed_elsewhere
        .as_ref()
        .expect("landed elsewhere");
    assert_eq!(landed.element.name, "Not now");
    assert!(
        result
            .observations
            .iter()
            .any(|o| o.contains(r#"landed on button#over "Not now""#)),
        "{:#?}",
        result.observations
    );
    f.backend.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_flickering_overlay_never_takes_a_press_unreported() {
    // The overlay shows and hides itself every 1-3 ms; a press aimed at Subscribe lands on
    // whichever the page shows at that instant. Each attempt that pressed is compared with
    // the page's own record of where its mousedown and mouseup went.
    let mut f = Fixture::open("risk/flicker.html").await;
    let subtask = task("Click Subscribe");
    let (mut on_target, mut elsewhere, mut covered) = (0, 0, 0);
    for attempt in 0..300 {
        f.eval("window.__presses.length = 0").await;
        let s = f.observe().await;
        let Some(sub) = s.elements.iter().find(|e| e.name == "Subscribe") else {
            continue;
        };
        let action = Action::click(sub.id.clone());
        let Ok(executed) = f.act(&s, action, &subtask).await else {
            covered += 1; // covered at the hit test: nothing pressed
            assert_eq!(
                f.eval("window.__presses").await,
                json!([]),
                "attempt {attempt}"
            );
            continue;
        };
        let landed = executed.landed_elsewhere;
        let presses = f.eval("window.__presses").await;
        let on_subscribe = json!(["mousedown subscribe", "mouseup subscribe"]);
        if presses == on_subscribe {
            assert!(landed.is_none(), "attempt {attempt}: {landed:?}");
            on_target += 1;
        } else {
            // The overlay took the press or its release: the page's record names it.
            let took = presses.as_array().is_some_and(|p| {
                p.iter()
                    .any(|e| e.as_str().is_some_and(|e| e.ends_with(" wipe")))
            });
            assert!(took, "attempt {attempt}: the page recorded {presses}");
            let landed =
                landed.unwrap_or_else(|| panic!("attempt {attempt}: {presses} unreported"));
            assert_eq!(landed.element.name, "Delete account");
            elsewhere += 1;
        }
        if on_target > 0 && elsewhere >= 3 {
            break;
        }
    }
    eprintln!(
        "flicker: {on_target} on target, {elsewhere} elsewhere, {covered} refused as covered"
    );
    assert!(
        elsewhere >= 1 && on_target >= 1,
        "the race was not exercised: {on_target} on target, {elsewhere} elsewhere"
    );
    f.backend.close().await;
}
