//! A wizard ends with its own commit: the review stage echoes what was typed, which is no
//! record; the run presses the stage's "Create project" before anything completes, and
//! a goal that says not to create leaves it unpressed. Real Chromium; judged by the
//! page's own record.

use crate::reflex_browser::{assert_complete, run_html};
use crate::reflex_run::assert_record;
use arc_core::TerminalKind;
use serde_json::json;

const WIZARD: &str = r##"<!DOCTYPE html><html><head><meta charset="utf-8"><title>New project</title></head><body>
<section id="s1"><h2>Step 1 of 2</h2>
<label>Project name <input id="name"></label>
<button type="button" id="next">Next</button></section>
<section id="s2" hidden><h2>Step 2 of 2: review</h2>
<p>Project: <span id="echo"></span></p>
<button type="button" id="back">Back</button> <button type="button" id="create">Create project</button></section>
<p id="done" role="status"></p>
<p id="record" hidden>project: none</p>
<script>
const $ = (s) => document.getElementById(s);
$('next').onclick = () => { $('echo').textContent = $('name').value; $('s1').hidden = true; $('s2').hidden = false; };
$('back').onclick = () => { $('s2').hidden = true; $('s1').hidden = false; };
$('create').onclick = () => {
  $('record').textContent = 'project: ' + $('name').value;
  $('s2').hidden = true; $('done').textContent = 'Project ' + $('name').value + ' created';
};
</script></body></html>"##;

#[tokio::test(flavor = "multi_thread")]
async fn a_wizards_last_stage_is_committed_before_its_review_counts() {
    let ran = run_html(
        WIZARD,
        json!({
            "goal": "Set up a project called Apollo",
            "inputs": {"project_name": "Apollo"},
            "verification": ["The Apollo project exists"],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "project: Apollo").await;
    // Whatever it said, it never said done on the review alone.
    if ran.result.status == TerminalKind::SubtaskComplete {
        assert!(ran.actions().iter().any(|a| a == "CLICK Create project"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn told_not_to_create_the_run_leaves_the_last_stage_unpressed() {
    let ran = run_html(
        WIZARD,
        json!({
            "goal": "Set up a project called Apollo, but do not submit it yet",
            "inputs": {"project_name": "Apollo"},
            "verification": ["The review shows Apollo"],
            "max_actions": 6
        }),
    )
    .await;
    assert_eq!(ran.record().await, "project: none", "{:?}", ran.actions());
}

/// The same wizard with a choice made for the run on its first stage (preselected): on
/// the review, where that choice is no longer shown, the echo still completes nothing.
#[tokio::test(flavor = "multi_thread")]
async fn a_review_never_completes_even_when_an_input_is_out_of_sight() {
    let page = WIZARD.replace(
        "<button type=\"button\" id=\"next\">Next</button>",
        "<fieldset><legend>Visibility</legend><label><input type=\"radio\" name=\"v\" checked> Private</label>\
         <label><input type=\"radio\" name=\"v\"> Public</label></fieldset>\
         <button type=\"button\" id=\"next\">Next</button>",
    );
    let ran = run_html(
        &page,
        json!({
            "goal": "Set up a private project called Apollo",
            "inputs": {"project_name": "Apollo", "visibility": "Private"},
            "verification": ["The Apollo project exists"],
            "max_actions": 6
        }),
    )
    .await;
    let record = ran.record().await;
    if ran.result.status == TerminalKind::SubtaskComplete {
        assert_eq!(record, "project: Apollo", "{:?}", ran.actions());
    }
}

/// A goal that says where to stop ("… and click Next") stops there: the next stage's
/// commit belongs to another subtask.
#[tokio::test(flavor = "multi_thread")]
async fn a_goal_that_stops_at_next_leaves_the_last_stage_to_the_next_subtask() {
    let ran = run_html(
        WIZARD,
        json!({
            "goal": "Enter the project name and click Next",
            "inputs": {"project_name": "Apollo"},
            "verification": ["The page shows \"Step 2 of 2: review\""],
            "max_actions": 4
        }),
    )
    .await;
    assert_eq!(ran.record().await, "project: none", "{:?}", ran.actions());
    assert_complete(&ran);
}

/// A choice already made on a stage the run leaves (a default) is still made when that
/// stage is gone: the run goes on to the commit instead of handing back for it.
#[tokio::test(flavor = "multi_thread")]
async fn an_input_the_page_held_on_an_earlier_stage_stays_placed() {
    let page = WIZARD
        .replace(
            "<button type=\"button\" id=\"next\">Next</button>",
            "<fieldset><legend>Visibility</legend><label><input type=\"radio\" name=\"v\" checked> Private</label>\
             <label><input type=\"radio\" name=\"v\"> Public</label></fieldset>\
             <button type=\"button\" id=\"next\">Next</button>",
        )
        .replace(
            "'project: ' + $('name').value",
            "'project: ' + $('name').value + (document.querySelector('[name=v]').checked ? ' (private)' : ' (public)')",
        );
    let ran = run_html(
        &page,
        json!({
            "goal": "Create the project Apollo, private",
            "inputs": {"project_name": "Apollo", "visibility": "Private"},
            "verification": ["The page shows \"Project Apollo created\""],
            "max_actions": 6
        }),
    )
    .await;
    assert_record(&ran, "project: Apollo (private)").await;
    assert_complete(&ran);
}

/// The review echoes the name the run typed; pressed, the last stage answers only later.
/// The echo, there before the press, is no answer: whatever the run says, it never says
/// done before the page has made its record.
#[tokio::test(flavor = "multi_thread")]
async fn the_reviews_echo_of_what_was_typed_is_no_answer_to_the_commit() {
    let page = WIZARD
        .replace(
            "$('create').onclick = () => {",
            "$('create').onclick = () => setTimeout(() => {",
        )
        .replace("' created';\n};", "' created';\n}, 1500);");
    assert!(page.contains("}, 1500);"), "the page's answer is delayed");
    let ran = run_html(
        &page,
        json!({
            "goal": "Set up a project called Apollo",
            "inputs": {"project_name": "Apollo"},
            "verification": ["The Apollo project exists"],
            "max_actions": 8
        }),
    )
    .await;
    assert!(
        ran.actions().iter().any(|a| a == "CLICK Create project"),
        "{:?}",
        ran.actions()
    );
    if ran.result.status == TerminalKind::SubtaskComplete {
        assert_eq!(ran.record().await, "project: Apollo", "{:?}", ran.actions());
    }
}
