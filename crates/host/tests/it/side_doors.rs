//! The risk gate has no side doors: a press is classified by everything it will press —
//! the element at the point, the control it acts through, the control a label activates —
//! by every name the page gives each (text, aria-*, `title`, SVG `<title>`, `alt`, the
//! labels pointing at it). Over the host's front door (raw `act`, `click_at`,
//! `run_subtask`) on real headless Chromium; each outcome is read from the page's own
//! record (`window.__pressed`), never from the host's reply.

use crate::common::{Client, Rig, Session};
use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncWrite};

/// A CLICK_AT at the centre of `#id`.
async fn click_at<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
    rig: &Rig,
    c: &mut Client<R, W>,
    s: &Session,
    id: &str,
) -> Value {
    let (x, y) = rig.centre(&s.target_id, id).await;
    c.act_fresh(s, json!({"kind": "CLICK_AT", "x": x, "y": y}))
        .await
}

async fn pressed(rig: &Rig, s: &Session) -> Value {
    rig.eval(&s.target_id, "JSON.stringify(window.__pressed)")
        .await
}

/// The act was refused for a delete risk and the page saw no press at all.
async fn refused(rig: &Rig, s: &Session, r: &Value, what: &str) {
    assert_eq!(r["ok"], true, "{what}: {r}");
    assert_eq!(r["result"]["outcome"], "refused", "{what}: {r}");
    let reason = r["result"]["reason"].as_str().unwrap();
    assert!(reason.contains("delete"), "{what}: {reason}");
    assert_eq!(pressed(rig, s).await, "[]", "{what} pressed something");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_risky_name_in_a_tooltip_an_svg_title_or_behind_a_label_is_refused() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/names.html", json!({"allow_input": true}))
        .await;
    // At a point: the icon, the SVG, a <label for> and a wrapping label's text.
    for id in ["tip", "svg", "agree", "wraptext"] {
        let r = click_at(&rig, &mut c, &s, id).await;
        refused(&rig, &s, &r, &format!("CLICK_AT #{id}")).await;
    }
    // By element: the icon button the snapshot names "🗑".
    let (tip, obs) = c.find_role(&s, "button", "🗑").await;
    let r = c
        .call(
            "act",
            json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": tip}}),
        )
        .await;
    refused(&rig, &s, &r, "CLICK on the 🗑 button").await;
    // Through a subtask: the loop's gate reads the same names.
    let obs = c.observe(&s).await["observation_id"].clone();
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs,
                   "subtask": {"goal": "Click the \"🗑\" button", "verification": ["The \"🗑\" button has been clicked"]}}),
        )
        .await;
    assert_eq!(r["result"]["status"], "NEEDS_AGENT", "{r}");
    assert_eq!(r["result"]["termination"], "risk_refused", "{r}");
    assert_eq!(pressed(&rig, &s).await, "[]", "the subtask pressed it");

    // The record does see presses: a harmless icon at a point, and with the risk granted,
    // the label presses the button it points at.
    let r = click_at(&rig, &mut c, &s, "keep").await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert_eq!(
        pressed(&rig, &s).await,
        r#"["mousedown keep","mouseup keep","click keep"]"#
    );
    let granted = c
        .open(
            &rig.url("risk/names.html"),
            json!({"allow_input": true, "allowed_risks": ["delete"]}),
        )
        .await;
    let r = click_at(&rig, &mut c, &granted, "agree").await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert_eq!(pressed(&rig, &granted).await, r#"["click wipe"]"#);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flickering_overlay_never_takes_a_host_press_unreported() {
    // "Delete account" shows and hides itself over "Subscribe" every 1-3 ms: a press the
    // gate judged on Subscribe may land on it. Each attempt's reply is compared with the
    // page's own record of where its mousedown and mouseup went.
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/flicker.html", json!({"allow_input": true}))
        .await;
    let at = rig.centre(&s.target_id, "subscribe").await;
    for by_point in [true, false] {
        let (mut on_target, mut elsewhere, mut nothing) = (0, 0, 0);
        for attempt in 0..300 {
            rig.eval(&s.target_id, "window.__presses.length = 0").await;
            let r = if by_point {
                c.act_fresh(&s, json!({"kind": "CLICK_AT", "x": at.0, "y": at.1}))
                    .await
            } else {
                let (id, obs) = c.find_role(&s, "button", "Subscribe").await;
                c.call(
                    "act",
                    json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": id}}),
                )
                .await
            };
            assert_eq!(r["ok"], true, "attempt {attempt}: {r}");
            let outcome = r["result"]["outcome"].as_str().unwrap().to_owned();
            let presses = rig
                .eval(&s.target_id, "JSON.stringify(window.__presses)")
                .await;
            let presses = presses.as_str().unwrap();
            if outcome == "refused" || outcome == "stale" {
                assert_eq!(presses, "[]", "attempt {attempt}: {outcome} pressed");
                nothing += 1;
            } else if presses == r#"["mousedown subscribe","mouseup subscribe"]"# {
                assert_ne!(outcome, "landed_elsewhere", "attempt {attempt}: {r}");
                on_target += 1;
            } else {
                assert!(presses.contains(" wipe"), "attempt {attempt}: {presses}");
                assert_eq!(
                    outcome, "landed_elsewhere",
                    "attempt {attempt}: the page recorded {presses}, the host said {r}"
                );
                let reason = r["result"]["reason"].as_str().unwrap();
                assert!(
                    reason.contains("Delete account") && reason.contains("'delete' risk"),
                    "{reason}"
                );
                elsewhere += 1;
            }
            if on_target > 0 && elsewhere >= 3 {
                break;
            }
        }
        eprintln!(
            "flicker (by point: {by_point}): {on_target} on target, {elsewhere} elsewhere, {nothing} refused or stale"
        );
        assert!(
            elsewhere >= 1 && on_target >= 1,
            "the race was not exercised: {on_target} on target, {elsewhere} elsewhere"
        );
    }
}

