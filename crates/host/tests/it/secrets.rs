//! Password values and secret inputs never leave the host, also where the page repeats
//! them: an echo elsewhere on the page, a password field the page turns into a text field,
//! an element named in an act's reason or an error, and the pixels of a screenshot (read
//! back with Tesseract, and the field's box checked black). The page
//! (`password-echo.html`) fills and echoes its password by its own script; what it holds
//! is read through the test's own CDP session, never through the host.
//! Drives real headless Chromium (`Rig`: a launched browser and the fixture site).

use crate::common::mcp::{mcp_observation, Mcp};
use crate::common::{of_type, Rig, Session};
use arc_vision::{GrayImage, OcrEngine};
use base64::Engine as _;
use serde_json::{json, Value};

/// What the page's script puts in its password field.
const PASSWORD: &str = "Quartz7Zebra";

/// Every reply's text must be free of `secret`.
fn assert_clean(replies: &[Value], secret: &str) {
    for r in replies {
        let text = r.to_string();
        assert!(!text.contains(secret), "{secret} left the host: {text}");
    }
}

fn png_of(observation: &Value) -> Vec<u8> {
    let b64 = observation["png_base64"].as_str().expect("a PNG");
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64")
}

/// The text Tesseract reads in `png`, lower case, spaces removed.
fn ocr(png: &[u8]) -> String {
    let image = GrayImage::from_png(png).expect("a PNG the host sent");
    let mut engine = OcrEngine::new().expect("Tesseract (libtesseract5, tesseract-ocr-eng)");
    let regions = engine.read(&image, true).expect("OCR");
    regions
        .iter()
        .map(|r| r.text.to_lowercase().replace(' ', ""))
        .collect::<Vec<_>>()
        .join("|")
}

/// Whether Tesseract read any part of `secret` (a misread letter aside: its halves).
fn reads(text: &str, secret: &str) -> bool {
    let s = secret.to_lowercase();
    let (a, b) = s.split_at(s.len() / 2);
    text.contains(a) || text.contains(b)
}

/// Whether every pixel inside the element's box (CSS px, scaled to the PNG) is black.
fn box_is_black(png: &[u8], element: &Value, scale: f64) -> bool {
    let image = GrayImage::from_png(png).expect("a PNG");
    let b = &element["bounds"];
    let (x, y, w, h) = (
        b["x"].as_f64().unwrap() * scale,
        b["y"].as_f64().unwrap() * scale,
        b["width"].as_f64().unwrap() * scale,
        b["height"].as_f64().unwrap() * scale,
    );
    assert!(w > 4.0 && h > 4.0, "a box to look at: {element}");
    // One pixel in from each edge: a box's edge may fall between pixels.
    let (x0, y0) = (x.ceil() as i64 + 1, y.ceil() as i64 + 1);
    let (x1, y1) = ((x + w).floor() as i64 - 1, (y + h).floor() as i64 - 1);
    (y0..y1).all(|py| (x0..x1).all(|px| image.get(px, py) < 16))
}

/// The elements of `observation` whose role is `role`.
fn of_role<'a>(observation: &'a Value, role: &str) -> Vec<&'a Value> {
    observation["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .filter(|e| e["role"] == role)
        .collect()
}

async fn page_value(rig: &Rig, s: &Session, expression: &str) -> Value {
    rig.eval(&s.target_id, expression).await
}

