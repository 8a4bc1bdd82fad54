//! Desktop windows as host targets, through the host protocol (JSON lines over an
//! in-memory duplex) on the GTK fixture under a private Xvfb + D-Bus: listed beside
//! pages, one window bound exactly, observed and acted on through the same session core;
//! every outcome read from the fixture's own JSON record.

use crate::common::desktop::{App, Desktop};
use crate::common::{duplex_client, Session};
use arc_host::{DesktopAccess, Host, Limits};
use serde_json::{json, Value};

fn host_on(desk: &Desktop) -> Host {
    let host = Host::without_browser(Limits::default());
    host.set_desktop(DesktopAccess {
        session_bus: Some(desk.bus.clone()),
        display: Some(desk.display.clone()),
    });
    host
}

/// The listed window of the app with `pid`.
fn window_of(targets: &Value, pid: u32) -> Value {
    targets["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "window" && t["pid"] == pid)
        .cloned()
        .unwrap_or_else(|| panic!("no window of pid {pid} in {targets}"))
}

fn events(app: &App) -> usize {
    app.read().map_or(0, |r| r.events.len())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_on_a_desktop_window_observes_and_acts_on_it_alone() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "8"]);
    let other = desk.launch_recording("other.json", &["--rows", "8", "--title", "Other app"]);
    let host = host_on(&desk);
    let mut c = duplex_client(&host);
    c.hello().await;

    let targets = c.ok("list_targets", json!({})).await;
    assert!(targets.get("desktop_unavailable").is_none(), "{targets}");
    let mine = window_of(&targets, app.pid());
    let theirs = window_of(&targets, other.pid());
    assert_eq!(mine["app"], "arc-gtk-form");
    assert_eq!(mine["window"], "Arc GTK form");
    assert_eq!(theirs["window"], "Other app");
    assert!(mine["target_id"].as_str().unwrap().starts_with("atspi:"));

    let r = c
        .ok(
            "open_session",
            json!({"grants": {"allow_input": true}, "target": {"target_id": mine["target_id"]}}),
        )
        .await;
    assert_eq!(r["target"], mine, "the session names the window it bound");
    let s = Session {
        auth: r["session"].clone(),
        target_id: mine["target_id"].as_str().unwrap().to_owned(),
    };

    // The view is the bound window's only: nothing of the other app's window.
    let o = c.observe(&s).await;
    let view = o["view"].as_str().unwrap();
    assert!(
        view.contains("Submit") && view.contains("Arc GTK form"),
        "{view}"
    );
    assert!(!view.contains("Other app"), "{view}");

    // An act lands, as the fixture's own record shows, and only in the bound app.
    let (submit, obs) = c.find_role(&s, "button", "Submit").await;
    let before_other = events(&other);
    let r = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "CLICK", "target_id": submit}, "observe_after": {}}),
        )
        .await;
    assert_ne!(r["outcome"], "stale", "{r}");
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "clicked" && e.widget == "submit")
        },
        "submit clicked through the host",
    );
    assert_eq!(events(&other), before_other, "the other app got nothing");
    assert!(r["journal_seq"].as_u64().unwrap() > 0, "journaled: {r}");
    // wait_for reads the window too (the status line the click wrote).
    let w = c
        .ok(
            "wait_for",
            json!({"session": s.auth, "timeout_ms": 5000,
                   "condition": {"kind": "text_contains", "text": "Submitted:"}}),
        )
        .await;
    assert_eq!(w["met"], true, "{w}");
    let r = w.clone();

    // A stale observation is refused, and nothing happens.
    let old = r["observation"]["observation_id"].clone();
    assert!(old.is_string(), "{r}");
    c.observe(&s).await;
    let before = events(&app);
    let code = c
        .code(
            "act",
            json!({"session": s.auth, "observation_id": old,
                   "action": {"kind": "CLICK", "target_id": submit}}),
        )
        .await;
    assert_eq!(code, "stale_observation");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(events(&app), before, "a refused act changed nothing");

    // Browser-only tools say so with their code.
    let o = c.observe(&s).await;
    let code = c
        .code(
            "act",
            json!({"session": s.auth, "observation_id": o["observation_id"],
                   "action": {"kind": "TYPE_FOCUSED", "text": "x"}}),
        )
        .await;
    assert_eq!(code, "unsupported_on_target");

    // A typed id: a malformed window id and a window that is not there.
    let code = c
        .code(
            "open_session",
            json!({"target": {"target_id": "atspi:no-path"}}),
        )
        .await;
    assert_eq!(code, "invalid_params");
    let code = c
        .code(
            "open_session",
            json!({"target": {"target_id": "atspi::1.999/org/a11y/atspi/accessible/1"}}),
        )
        .await;
    assert_eq!(code, "target_not_found");

    // run_subtask drives the window through the same guarded backend.
    let o = c.observe(&s).await;
    let r = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": o["observation_id"],
                   "subtask": {"goal": "Enter the name and submit the form",
                               "inputs": {"name": "Grace Hopper"},
                               "verification": ["The window shows \"Submitted: Grace Hopper\""]}}),
        )
        .await;
    assert_eq!(r["result"]["status"], "SUBTASK_COMPLETE", "{r}");
    app.wait(
        |r| r.state.name == "Grace Hopper",
        "the name typed by the run",
    );
    assert_eq!(
        events(&other),
        before_other,
        "the other app still got nothing"
    );
    assert_eq!(other.read().unwrap().state.name, "");
}

