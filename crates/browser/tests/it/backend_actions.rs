//! Every action kind lands, checked through the page's own `window.__events` and DOM
//! state (the fixture's oracle), never through the runtime's own claim.

use crate::common;

use arc_core::{Action, ClickModifier, ScrollDirection, SubmitKey, Subtask};
use common::{find, settled_true, Fixture};
use serde_json::Value;

fn task() -> Subtask {
    Subtask::new("Exercise the event page", "Every event arrives")
        .with_input("text", "hello world")
        .with_input("notes", "set directly")
        .with_input("choice", "Beta")
}

fn trusted(events: &[Value], kind: &str, target: &str) -> bool {
    events
        .iter()
        .any(|e| e["type"] == kind && e["target"] == target && e["isTrusted"] == true)
}

#[tokio::test(flavor = "multi_thread")]
async fn pointer_actions_are_trusted_and_land_on_their_target() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    let rect = f.eval("(r => [r.left, r.top, r.right, r.bottom])(document.getElementById('btn').getBoundingClientRect())").await;
    f.act(&s, Action::click(find(&s, "button", "Click me")), &task())
        .await
        .unwrap();
    // The click landed inside the button's box, as the page reports it.
    let events = f.events().await;
    let click = events
        .iter()
        .find(|e| e["type"] == "click" && e["target"] == "btn")
        .expect("a click on the button");
    let (x, y) = (click["x"].as_f64().unwrap(), click["y"].as_f64().unwrap());
    let r: Vec<f64> = serde_json::from_value(rect).unwrap();
    assert!(
        x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3],
        "click at ({x}, {y}) outside {r:?}"
    );
    f.act(
        &s,
        Action::DoubleClick {
            target: find(&s, "button", "Double me"),
        },
        &task(),
    )
    .await
    .unwrap();
    f.act(
        &s,
        Action::RightClick {
            target: find(&s, "button", "Context target"),
        },
        &task(),
    )
    .await
    .unwrap();
    f.act(&s, Action::click(find(&s, "checkbox", "Check me")), &task())
        .await
        .unwrap();
    let events = f.events().await;
    assert!(trusted(&events, "click", "btn"), "{events:#?}");
    assert!(trusted(&events, "dblclick", "dbl"));
    assert!(trusted(&events, "contextmenu", "ctx"));
    assert!(events
        .iter()
        .any(|e| e["type"] == "contextmenu" && e["button"] == 2));
    assert_eq!(f.eval("document.getElementById('chk').checked").await, true);
}

#[tokio::test(flavor = "multi_thread")]
async fn text_value_and_option_actions_change_the_fields() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    let text = find(&s, "text_field", "Text");
    f.act(&s, Action::type_text(text.clone(), "text"), &task())
        .await
        .unwrap();
    // Typing again replaces, not appends (the reference's select-all-then-type).
    let s = f.observe().await;
    f.act(&s, Action::type_text(text, "text"), &task())
        .await
        .unwrap();
    f.act(
        &s,
        Action::SetValue {
            target: find(&s, "text_field", "Notes"),
            input_key: "notes".into(),
        },
        &task(),
    )
    .await
    .unwrap();
    f.act(
        &s,
        Action::SelectOption {
            target: find(&s, "combobox", "Choice"),
            input_key: "choice".into(),
        },
        &task(),
    )
    .await
    .unwrap();
    assert_eq!(
        f.eval("document.getElementById('text').value").await,
        "hello world"
    );
    assert_eq!(
        f.eval("document.getElementById('area').value").await,
        "set directly"
    );
    assert_eq!(
        f.eval("(s => s.options[s.selectedIndex].text)(document.getElementById('sel'))")
            .await,
        "Beta"
    );
    let events = f.events().await;
    assert!(
        trusted(&events, "input", "text"),
        "typing must produce trusted input events"
    );
    assert!(events
        .iter()
        .any(|e| e["type"] == "change" && e["target"] == "sel"));
    // And the next observation shows it.
    let s = f.observe().await;
    let field = s.elements.iter().find(|e| e.name == "Text").unwrap();
    assert_eq!(field.value, Some("hello world".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn selecting_an_option_that_does_not_exist_is_an_invalid_decision_naming_the_options() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    let t = Subtask::new("g", "v").with_input("choice", "Omega");
    let err = f
        .act(
            &s,
            Action::SelectOption {
                target: find(&s, "combobox", "Choice"),
                input_key: "choice".into(),
            },
            &t,
        )
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("\"Omega\"") && text.contains("\"Gamma\""),
        "{text}"
    );
    assert_eq!(
        f.eval("(s => s.options[s.selectedIndex].text)(document.getElementById('sel'))")
            .await,
        "Alpha",
        "nothing changed"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_and_hotkeys_are_trusted_key_events() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    f.act(
        &s,
        Action::type_text(find(&s, "text_field", "Text"), "text"),
        &task(),
    )
    .await
    .unwrap();
    f.act(
        &s,
        Action::PressKey {
            key: arc_core::Key::Enter,
        },
        &task(),
    )
    .await
    .unwrap();
    f.act(
        &s,
        Action::Hotkey {
            chord: "MOD+A".parse().unwrap(),
        },
        &task(),
    )
    .await
    .unwrap();
    let events = f.events().await;
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "keydown" && e["key"] == "Enter" && e["isTrusted"] == true),
        "{events:#?}"
    );
    assert!(events
        .iter()
        .any(|e| e["type"] == "keydown" && e["key"] == "a" && e["isTrusted"] == true));
    // MOD+A selected the field's whole text.
    let selected = f.eval("(() => { const t = document.getElementById('text'); return t.selectionEnd - t.selectionStart; })()").await;
    assert_eq!(selected, 11);
}

