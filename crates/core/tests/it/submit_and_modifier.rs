//! A key after typing and a modifier held on a click (issue 31, item 2): written as a
//! planner writes them, refused by name when wrong, carried to the app as the reference's
//! executor carries them (the typing, then the key; the click with its modifier) and
//! recorded in the one record of the action. Checked against the app's own record.

use crate::common::fast_config;

use arc_core::{
    Action, ActionKind, BackendError, ClickModifier, Decision, Element, ErrorCode,
    ExecutableAction, Executor, Key, Role, Snapshot, Source, SubmitKey, Subtask, TerminalKind,
};
use arc_sim::{ScriptedPolicy, StateMachineBackend};

/// A search box: typing sets the query, Enter runs it, Tab moves on.
#[derive(Default)]
struct Search {
    query: String,
    searched: Vec<String>,
    /// What reached the app, in order: (kind, key).
    received: Vec<(ActionKind, Option<Key>)>,
}

fn search_snapshot(s: &Search) -> Snapshot {
    let mut field = Element::new("q", Role::TextField, "Search");
    field.actions = [ActionKind::TypeText].into();
    field.value = Some(s.query.clone().into());
    field.source = Source::Sim;
    let results = Element::new(
        "results",
        Role::Status,
        format!("{} searches", s.searched.len()),
    );
    Snapshot::new("Files", "Search", vec![field, results])
}

fn search_transition(s: &mut Search, a: &ExecutableAction) -> Result<(), BackendError> {
    let key = match &a.action {
        Action::PressKey { key } => Some(*key),
        Action::TypeText { submit, .. } => submit.map(SubmitKey::key),
        _ => None,
    };
    s.received.push((a.kind(), key));
    match &a.action {
        Action::TypeText { .. } => s.query = a.text().into_owned(),
        Action::PressKey { key: Key::Enter } => s.searched.push(s.query.clone()),
        _ => {}
    }
    Ok(())
}

fn decision(json: &str) -> Decision {
    Decision::from_json(json).expect("a legal decision")
}

fn complete() -> Decision {
    Decision::terminal(TerminalKind::SubtaskComplete)
}

