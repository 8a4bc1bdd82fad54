//! The reflex policy end to end in real headless Chromium on the fixture site, with no
//! model at all. Success is judged by the page's own record (`window.__submitted`, DOM
//! state), never by the runtime's claim.

pub(crate) use crate::reflex_run::{assert_complete, run, run_html, Ran};
use arc_core::TerminalKind;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn completes_the_contact_form() {
    let ran = run(
        "form.html",
        json!({
            "goal": "Fill in the contact form with the first name, last name and message, then submit it",
            "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hello from the reflex"},
            "verification": ["The page shows \"Thank you, Ada Lovelace\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("window.__submitted").await,
        json!([{"first": "Ada", "last": "Lovelace", "message": "Hello from the reflex"}])
    );
    assert_eq!(ran.result.actions_taken, 4, "{:?}", ran.actions());
}

#[tokio::test(flavor = "multi_thread")]
async fn completes_the_signup_page() {
    let ran = run(
        "signup.html",
        json!({
            "goal": "Sign up with the email address, choose the plan and accept the terms",
            "inputs": {"email": "ada@example.com", "plan": "Pro"},
            "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("window.__submitted").await,
        json!([{"email": "ada@example.com", "plan": "Pro", "terms": true}])
    );
    let acts = ran.actions();
    assert_eq!(
        &acts[..4],
        [
            "TYPE_TEXT Email",
            "SELECT_OPTION Plan",
            "CLICK I accept the terms",
            "CLICK Sign up"
        ],
        "{acts:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn does_not_accept_terms_the_goal_did_not_mention() {
    let ran = run(
        "signup.html",
        json!({
            "goal": "Sign up with the email address and choose the plan",
            "inputs": {"email": "ada@example.com", "plan": "Pro"},
            "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]
        }),
    )
    .await;
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.actions()
    );
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(reason.contains("verification not met"), "{reason}");
    assert!(reason.contains("You must accept the terms"), "{reason}");
    assert_eq!(
        ran.eval("document.getElementById('terms').checked").await,
        false
    );
    assert_eq!(ran.eval("window.__submitted.length").await, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn chooses_in_a_native_select_and_a_custom_combobox() {
    let ran = run(
        "dropdown.html",
        json!({
            "goal": "Choose the country and the color",
            "inputs": {"country": "Germany", "color": "Green"},
            "verification": [
                "The page shows \"Selected country: Germany\"",
                "The page shows \"Selected color: Green\""
            ]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('country').value").await,
        "DE"
    );
    assert_eq!(
        ran.eval("document.getElementById('color-green').getAttribute('aria-selected')")
            .await,
        "true"
    );
    assert_eq!(
        ran.actions(),
        ["SELECT_OPTION Country", "CLICK Color", "CLICK Green"]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn opens_a_tab() {
    let ran = run(
        "tabs.html",
        json!({
            "goal": "Open the Details tab",
            "verification": ["The Details tab is selected", "The page shows \"weight 1.2 kg\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('tab-details').getAttribute('aria-selected')")
            .await,
        "true"
    );
    assert_eq!(
        ran.eval("document.getElementById('panel-details').hidden")
            .await,
        false
    );
    assert_eq!(ran.actions(), ["CLICK Details"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn follows_a_link_to_another_page() {
    let ran = run(
        "tabs.html",
        json!({
            "goal": "Go to the form page",
            "verification": ["The page shows \"Contact us\"", "The URL contains /form.html"]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(ran.eval("location.pathname").await, "/form.html");
    assert_eq!(ran.actions(), ["CLICK Go to form page"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn walks_a_multistep_flow() {
    let ran = run(
        "multistep.html",
        json!({
            "goal": "Enter the name, choose the shipping method and confirm the order",
            "inputs": {"name": "Ada Lovelace", "shipping": "Express"},
            "verification": ["The page shows \"Order confirmed\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("window.__submitted").await,
        json!([{"name": "Ada Lovelace", "shipping": "Express"}])
    );
    assert_eq!(
        ran.actions(),
        [
            "TYPE_TEXT Name",
            "CLICK Next",
            "CLICK Express",
            "CLICK Next",
            "CLICK Confirm"
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn fills_a_number_field_and_a_text_field() {
    let ran = run(
        "validation.html",
        json!({
            "goal": "Enter the age and the username and submit the profile",
            "inputs": {"age": 42, "username": "ada"},
            "verification": ["The page shows \"Saved\""]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("window.__submitted").await,
        json!([{"age": 42, "username": "ada"}])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_quoted_target_that_does_not_exist_needs_an_agent() {
    let ran = run(
        "missing.html",
        json!({
            "goal": "Click the \"Checkout\" button",
            "verification": ["The page shows \"Order placed\""]
        }),
    )
    .await;
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    assert_eq!(
        ran.result.reason.as_deref(),
        Some("no element matches \"Checkout\"")
    );
    assert_eq!(ran.result.actions_taken, 0, "nothing was clicked");
    assert_eq!(ran.eval("location.pathname").await, "/missing.html");
    assert_eq!(
        ran.eval("window.__events.filter(e => e.type === 'click').length")
            .await,
        0
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn two_fields_matching_equally_need_an_agent() {
    let ran = run(
        "form.html",
        json!({
            "goal": "Enter the name and submit the form",
            "inputs": {"name": "Ada"},
            "verification": ["The page shows \"Thank you, Ada\""]
        }),
    )
    .await;
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(
        reason.starts_with("two fields match input \"name\" equally:")
            && reason.contains("\"First name\"")
            && reason.contains("\"Last name\""),
        "{reason}"
    );
    assert_eq!(ran.result.actions_taken, 0);
    assert_eq!(
        ran.eval("[first.value, last.value, window.__submitted.length]")
            .await,
        json!(["", "", 0])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn never_completes_while_a_criterion_is_unmet() {
    let ran = run(
        "failing.html",
        json!({
            "goal": "Click the \"Submit\" button",
            "verification": ["The page shows Payment accepted"]
        }),
    )
    .await;
    assert_eq!(
        ran.result.status,
        TerminalKind::NeedsAgent,
        "{:?}",
        ran.actions()
    );
    let reason = ran.result.reason.clone().unwrap_or_default();
    assert!(
        reason.starts_with("verification not met: \"The page shows Payment accepted\""),
        "{reason}"
    );
    // It did click (the page says so), waited at most twice, and then handed back.
    assert_eq!(
        ran.eval("document.getElementById('status').textContent")
            .await,
        "Submitted"
    );
    assert_eq!(ran.actions(), ["CLICK Submit", "WAIT", "WAIT"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn picks_several_options_of_a_native_multiple_select() {
    let ran = run(
        "multiselect.html",
        json!({
            "goal": "Select Brazil, Mauritania from the list and click Submit.",
            "inputs": {"choice_1": "Brazil", "choice_2": "Mauritania"},
            "verification": ["\"Brazil\" is selected", "\"Mauritania\" is selected",
                             "\"Submit\" has been clicked"]
        }),
    )
    .await;
    assert_eq!(
        ran.result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        ran.result.reason,
        ran.actions()
    );
    assert_eq!(
        ran.eval("window.__submitted").await,
        json!([{"countries": ["Brazil", "Mauritania"]}])
    );
}

/// A word the criterion quotes, shown only negated or qualified, is no "done": the run
/// hands back naming the criterion; the same words said plainly complete. The page's own
/// record (its status text, its click counter) says what happened.
#[tokio::test(flavor = "multi_thread")]
async fn a_negated_outcome_is_handed_back_and_a_plain_one_completes() {
    let cases = [
        (
            "Save",
            "The page shows \"saved\"",
            "save",
            "Not saved",
            "Your changes were saved.",
        ),
        (
            "Pay",
            "The page shows \"successful\"",
            "pay",
            "Payment failed: not successful",
            "Payment successful",
        ),
    ];
    for (button, criterion, id, negated, plain) in cases {
        let task = json!({"goal": format!("Click the \"{button}\" button"),
            "verification": [criterion], "allowed_risks": ["purchase"]});
        let ran = run("outcome.html", task.clone()).await;
        assert_eq!(ran.eval("status.textContent").await, json!(negated));
        assert_eq!(ran.eval(&format!("window.__clicks.{id}")).await, json!(1));
        assert_eq!(
            ran.result.status,
            TerminalKind::NeedsAgent,
            "{:?} {:?}",
            ran.result.reason,
            ran.actions()
        );
        let reason = ran.result.reason.clone().unwrap_or_default();
        assert!(
            reason.starts_with(&format!("verification not met: {criterion:?}"))
                && reason.contains("shows only negated or qualified"),
            "{reason}"
        );
        drop(ran);

        let ran = run("outcome.html?mode=ok", task).await;
        assert_complete(&ran);
        assert_eq!(ran.eval("status.textContent").await, json!(plain));
        assert_eq!(ran.eval(&format!("window.__clicks.{id}")).await, json!(1));
    }

    // Nothing to do but check: "Almost done" is not "Done"; "Done" is.
    let task = json!({"goal": "Make sure the setup is finished",
        "verification": ["The page shows \"Done\""]});
    let ran = run("outcome.html", task.clone()).await;
    assert_eq!(ran.eval("heading.textContent").await, json!("Almost done"));
    assert_eq!(ran.result.status, TerminalKind::NeedsAgent);
    assert_eq!(ran.result.actions_taken, 0, "{:?}", ran.actions());
    assert!(
        ran.result
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("Almost done"),
        "{:?}",
        ran.result.reason
    );
    drop(ran);
    let ran = run("outcome.html?mode=ok", task).await;
    assert_eq!(ran.eval("heading.textContent").await, json!("Done"));
    assert_complete(&ran);
    assert_eq!(ran.result.actions_taken, 0);
    assert_eq!(ran.eval("window.__events.length").await, json!(0));
}

/// A calendar whose month caption sits beside its day grid (only layout wrappers around
/// both, which the snapshot leaves out): the day is still found under its month.
#[tokio::test(flavor = "multi_thread")]
async fn picks_a_day_in_a_calendar_whose_caption_sits_beside_the_grid() {
    let ran = run(
        "calendar-caption.html",
        json!({
            "goal": "Select 12/24/2016 as the date and hit submit.",
            "inputs": {"date": "12/24/2016"},
            "verification": [
                "the date field contains \"12/24/2016\"",
                "\"submit\" has been clicked"
            ]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("JSON.stringify(window.__submitted)").await,
        "[{\"date\":\"12/24/2016\"}]"
    );
}

/// An icon drawn by CSS `content: url()` has no box until its picture arrives (here
/// 300 ms after the page loaded, from a loopback server): the run waits for it and
/// presses it, where it used to hand back "no element matches" at its first step.
#[tokio::test(flavor = "multi_thread")]
async fn an_icon_whose_picture_arrives_late_is_pressed() {
    let late = std::time::Duration::from_millis(300);
    let pictures =
        crate::server::ModelServer::with(move |_, _| crate::server::picture().after(late)).await;
    let ran = run(
        &format!("late-icon.html?pic={}", pictures.base_url()),
        json!({
            "goal": "For the user @ann, click on the \"Like\" button.",
            "verification": ["the \"Like\" button has been clicked"]
        }),
    )
    .await;
    assert_complete(&ran);
    assert_eq!(
        ran.eval("document.getElementById('record').textContent")
            .await,
        json!("like")
    );
}
