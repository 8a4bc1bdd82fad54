//! "Logged in", "Kim is signed in": many sign-in pages say nothing of it and offer no
//! sign-out control — the card asking for the password simply gives way to the app. The
//! run holds the criterion when the form it typed the password into has gone, the page
//! answered with something new that is no fault and asks nothing more, and the person
//! named is who the run signed in as. A refused password (the form stays, with an error)
//! and a second factor (a new field asking for a code) are not signed in. Real Chromium;
//! judged by the page's own record.

use crate::reflex_browser::run_html;
use crate::reflex_run::assert_record;
use arc_core::TerminalKind;
use serde_json::json;

/// A two-step sign-in: the username, Next (or Enter), then the password, Sign in (or
/// Enter). `OUTCOME` decides what a right password brings: the app, or a code to enter.
const PAGE: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Orbit</title></head><body>
<div id="card">
  <h1>Welcome to Orbit</h1>
  <form id="step1"><label>Username <input id="user" autocomplete="username"></label> <button>Next</button></form>
  <form id="step2" hidden><label>Password <input id="pass" type="password"></label> <button>Sign in</button><p id="err" role="alert"></p></form>
</div>
<div id="app" hidden><h1>Projects</h1><p>3 projects · 12 open tasks</p></div>
<div id="code" hidden><h1>Check your phone</h1><p>We sent a 6-digit code to your phone.</p><label>Code <input id="otp"></label></div>
<p id="record" hidden>session: none</p>
<script>
const $ = (s) => document.querySelector(s);
$('#step1').onsubmit = (e) => { e.preventDefault(); if (!$('#user').value) return;
  $('#step1').hidden = true; $('#step2').hidden = false; $('#pass').focus(); };
$('#step2').onsubmit = (e) => { e.preventDefault();
  if ($('#pass').value !== 'river-stone-88') { $('#err').textContent = 'Wrong password. Try again.'; return; }
  $('#card').hidden = true;
  if ('OUTCOME' === 'code') { $('#code').hidden = false; $('#otp').focus(); return; }
  $('#app').hidden = false; $('#record').textContent = 'session: user=' + $('#user').value; };
</script></body></html>"##;