/// Acts `action` (its `target_id` set to the element `find` returns for `role`/`text`).
async fn act_on<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
    c: &mut Client<R, W>,
    s: &Session,
    role: &str,
    text: &str,
    mut action: Value,
) -> Value {
    let (id, obs) = c.find_role(s, role, text).await;
    action["target_id"] = json!(id);
    c.call(
        "act",
        json!({"session": s.auth, "observation_id": obs, "action": action}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_selection_a_zero_drag_or_a_right_click_on_a_risky_control_is_refused() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/nonpress.html", json!({"allow_input": true}))
        .await;
    for (role, text, action) in [
        (
            "paragraph",
            "Delete every message",
            json!({"kind": "SELECT_TEXT"}),
        ),
        (
            "button",
            "Delete draft",
            json!({"kind": "DRAG_BY", "dx": 0.0, "dy": 0.0}),
        ),
        ("button", "Remove", json!({"kind": "RIGHT_CLICK"})),
    ] {
        let what = format!("{} on {text:?}", action["kind"]);
        let r = act_on(&mut c, &s, role, text, action).await;
        refused(&rig, &s, &r, &what).await;
    }
    // A selection in plain text presses nothing and is not refused for its words.
    let r = act_on(
        &mut c,
        &s,
        "paragraph",
        "Remove the stains",
        json!({"kind": "SELECT_TEXT"}),
    )
    .await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert_eq!(
        rig.eval(&s.target_id, "getSelection().toString()").await,
        "Remove the stains with cold water first"
    );
    // The record does see these presses when the risk is granted.
    let granted = c
        .open(
            &rig.url("risk/nonpress.html"),
            json!({"allow_input": true, "allowed_risks": ["delete"]}),
        )
        .await;
    let r = act_on(
        &mut c,
        &granted,
        "button",
        "Remove",
        json!({"kind": "RIGHT_CLICK"}),
    )
    .await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert!(
        pressed(&rig, &granted)
            .await
            .as_str()
            .unwrap()
            .contains("mousedown ctx"),
        "the right click reached the page"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_after_typing_submits_a_harmless_form_and_is_refused_through_a_risky_one() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/enter.html", json!({"allow_input": true}))
        .await;
    let submitted = "JSON.stringify(window.__submitted)";
    let typed = json!({"kind": "TYPE_TEXT", "text": "moving away", "key": "ENTER"});
    // The reason field's form submits through "Delete account": nothing typed or sent.
    let r = act_on(&mut c, &s, "text_field", "Reason", typed.clone()).await;
    assert_eq!(r["result"]["outcome"], "refused", "{r}");
    assert!(
        r["result"]["reason"]
            .as_str()
            .unwrap()
            .contains("Delete account"),
        "{r}"
    );
    assert_eq!(rig.eval(&s.target_id, submitted).await, "[]");
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('reason').value")
            .await,
        ""
    );
    // The nickname field's form submits through "Save": one act types and sends.
    let r = act_on(&mut c, &s, "text_field", "Nickname", typed).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert_eq!(
        rig.eval(&s.target_id, submitted).await,
        r#"[{"form":"profile","submitter":"save"}]"#
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_letters_and_letter_spacing_do_not_hide_delete() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/words.html", json!({"allow_input": true}))
        .await;
    for id in ["cyrillic", "spaced"] {
        let r = click_at(&rig, &mut c, &s, id).await;
        refused(&rig, &s, &r, &format!("CLICK_AT #{id}")).await;
    }
    for name in ["D\u{435}lete account", "D e l e t e account"] {
        let (el, obs) = c.find_role(&s, "button", name).await;
        let r = c
            .call(
                "act",
                json!({"session": s.auth, "observation_id": obs, "action": {"kind": "CLICK", "target_id": el}}),
            )
            .await;
        refused(&rig, &s, &r, &format!("CLICK on {name:?}")).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_at_reads_inside_a_same_origin_frame_and_a_closed_shadow_root() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/frames.html", json!({"allow_input": true}))
        .await;
    // Wait for the frame's document (its script records into ours).
    for _ in 0..50 {
        let ready = rig
            .eval(
                &s.target_id,
                "!!document.getElementById('frame').contentDocument?.getElementById('wipe')",
            )
            .await;
        if ready == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for id in ["frame", "closed"] {
        let r = click_at(&rig, &mut c, &s, id).await;
        refused(&rig, &s, &r, &format!("CLICK_AT inside #{id}")).await;
    }
    // A harmless button in a closed root is pressed, and its press is not reported as
    // landing elsewhere (the page retargets it to the host).
    let r = click_at(&rig, &mut c, &s, "keep").await;
    let outcome = r["result"]["outcome"].as_str().unwrap_or_default();
    assert!(outcome == "done" || outcome == "changed", "{r}");
    assert_eq!(
        pressed(&rig, &s).await,
        r#"["mousedown keep","mouseup keep","click keep"]"#
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_with_the_focus_inside_a_closed_shadow_root_is_refused() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("risk/focus.html", json!({"allow_input": true}))
        .await;
    for key in ["Enter", "Space"] {
        let r = c
            .act_fresh(&s, json!({"kind": "PRESS_KEY", "key": key}))
            .await;
        refused(&rig, &s, &r, &format!("PRESS_KEY {key}")).await;
    }
    // With the risk granted the same key presses the button: the record sees it.
    let granted = c
        .open(
            &rig.url("risk/focus.html"),
            json!({"allow_input": true, "allowed_risks": ["delete"]}),
        )
        .await;
    let r = c
        .act_fresh(&granted, json!({"kind": "PRESS_KEY", "key": "Enter"}))
        .await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    assert!(
        pressed(&rig, &granted)
            .await
            .as_str()
            .unwrap()
            .contains("click closed"),
        "Enter reached the button"
    );
}

/// Waits (up to 5 s) until `expression` is true in the page (a frame's document posted
/// that it loaded, or its focus).
async fn until(rig: &Rig, s: &Session, expression: &str) {
    for _ in 0..100 {
        if rig.eval(&s.target_id, expression).await == true {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never true: {expression}");
}

/// The page's record once it holds `want` (frames post their events: they arrive a
/// moment after the press), or as it is after 2 s.
async fn pressed_once(rig: &Rig, s: &Session, want: &str) -> Value {
    for _ in 0..40 {
        let got = pressed(rig, s).await;
        if got == want {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    pressed(rig, s).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_at_reads_inside_a_cross_site_frame_and_closed_roots_in_closed_roots() {
    let rig = Rig::start().await;
    for (page, wait) in [
        ("risk/cross-frames.html", "window.__ready.length === 2"),
        ("risk/nested-roots.html", "true"),
    ] {
        let (mut c, s) = rig.opened(page, json!({"allow_input": true})).await;
        until(&rig, &s, wait).await;
        let risky = if page.contains("cross") {
            "frame"
        } else {
            "outer"
        };
        let r = click_at(&rig, &mut c, &s, risky).await;
        refused(&rig, &s, &r, &format!("CLICK_AT on #{risky} of {page}")).await;
        // The harmless button beside it is pressed, and its press is not reported as
        // landing elsewhere.
        let r = click_at(&rig, &mut c, &s, "keep").await;
        let outcome = r["result"]["outcome"].as_str().unwrap_or_default();
        assert!(outcome == "done" || outcome == "changed", "{page}: {r}");
        let want = r#"["mousedown keep","mouseup keep","click keep"]"#;
        assert_eq!(pressed_once(&rig, &s, want).await, want, "{page}");
    }
}

/// The same pages by element: the buttons inside a cross-site frame and inside closed
/// roots nested in closed roots are observed as elements of the page; a CLICK on the
/// risky one is refused by its own name, the harmless one is pressed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_on_an_element_inside_a_cross_site_frame_or_closed_roots_is_judged_by_its_name() {
    let rig = Rig::start().await;
    for (page, wait) in [
        ("risk/cross-frames.html", "window.__ready.length === 2"),
        ("risk/nested-roots.html", "true"),
    ] {
        let (mut c, s) = rig.opened(page, json!({"allow_input": true})).await;
        until(&rig, &s, wait).await;
        let click = json!({"kind": "CLICK"});
        let r = act_on(&mut c, &s, "button", "Delete account", click.clone()).await;
        refused(&rig, &s, &r, &format!("CLICK on Delete account of {page}")).await;
        let r = act_on(&mut c, &s, "button", "Keep account", click).await;
        let outcome = r["result"]["outcome"].as_str().unwrap_or_default();
        assert!(outcome == "done" || outcome == "changed", "{page}: {r}");
        let want = r#"["mousedown keep","mouseup keep","click keep"]"#;
        assert_eq!(pressed_once(&rig, &s, want).await, want, "{page}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_with_the_focus_inside_a_cross_site_frame_or_closed_roots_in_closed_roots_is_refused()
{
    let rig = Rig::start().await;
    for (page, focused, before) in [
        (
            "risk/cross-frames.html?focus=frame",
            "window.__pressed.includes('focus frame')",
            r#"["focus frame"]"#,
        ),
        ("risk/nested-roots.html?focus=outer", "true", "[]"),
    ] {
        let (mut c, s) = rig.opened(page, json!({"allow_input": true})).await;
        until(&rig, &s, focused).await;
        for key in ["Enter", "Space"] {
            let r = c
                .act_fresh(&s, json!({"kind": "PRESS_KEY", "key": key}))
                .await;
            assert_eq!(r["result"]["outcome"], "refused", "{page} {key}: {r}");
            assert!(r["result"]["reason"].as_str().unwrap().contains("delete"));
            assert_eq!(pressed(&rig, &s).await, before, "{page} {key} pressed");
        }
        // With the risk granted the same key presses the button: the record sees it.
        let granted = c
            .open(
                &rig.url(page),
                json!({"allow_input": true, "allowed_risks": ["delete"]}),
            )
            .await;
        until(&rig, &granted, focused).await;
        let r = c
            .act_fresh(&granted, json!({"kind": "PRESS_KEY", "key": "Enter"}))
            .await;
        assert_ne!(r["result"]["outcome"], "refused", "{page}: {r}");
        // Bounded at 10 s: under the whole suite's load the page's click handler ran
        // after the 2 s this waited before (one CI run).
        let mut seen = Value::Null;
        for _ in 0..200 {
            seen = pressed(&rig, &granted).await;
            if seen.as_str().unwrap().contains("click") {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert!(
            seen.as_str().unwrap().contains("click"),
            "{page}: Enter reached the button: {seen}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn click_at_on_a_button_drawn_on_a_canvas_is_judged_by_its_drawn_words() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("canvas.html", json!({"allow_input": true}))
        .await;
    // A point on a drawn button (`dx`, `dy` from its top-left corner), as the page
    // measures it.
    let at = |label: &str, dx: &str, dy: &str| {
        format!(
            "(() => {{ const r = document.getElementById('pad').getBoundingClientRect(); \
             const b = buttons.find((b) => b.label === '{label}'); \
             return JSON.stringify([r.left + b.x + {dx}, r.top + b.y + {dy}]); }})()"
        )
    };
    let events = "JSON.stringify(window.__events)";
    for (dx, dy) in [("b.w / 2", "b.h / 2"), ("8", "8")] {
        let v = rig.eval(&s.target_id, &at("Delete", dx, dy)).await;
        let [x, y]: [f64; 2] = serde_json::from_str(v.as_str().unwrap()).unwrap();
        let r = c
            .act_fresh(&s, json!({"kind": "CLICK_AT", "x": x, "y": y}))
            .await;
        assert_eq!(
            r["result"]["outcome"], "refused",
            "Delete at +({dx}, {dy}): {r}"
        );
        assert!(r["result"]["reason"].as_str().unwrap().contains("delete"));
        assert_eq!(rig.eval(&s.target_id, events).await, "[]", "pressed");
    }
    // A harmless drawn button is pressed: the page records the press on it.
    let v = rig
        .eval(&s.target_id, &at("Open", "b.w / 2", "b.h / 2"))
        .await;
    let [x, y]: [f64; 2] = serde_json::from_str(v.as_str().unwrap()).unwrap();
    let r = c
        .act_fresh(&s, json!({"kind": "CLICK_AT", "x": x, "y": y}))
        .await;
    assert_ne!(r["result"]["outcome"], "refused", "{r}");
    let seen = rig.eval(&s.target_id, events).await;
    assert!(
        seen.as_str().unwrap().contains(r#""target":"Open""#),
        "{seen}"
    );
}