#[tokio::test(flavor = "multi_thread")]
async fn click_at_on_a_window_holds_its_modifiers_and_refuses_a_covered_point() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "8"]);
    let host = host_on(&desk);
    let mut c = duplex_client(&host);
    c.hello().await;
    let targets = c.ok("list_targets", json!({})).await;
    let mine = window_of(&targets, app.pid());
    let r = c
        .ok(
            "open_session",
            json!({"grants": {"allow_input": true}, "target": {"target_id": mine["target_id"]}}),
        )
        .await;
    let s = Session {
        auth: r["session"].clone(),
        target_id: String::new(),
    };
    let o = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true}}),
        )
        .await;
    let els = o["elements"].as_array().unwrap();
    let icon = els
        .iter()
        .find(|e| e["name"] == "Search icon")
        .expect("the icon");
    let window = els
        .iter()
        .find(|e| e["role"] == "window")
        .and_then(|w| w["bounds"].as_object().cloned());
    let (wx, wy) = window
        .map(|b| (b["x"].as_f64().unwrap(), b["y"].as_f64().unwrap()))
        .unwrap_or((0.0, 0.0));
    let b = &icon["bounds"];
    let x = b["x"].as_f64().unwrap() + b["width"].as_f64().unwrap() / 2.0 - wx;
    let y = b["y"].as_f64().unwrap() + b["height"].as_f64().unwrap() / 2.0 - wy;
    let r = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": o["observation_id"],
                   "action": {"kind": "CLICK_AT", "x": x, "y": y, "modifiers": ["shift", "ctrl"]},
                   "observe_after": {}}),
        )
        .await;
    assert_ne!(r["outcome"], "stale", "{r}");
    let rec = app.wait(
        |r| r.events.iter().any(|e| e.widget == "icon"),
        "the icon pressed at the point",
    );
    let press = rec.events.iter().find(|e| e.widget == "icon").unwrap();
    assert_eq!(
        press.modifiers.as_deref(),
        Some(&["shift".to_owned(), "ctrl".to_owned()][..]),
        "the toolkit saw the held keys"
    );

    // A second app over the window: the same click is stale, nothing pressed anywhere.
    let over = desk.launch_recording("over.json", &["--rows", "8", "--title", "Over"]);
    let presses = |a: &App| {
        a.read().map_or(0, |r| {
            r.events.iter().filter(|e| e.widget == "icon").count()
        })
    };
    let r = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": r["observation"]["observation_id"],
                   "action": {"kind": "CLICK_AT", "x": x, "y": y}}),
        )
        .await;
    assert_eq!(r["outcome"], "stale", "{r}");
    assert!(r["reason"].as_str().unwrap().contains("covers"), "{r}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(presses(&app), 1, "the covered app got no second press");
    assert_eq!(presses(&over), 0, "the covering app got nothing");
}