#[tokio::test(flavor = "multi_thread")]
async fn scrolling_moves_the_page() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    f.act(
        &s,
        Action::Scroll {
            direction: ScrollDirection::Down,
            target: None,
        },
        &task(),
    )
    .await
    .unwrap();
    assert_eq!(settled_true(&f, "window.scrollY > 100").await, true);
    let events = f.events().await;
    assert!(
        trusted(&events, "wheel", "html")
            || events
                .iter()
                .any(|e| e["type"] == "wheel" && e["isTrusted"] == true)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn drags_move_the_source_and_drop_on_the_target() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    let source = find(&s, "button", "Drag source");
    let zone = s.elements.iter().find(|e| e.name == "Drop zone").unwrap();
    assert!(zone.accepts_drop, "aria-dropeffect marks a drop target");
    f.act(
        &s,
        Action::DragBy {
            target: source.clone(),
            dx: 40.0,
            dy: 10.0,
        },
        &task(),
    )
    .await
    .unwrap();
    let dragged = f.eval("window.__dragged").await;
    assert_eq!(
        (
            dragged["dx"].as_f64().unwrap().round(),
            dragged["dy"].as_f64().unwrap().round()
        ),
        (40.0, 10.0),
        "{dragged}"
    );
    let s = f.observe().await;
    f.act(
        &s,
        Action::DragTo {
            target: source,
            destination: zone.id.clone(),
        },
        &task(),
    )
    .await
    .unwrap();
    assert_eq!(f.eval("window.__dropped === true").await, true);
}