/// The PNG's pixels per CSS pixel.
async fn scale(rig: &Rig, s: &Session, png: &[u8]) -> f64 {
    let image = GrayImage::from_png(png).expect("a PNG");
    let inner = page_value(rig, s, "innerWidth").await.as_f64().unwrap();
    image.width() as f64 / inner
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echo_of_a_password_is_redacted_in_observe_find_and_wait_on_small_and_large_pages() {
    let rig = Rig::start().await;
    for page in ["password-echo.html", "password-echo.html?large=1"] {
        let (mut c, s) = rig.opened(page, json!({"allow_input": true})).await;
        let mut replies = vec![
            c.ok(
                "observe",
                json!({"session": s.auth, "options": {"include_elements": true}}),
            )
            .await,
        ];
        replies.push(
            c.ok("find", json!({"session": s.auth, "text": "password is"}))
                .await,
        );
        let waited = c
            .ok(
                "wait_for",
                json!({"session": s.auth, "condition": {"kind": "text_contains", "text": "Your password is"}, "timeout_ms": 2_000}),
            )
            .await;
        assert_eq!(
            waited["met"], true,
            "{page}: the echo is on the page: {waited}"
        );
        replies.push(waited);
        // The page shows the password in its echo; the host showed the echo without it.
        assert_eq!(
            page_value(&rig, &s, "document.getElementById('echo').textContent").await,
            format!("Your password is {PASSWORD}")
        );
        assert!(
            replies[0]["view"]
                .as_str()
                .unwrap()
                .contains("Your password is [secret]"),
            "{page}: {}",
            replies[0]["view"]
        );
        assert_clean(&replies, PASSWORD);
        // The large page is one the browser scans near the viewport only.
        if page.ends_with("large=1") {
            let n = page_value(&rig, &s, "document.getElementsByTagName('*').length").await;
            assert!(n.as_u64().unwrap() > 1_000, "{n} elements");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_title_echoing_a_learned_password_is_redacted_in_the_target_lists() {
    let rig = Rig::start().await;
    let (mut c, s) = rig.opened("password-echo.html?title=1", json!({})).await;
    let observed = c.observe(&s).await;
    assert_eq!(
        page_value(&rig, &s, "document.title").await,
        format!("Signed in with {PASSWORD}")
    );
    let listed = c.ok("list_targets", json!({})).await;
    assert!(
        listed.to_string().contains("Signed in with [secret]"),
        "{listed}"
    );
    // Another client, listing the targets or attaching to the page, is told no more.
    let mut other = rig.duplex_client();
    other.hello().await;
    let listed_elsewhere = other.ok("list_targets", json!({})).await;
    let attached = other
        .ok(
            "open_session",
            json!({"grants": {}, "target": {"target_id": s.target_id}}),
        )
        .await;
    assert_clean(&[observed, listed, listed_elsewhere, attached], PASSWORD);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_the_page_shows_as_text_stays_redacted() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("password-echo.html", json!({"allow_input": true}))
        .await;
    let first = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true}}),
        )
        .await;
    assert_eq!(of_role(&first, "password_field").len(), 1, "{first}");
    let (show, obs) = c.find_role(&s, "button", "Show password").await;
    let clicked = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "CLICK", "target_id": show},
                   "observe_after": {"include_elements": true, "since": first["observation_id"]}}),
        )
        .await;
    // The page's own record: the field is a text field now, still holding the password.
    assert_eq!(
        page_value(&rig, &s, "document.getElementById('pw').type").await,
        "text"
    );
    assert_eq!(
        page_value(&rig, &s, "document.getElementById('pw').value").await,
        PASSWORD
    );
    let after = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true}}),
        )
        .await;
    assert!(
        of_role(&after, "password_field").is_empty(),
        "the field is shown as a text field now: {after}"
    );
    let found = c
        .ok("find", json!({"session": s.auth, "text": PASSWORD}))
        .await;
    assert_clean(&[first, clicked, after, found], PASSWORD);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_act_reason_and_an_error_naming_an_element_redact_the_password() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("password-echo.html", json!({"allow_input": true}))
        .await;
    // A press on Save meets a password field the page laid over it after the observation.
    let (save, obs) = c.find_role(&s, "button", "Save").await;
    page_value(
        &rig,
        &s,
        "document.getElementById('cover').hidden = false; 1",
    )
    .await;
    let pressed = c
        .ok(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "CLICK", "target_id": save}}),
        )
        .await;
    assert_eq!(pressed["outcome"], "stale", "{pressed}");
    assert!(
        pressed["reason"].as_str().unwrap().contains("covered by"),
        "{pressed}"
    );
    let events = rig.events(&s.target_id).await;
    assert!(
        of_type(&events, "click")
            .iter()
            .all(|e| e["target"] != "save"),
        "Save was not pressed: {events:?}"
    );
    // Typing at the focus when the page focused its echo is refused, naming the echo.
    page_value(&rig, &s, "document.getElementById('echo').focus(); 1").await;
    let obs = c.observe(&s).await["observation_id"].clone();
    let typed = c
        .call(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "TYPE_FOCUSED", "text": "x"}}),
        )
        .await;
    assert_eq!(typed["error"]["code"], "invalid_action", "{typed}");
    assert!(
        typed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the focus is on p#echo"),
        "{typed}"
    );
    assert_clean(&[pressed, typed], PASSWORD);
}