#[tokio::test]
async fn a_key_after_typing_runs_the_search_in_one_action_and_one_record() {
    let typed =
        decision(r#"{"kind":"TYPE_TEXT","target_id":"q","input_key":"query","key":"ENTER"}"#);
    let mut ex = Executor::new(
        StateMachineBackend::new(Search::default(), search_snapshot, search_transition),
        ScriptedPolicy::new([typed, complete()]),
        fast_config(),
    );
    let task = Subtask::new("Search for Blur", "Blur was searched").with_input("query", "Blur");
    let r = ex.run(&task).await;
    assert!(r.is_complete(), "{r:#?}");
    let app = ex.backend_mut().state();
    assert_eq!(app.searched, ["Blur"], "the app ran the search");
    assert_eq!(
        app.received,
        [
            (ActionKind::TypeText, Some(Key::Enter)),
            (ActionKind::PressKey, Some(Key::Enter))
        ],
        "the typing carries its key, then the key is pressed"
    );
    assert_eq!(r.history.len(), 1, "{:#?}", r.history);
    let record = serde_json::to_value(&r.history[0]).unwrap();
    assert_eq!(record["action"]["kind"], "TYPE_TEXT");
    assert_eq!(record["action"]["key"], "ENTER");
    assert_eq!(record["action"]["value"], "Blur");
}

#[tokio::test]
async fn tab_after_typing_moves_on_without_searching() {
    let typed = Decision::act(Action::TypeText {
        target: "q".into(),
        input_key: "query".into(),
        submit: Some(SubmitKey::Tab),
    });
    let mut ex = Executor::new(
        StateMachineBackend::new(Search::default(), search_snapshot, search_transition),
        ScriptedPolicy::new([typed, complete()]),
        fast_config(),
    );
    let task = Subtask::new("Fill the search", "Blur is typed").with_input("query", "Blur");
    let r = ex.run(&task).await;
    assert!(r.is_complete(), "{r:#?}");
    let app = ex.backend_mut().state();
    assert!(app.searched.is_empty());
    assert_eq!(app.received[1], (ActionKind::PressKey, Some(Key::Tab)));
}

#[test]
fn only_enter_or_tab_may_follow_typing_and_the_error_names_the_key() {
    let err = Decision::from_json(
        r#"{"kind":"TYPE_TEXT","target_id":"q","input_key":"query","key":"ESCAPE"}"#,
    )
    .unwrap_err();
    assert_eq!(
        (err.code, err.field.as_str()),
        (ErrorCode::InvalidPayload, "key")
    );
    assert!(err.message.contains("ESCAPE"), "{}", err.message);
    // Written back as it was read.
    let text = r#"{"kind":"TYPE_TEXT","target_id":"q","input_key":"query","key":"TAB"}"#;
    assert_eq!(serde_json::to_string(&decision(text)).unwrap(), text);
}

/// Rows of a file list: a plain click selects one, MOD adds one to the selection.
#[derive(Default)]
struct Rows {
    selected: Vec<usize>,
    received: Vec<Option<ClickModifier>>,
}

fn rows_snapshot(s: &Rows) -> Snapshot {
    let rows: Vec<Element> = (0..3)
        .map(|i| {
            let mut e = Element::new(format!("row_{i}"), Role::Row, format!("Report {i}.pdf"));
            e.actions = [ActionKind::Click].into();
            e.selected = Some(s.selected.contains(&i));
            e.source = Source::Sim;
            e
        })
        .collect();
    Snapshot::new("Files", "Inbox", rows)
}

fn rows_transition(s: &mut Rows, a: &ExecutableAction) -> Result<(), BackendError> {
    let Action::Click { target, modifier } = &a.action else {
        return Ok(());
    };
    s.received.push(*modifier);
    let i: usize = target.as_str()["row_".len()..].parse().unwrap();
    match modifier {
        Some(ClickModifier::Mod) => s.selected.push(i),
        _ => s.selected = vec![i],
    }
    Ok(())
}

#[tokio::test]
async fn a_click_modifier_reaches_the_app_and_the_record() {
    let mut ex = Executor::new(
        StateMachineBackend::new(Rows::default(), rows_snapshot, rows_transition),
        ScriptedPolicy::new([
            decision(r#"{"kind":"CLICK","target_id":"row_0"}"#),
            decision(r#"{"kind":"CLICK","target_id":"row_2","click_modifier":"MOD"}"#),
            complete(),
        ]),
        fast_config(),
    );
    let r = ex
        .run(&Subtask::new("Select two reports", "Both are selected"))
        .await;
    assert!(r.is_complete(), "{r:#?}");
    let app = ex.backend_mut().state();
    assert_eq!(app.selected, [0, 2], "both rows are selected");
    assert_eq!(app.received, [None, Some(ClickModifier::Mod)]);
    let held: Vec<serde_json::Value> = r
        .history
        .iter()
        .map(|rec| serde_json::to_value(rec).unwrap()["action"]["click_modifier"].clone())
        .collect();
    assert_eq!(held, [serde_json::Value::Null, "MOD".into()]);
}

#[test]
fn a_click_modifier_is_for_click_only_and_is_mod_or_shift() {
    for (text, words) in [
        (
            r#"{"kind":"PRESS_KEY","key":"ENTER","click_modifier":"ALT"}"#,
            "PRESS_KEY does not take a click modifier",
        ),
        (
            r#"{"kind":"TYPE_TEXT","target_id":"q","input_key":"query","click_modifier":"MOD"}"#,
            "TYPE_TEXT does not take a click modifier",
        ),
        (
            r#"{"kind":"CLICK","target_id":"row_0","click_modifier":"ALT"}"#,
            "Unsupported click modifier ALT",
        ),
    ] {
        let err = Decision::from_json(text).unwrap_err();
        assert_eq!(err.field, "click_modifier", "{text}: {err:?}");
        assert!(err.message.contains(words), "{text}: {}", err.message);
    }
    let shift = r#"{"kind":"CLICK","target_id":"row_1","click_modifier":"SHIFT"}"#;
    assert_eq!(
        decision(shift).action(),
        Some(&Action::Click {
            target: "row_1".into(),
            modifier: Some(ClickModifier::Shift)
        })
    );
    assert_eq!(serde_json::to_string(&decision(shift)).unwrap(), shift);
}