fn subtask(password: &str, criterion: &str) -> serde_json::Value {
    json!({
        "goal": "Log in to Orbit as jsmith",
        "inputs": {"username": "jsmith", "password": password},
        "secret_inputs": ["password"],
        "verification": [criterion],
        "max_actions": 8
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_form_that_gives_way_to_the_app_is_a_sign_in() {
    for criterion in ["Logged in", "jsmith is logged in"] {
        let ran = run_html(
            &PAGE.replace("OUTCOME", "app"),
            subtask("river-stone-88", criterion),
        )
        .await;
        assert_record(&ran, "session: user=jsmith").await;
        assert_eq!(
            ran.result.status,
            TerminalKind::SubtaskComplete,
            "{criterion}: {:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_password_or_a_code_to_enter_is_not_a_sign_in() {
    for (outcome, password) in [("app", "river-stone-87"), ("code", "river-stone-88")] {
        for criterion in ["Logged in", "jsmith is logged in"] {
            let ran = run_html(
                &PAGE.replace("OUTCOME", outcome),
                subtask(password, criterion),
            )
            .await;
            assert_record(&ran, "session: none").await;
            assert_ne!(
                ran.result.status,
                TerminalKind::SubtaskComplete,
                "{outcome}/{criterion}: {:?}",
                ran.result.reason
            );
        }
    }
}

/// "Logged in as jsmith", "The Projects dashboard is displayed, showing that we are logged
/// in as jsmith": who it is said after "as", and a screen named by its heading; a screen
/// said with what it shows is both.
#[tokio::test(flavor = "multi_thread")]
async fn who_is_signed_in_is_said_after_as_and_a_screen_by_its_heading() {
    let signed_in = [
        "Logged in as jsmith",
        "The Projects dashboard is displayed, showing that we are logged in as jsmith",
    ];
    for criterion in signed_in {
        let ran = run_html(
            &PAGE.replace("OUTCOME", "app"),
            subtask("river-stone-88", criterion),
        )
        .await;
        assert_record(&ran, "session: user=jsmith").await;
        assert_eq!(
            ran.result.status,
            TerminalKind::SubtaskComplete,
            "{criterion}: {:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
    }
    let cases = [
        ("river-stone-87", "Logged in as jsmith", "session: none"),
        ("river-stone-87", signed_in[1], "session: none"),
        // Someone else; a screen the page does not show.
        ("river-stone-88", "Logged in as kim", "session: user=jsmith"),
        (
            "river-stone-88",
            "The Billing dashboard is displayed, showing that we are logged in as jsmith",
            "session: user=jsmith",
        ),
    ];
    for (password, criterion, record) in cases {
        let ran = run_html(
            &PAGE.replace("OUTCOME", "app"),
            subtask(password, criterion),
        )
        .await;
        assert_record(&ran, record).await;
        assert_ne!(
            ran.result.status,
            TerminalKind::SubtaskComplete,
            "{criterion}: {:?}",
            ran.result.reason
        );
    }
}

/// An app's "Log out", which leads to a page headed "Logged out".
const SIGN_OUT: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Orbit</title></head><body>
<main id="main"><h1>Projects</h1><p>Welcome, jsmith.</p><button id="out">Log out</button></main>
<p id="record" hidden>session: user=jsmith</p>
<script>
document.getElementById('out').onclick = () => {
  document.getElementById('record').textContent = 'session: none';
  document.getElementById('main').innerHTML = '<h1>Logged out</h1><p>Thanks for spending some quality time with us today.</p><a href="#">Log in again</a>';
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_screen_an_app_shows_is_the_one_its_heading_names() {
    for (criterion, done) in [
        ("The app shows the logged out page", true),
        ("The app shows the billing page", false),
    ] {
        let ran = run_html(
            SIGN_OUT,
            json!({
                "goal": "Log out of Orbit",
                "allowed_risks": ["close"],
                "verification": [criterion],
                "max_actions": 3
            }),
        )
        .await;
        assert_record(&ran, "session: none").await;
        assert_eq!(
            ran.result.status == TerminalKind::SubtaskComplete,
            done,
            "{criterion}: {:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
    }
}

/// A tracker's sidebar: a box to jump to an issue by number, then a login whose two boxes
/// carry no label at all (only their markup names), "Remember me?" and "Login". The page
/// records who signed in and greets them.
const SIDEBAR_LOGIN: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>Tracker</title></head><body>
<aside>
<form id="jump"><button type="submit">Show issue:</button><input name="@number" size="4"></form>
<form id="login"><p>
<input name="__login_name" size="10"><br>
<input type="password" name="__login_password" size="10"><br>
<label><input type="checkbox" name="remember"> Remember me?</label>
<input type="submit" value="Login"></p></form>
</aside>
<main><h1>List of issues</h1></main>
<p id="record" hidden>signed in: nobody</p>
<script>
document.getElementById('login').onsubmit = (e) => {
  e.preventDefault();
  const who = e.target.elements.__login_name.value;
  const ok = who === 'admin' && e.target.elements.__login_password.value === 'pw-7';
  document.getElementById('record').textContent = 'signed in: ' + (ok ? who : 'nobody');
  if (ok) { e.target.outerHTML = `<p>Hello, ${who}</p><a href="#">Logout</a>`; }
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn an_unlabelled_login_box_is_the_text_field_just_before_the_password() {
    let ran = run_html(
        SIDEBAR_LOGIN,
        json!({
            "goal": "Log in as admin",
            "inputs": {"username": "admin", "password": "pw-7"},
            "secret_inputs": ["password"],
            "verification": ["Hello, admin is shown"],
            "max_actions": 4
        }),
    )
    .await;
    assert_record(&ran, "signed in: admin").await;
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        ran.result.reason
    );
}