/// A screenshot: each of `masked`'s boxes is black, and Tesseract reads the page's other
/// words but no part of `secret`.
async fn assert_screenshot_masked(
    rig: &Rig,
    s: &Session,
    observation: &Value,
    masked: &[&Value],
    secret: &str,
) {
    let png = png_of(observation);
    let scale = scale(rig, s, &png).await;
    let text = ocr(&png);
    assert!(
        text.contains("showpassword"),
        "Tesseract reads the page: {text}"
    );
    assert!(!reads(&text, secret), "{secret} is readable: {text}");
    assert!(!masked.is_empty(), "a box to check: {observation}");
    for e in masked {
        assert!(box_is_black(&png, e, scale), "{e} is not blacked out");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observe_include_png_blacks_out_password_fields_and_their_echo() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("password-echo.html", json!({"allow_input": true}))
        .await;
    let o = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true, "include_png": true}}),
        )
        .await;
    assert_screenshot_masked(&rig, &s, &o, &of_role(&o, "password_field"), PASSWORD).await;
    // Shown as text, the field is still the password's box.
    page_value(&rig, &s, "document.getElementById('pw').type = 'text'; 1").await;
    let o = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true, "include_png": true}}),
        )
        .await;
    let shown: Vec<&Value> = of_role(&o, "text_field")
        .into_iter()
        .filter(|e| e["name"] == "Password")
        .collect();
    assert_screenshot_masked(&rig, &s, &o, &shown, PASSWORD).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subtask_secret_input_is_blacked_out_in_a_later_screenshot() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("password-echo.html", json!({"allow_input": true}))
        .await;
    let obs = c.observe(&s).await["observation_id"].clone();
    let nickname = "Falcon9Mango";
    let ran = c
        .ok(
            "run_subtask",
            json!({"session": s.auth, "observation_id": obs,
                   "subtask": {"goal": "Type the nickname into Nickname",
                               "inputs": {"nickname": nickname},
                               "secret_inputs": ["nickname"],
                               "verification": [{"check": "field_value", "field": "Nickname", "equals": nickname}],
                               "max_actions": 3}}),
        )
        .await;
    assert_eq!(
        page_value(&rig, &s, "document.getElementById('nick').value").await,
        nickname,
        "the subtask typed the nickname: {ran}"
    );
    let o = c
        .ok(
            "observe",
            json!({"session": s.auth, "options": {"include_elements": true, "include_png": true}}),
        )
        .await;
    let field: Vec<&Value> = of_role(&o, "text_field")
        .into_iter()
        .filter(|e| e["name"] == "Nickname")
        .collect();
    assert_screenshot_masked(&rig, &s, &o, &field, nickname).await;
    // The run's result and steps: neither its secret input nor the page's password echo.
    let steps = c.events.clone();
    for secret in [nickname, PASSWORD] {
        assert_clean(&[ran.clone(), o.clone(), json!(steps)], secret);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_screenshots_black_out_password_fields_and_their_echo() {
    let rig = Rig::start().await;
    let mut mcp = Mcp::start(&rig, "password-echo.html").await;
    let targets = rig.browser.pages().await.unwrap();
    let page = targets
        .iter()
        .find(|p| p.url.contains("password-echo"))
        .expect("the MCP session's page");
    let s = Session {
        auth: Value::Null,
        target_id: page.target_id.0.clone(),
    };
    let observed = mcp
        .tool("observe", json!({"screenshot": true, "elements": true}))
        .await;
    let o = mcp_observation(&observed);
    assert_screenshot_masked(&rig, &s, &o, &of_role(&o, "password_field"), PASSWORD).await;
    let shot = mcp.tool("screenshot", json!({})).await;
    let png = png_of(&mcp_observation(&shot));
    let text = ocr(&png);
    assert!(text.contains("showpassword"), "{text}");
    assert!(!reads(&text, PASSWORD), "{PASSWORD} is readable: {text}");
    assert_clean(&[observed, shot], PASSWORD);
}
