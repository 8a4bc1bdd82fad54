//! Every action kind lands on the GTK fixture, checked through the fixture's own record;
//! the background ones leave the X pointer where it was.

use crate::common::{find, subtask, Desktop};
use arc_core::{
    Action, Backend, ClickModifier, ExecutableAction, Executed, Key, ScrollDirection, Snapshot,
    SubmitKey, Subtask,
};
use arc_desktop::DesktopBackend;

async fn act(b: &mut DesktopBackend, snap: &Snapshot, action: Action, task: &Subtask) -> Executed {
    let exec = ExecutableAction::materialize(&action, snap, task).expect("a legal action");
    assert!(
        b.is_fresh(snap, &exec).await.expect("fresh check"),
        "{action:?} not fresh"
    );
    b.execute(snap, &exec).await.expect("execute")
}

#[tokio::test(flavor = "multi_thread")]
async fn background_actions_land_and_leave_the_pointer_where_it_was() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "8"]);
    let mut b = desk.backend(&app).await;
    desk.park_pointer(1100, 700);
    let task = subtask(r#"{"name": "Ada Lovelace", "color": "Green", "volume": "42"}"#);

    let s = b.observe().await.unwrap();
    let executed = act(
        &mut b,
        &s,
        Action::click(find(&s, "button", "Submit")),
        &task,
    )
    .await;
    assert!(
        !executed.physical_input,
        "CLICK through the Action interface"
    );
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "clicked" && e.widget == "submit")
        },
        "submit clicked",
    );

    let s = b.observe().await.unwrap();
    act(
        &mut b,
        &s,
        Action::click(find(&s, "checkbox", "Subscribe")),
        &task,
    )
    .await;
    app.wait(|r| r.state.subscribe, "subscribe checked");

    let s = b.observe().await.unwrap();
    let name = find(&s, "text_field", "Name");
    act(&mut b, &s, Action::type_text(name.clone(), "name"), &task).await;
    app.wait(|r| r.state.name == "Ada Lovelace", "name typed");
    let s = b.observe().await.unwrap();
    assert_eq!(
        s.element(name.as_str())
            .unwrap()
            .value
            .as_ref()
            .map(|v| v.as_text().into_owned()),
        Some("Ada Lovelace".into()),
        "the snapshot reads the entry's text back"
    );

    let s = b.observe().await.unwrap();
    act(
        &mut b,
        &s,
        Action::SetValue {
            target: find(&s, "slider", "Volume"),
            input_key: "volume".into(),
        },
        &task,
    )
    .await;
    app.wait(|r| r.state.volume == 42.0, "volume set");

    let s = b.observe().await.unwrap();
    act(
        &mut b,
        &s,
        Action::SelectOption {
            target: find(&s, "combobox", "Color"),
            input_key: "color".into(),
        },
        &task,
    )
    .await;
    app.wait(
        |r| r.state.color.as_deref() == Some("Green"),
        "color selected",
    );

    let s = b.observe().await.unwrap();
    let executed = act(
        &mut b,
        &s,
        Action::click(find(&s, "listitem", "Item 3")),
        &task,
    )
    .await;
    app.wait(|r| r.state.selected_row == Some(3), "row 3 selected");
    assert!(!executed.physical_input);

    assert_eq!(
        desk.pointer(),
        (1100, 700),
        "no background action moved the pointer"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn physical_actions_use_xtest_and_say_so() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "60"]);
    let mut b = desk.backend(&app).await;
    let task = subtask("{}");

    let s = b.observe().await.unwrap();
    let executed = act(
        &mut b,
        &s,
        Action::DoubleClick {
            target: find(&s, "listitem", "Item 2"),
        },
        &task,
    )
    .await;
    assert!(
        executed.physical_input,
        "DOUBLE_CLICK needs the real pointer"
    );
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "activated" && e.row == Some(2))
        },
        "row 2 activated",
    );
    let (px, py) = desk.pointer();
    let item = s
        .element(find(&s, "listitem", "Item 2").as_str())
        .unwrap()
        .bounds
        .unwrap();
    assert!(
        (item.x..item.x + item.width).contains(&(px as f64))
            && (item.y..item.y + item.height).contains(&(py as f64)),
        "the pointer went to the row's centre: {px},{py} vs {item:?}"
    );

    // Keys go to the focused widget: focus the entry (background), then Enter (XTest).
    let s = b.observe().await.unwrap();
    let executed = act(
        &mut b,
        &s,
        Action::click(find(&s, "text_field", "Name")),
        &task,
    )
    .await;
    assert!(!executed.physical_input, "focusing a field is background");
    let s = b.observe().await.unwrap();
    let executed = act(&mut b, &s, Action::PressKey { key: Key::Enter }, &task).await;
    assert!(executed.physical_input);
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "activated" && e.widget == "name")
        },
        "Enter in the entry",
    );

    let s = b.observe().await.unwrap();
    let chord = "MOD+A".parse::<arc_core::Chord>().unwrap();
    act(&mut b, &s, Action::Hotkey { chord }, &task).await;
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "key" && e.key.as_deref() == Some("<Primary>a"))
        },
        "Ctrl+A reached the window",
    );

    let s = b.observe().await.unwrap();
    let list = find(&s, "listbox", "Items");
    act(
        &mut b,
        &s,
        Action::Scroll {
            direction: ScrollDirection::Down,
            target: Some(list),
        },
        &task,
    )
    .await;
    app.wait(
        |r| r.events.iter().any(|e| e.kind == "scrolled"),
        "the list scrolled",
    );

    let s = b.observe().await.unwrap();
    let executed = act(
        &mut b,
        &s,
        Action::DragBy {
            target: find(&s, "slider", "Volume"),
            dx: 120.0,
            dy: 0.0,
        },
        &task,
    )
    .await;
    assert!(executed.physical_input);
    app.wait(|r| r.state.volume > 0.0, "the slider was dragged");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_with_no_accessible_action_is_clicked_with_the_pointer() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let mut b = desk.backend(&app).await;
    let task = subtask("{}");
    let s = b.observe().await.unwrap();
    let icon = find(&s, "image", "Search icon");
    let executed = act(&mut b, &s, Action::click(icon.clone()), &task).await;
    assert!(
        executed.physical_input,
        "no interface serves: XTest, and it says so"
    );
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "clicked" && e.widget == "icon")
        },
        "the icon clicked",
    );
    let bx = s.element(icon.as_str()).unwrap().bounds.unwrap();
    let (px, py) = desk.pointer();
    assert!(
        (bx.x..bx.x + bx.width).contains(&(px as f64))
            && (bx.y..bx.y + bx.height).contains(&(py as f64)),
        "pressed inside the icon: {px},{py} vs {bx:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_after_typing_and_a_held_modifier_reach_the_app() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let mut b = desk.backend(&app).await;
    let task = subtask(r#"{"name": "Ada Lovelace"}"#);
    let s = b.observe().await.unwrap();
    let typed = Action::TypeText {
        target: find(&s, "text_field", "Name"),
        input_key: "name".into(),
        submit: Some(SubmitKey::Enter),
    };
    act(&mut b, &s, typed, &task).await;
    // The entry's own "activate": Enter reached it holding the typed value.
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "activated" && e.widget == "name" && e.value == "Ada Lovelace")
        },
        "Enter pressed in the name field",
    );
    let s = b.observe().await.unwrap();
    let held = Action::Click {
        target: find(&s, "image", "Search icon"),
        modifier: Some(ClickModifier::Mod),
    };
    let executed = act(&mut b, &s, held, &task).await;
    assert!(executed.physical_input, "a held key is XTest input");
    let r = app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "clicked" && e.widget == "icon")
        },
        "the icon clicked",
    );
    let icon = r.events.iter().find(|e| e.widget == "icon").unwrap();
    assert_eq!(icon.modifiers, Some(vec!["ctrl".to_owned()]), "{icon:?}");
}
