//! The risk gate has no side doors: a press is classified by everything it will press —
//! the element at the point, the control it acts through, the control a label activates —
//! by every name the page gives each (text, aria-*, `title`, SVG `<title>`, `alt`, the
//! labels pointing at it). Over the host's front door (raw `act`, `click_at`,
//! `run_subtask`) on real headless Chromium; each outcome is read from the page's own
//! record (`window.__pressed`), never from the host's reply.

use crate::common::{Client, Rig, Session};
use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncWrite};

async fn act<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
    c: &mut Client<R, W>,
    s: &Session,
    action: Value,
) -> Value {
    let obs = c.observe(s).await["observation_id"].clone();
    c.call(
        "act",
        json!({"session": s.auth, "observation_id": obs, "action": action}),
    )
    .await
}

/// A CLICK_AT at the centre of `#id`.
async fn click_at<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
    rig: &Rig,
    c: &mut Client<R, W>,
    s: &Session,
    id: &str,
) -> Value {
    let (x, y) = rig.centre(&s.target_id, id).await;
    act(c, s, json!({"kind": "CLICK_AT", "x": x, "y": y})).await
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