#[tokio::test(flavor = "multi_thread")]
async fn navigate_goes_to_http_urls_only() {
    let mut f = Fixture::open("events.html").await;
    let s = f.observe().await;
    let form = f.server.url("form.html");
    let t = Subtask::new("g", "v")
        .with_input("url", form.as_str())
        .with_input("bad", "javascript:alert(1)")
        .with_input("file", "file:///etc/passwd");
    f.act(
        &s,
        Action::Navigate {
            input_key: "url".into(),
        },
        &t,
    )
    .await
    .unwrap();
    assert_eq!(f.eval("location.pathname").await, "/form.html");
    let s = f.observe().await;
    for key in ["bad", "file"] {
        let err = f
            .act(
                &s,
                Action::Navigate {
                    input_key: key.into(),
                },
                &t,
            )
            .await
            .unwrap_err();
        assert!(err.to_string().contains("only goes to http(s)"), "{err}");
    }
    assert_eq!(
        f.eval("location.pathname").await,
        "/form.html",
        "no navigation happened"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_control_clipped_by_its_scrolling_panel_is_scrolled_into_the_panel_and_pressed() {
    let mut f = Fixture::open("shared-files.html").await;
    let s = f.observe().await;
    // Greta's row (the seventh) lies below the panel's fold, inside the window.
    let pins: Vec<_> = s
        .elements
        .iter()
        .filter(|e| e.name == "Pin" && e.actions.contains(arc_core::ActionKind::Click))
        .collect();
    assert_eq!(pins.len(), 8);
    let clipped = f
        .eval("(() => { const p = document.getElementById('panel').getBoundingClientRect(); const r = document.querySelectorAll('.pin')[6].getBoundingClientRect(); return r.top > p.bottom && r.bottom < innerHeight; })()")
        .await;
    assert_eq!(clipped, true, "the fixture no longer clips the row");
    f.act(&s, Action::click(pins[6].id.clone()), &task())
        .await
        .unwrap();
    let record = f
        .eval("document.getElementById('record').textContent")
        .await;
    assert_eq!(record, "pinned Greta");
    let scrolled = f
        .eval("document.getElementById('panel').scrollTop > 0")
        .await;
    assert_eq!(scrolled, true);
}

/// SELECT_TEXT drags across a passage with the mouse: the page's selection holds exactly
/// its text; where the page forbids selecting it, the action fails and says what the
/// selection holds instead.
#[tokio::test(flavor = "multi_thread")]
async fn select_text_marks_a_passage_with_the_mouse_or_fails_saying_why() {
    let mut f = Fixture::open("highlight.html").await;
    let s = f.observe().await;
    let second = s
        .elements
        .iter()
        .find(|e| e.name.starts_with("Across the water"))
        .expect("the second paragraph");
    f.act(
        &s,
        Action::SelectText {
            target: second.id.clone(),
        },
        &task(),
    )
    .await
    .unwrap();
    let selected = f.eval("window.getSelection().toString()").await;
    assert_eq!(
        selected,
        "Across the water a pair of grebes rebuilt their floating nest. Each storm took half of it away."
    );
    // The page makes the callout unselectable: the drag selects nothing, and says so.
    f.eval("document.querySelector('.callout').style.userSelect = 'none'; getSelection().removeAllRanges(); true")
        .await;
    let s = f.observe().await;
    let callout = s
        .elements
        .iter()
        .find(|e| e.name.starts_with("Bring a notebook"))
        .expect("the callout");
    let err = f
        .act(
            &s,
            Action::SelectText {
                target: callout.id.clone(),
            },
            &task(),
        )
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("the page's selection holds \"\""),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_after_typing_is_pressed_in_the_field_it_typed_into() {
    let mut f = Fixture::open("form.html").await;
    let s = f.observe().await;
    let task = Subtask::new("Send the contact form", "Thank you, Ada Lovelace")
        .with_input("first", "Ada")
        .with_input("last", "Lovelace");
    let typed = |field: &str, input: &str, submit| Action::TypeText {
        target: find(&s, "text_field", field),
        input_key: input.into(),
        submit: Some(submit),
    };
    // TAB moves on: the next field has the focus and nothing is sent.
    f.act(&s, typed("First name", "first", SubmitKey::Tab), &task)
        .await
        .unwrap();
    assert_eq!(f.eval("document.activeElement.id").await, "last");
    assert_eq!(f.eval("window.__submitted").await, serde_json::json!([]));
    // ENTER submits the form the field is in, as a person's Enter does.
    f.act(&s, typed("Last name", "last", SubmitKey::Enter), &task)
        .await
        .unwrap();
    assert_eq!(
        f.eval("window.__submitted").await,
        serde_json::json!([{"first": "Ada", "last": "Lovelace", "message": ""}])
    );
    let events = f.events().await;
    assert!(trusted(&events, "keydown", "last"), "{events:#?}");
    assert!(trusted(&events, "submit", "contact-form"), "{events:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_click_holding_a_modifier_arrives_with_it() {
    let mut f = Fixture::open("modifiers.html").await;
    let s = f.observe().await;
    let button = find(&s, "button", "Press me");
    for modifier in [None, Some(ClickModifier::Mod), Some(ClickModifier::Shift)] {
        let click = Action::Click {
            target: button.clone(),
            modifier,
        };
        f.act(&s, click, &task()).await.unwrap();
    }
    let mods = f.eval("window.__mods").await;
    let held = |type_: &str| -> Vec<(bool, bool, bool)> {
        mods.as_array()
            .unwrap()
            .iter()
            .filter(|m| m["type"] == type_ && m["trusted"] == true)
            .map(|m| {
                let flag = |k: &str| m[k].as_bool().unwrap();
                assert!(!flag("alt") && !flag("meta"), "{m}");
                (flag("ctrl"), flag("shift"), true)
            })
            .collect()
    };
    // Plain, then Ctrl (MOD on Linux), then Shift: on the press and on the click.
    let want = vec![
        (false, false, true),
        (true, false, true),
        (false, true, true),
    ];
    assert_eq!(held("mousedown"), want, "{mods}");
    assert_eq!(held("click"), want, "{mods}");
    // The modifier was let go: a plain click after it carries none.
    f.act(&s, Action::click(button), &task()).await.unwrap();
    let last = f.eval("window.__mods.at(-1)").await;
    assert_eq!(
        (&last["ctrl"], &last["shift"]),
        (&false.into(), &false.into())
    );
}
