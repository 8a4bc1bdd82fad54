//! CLICK on a run of text inside a control (a toolbar drawn as one pointer region, a label
//! per action) is a press inside that control; text outside any control, and kinds other
//! than CLICK, are still refused. SELECT_TEXT is implied by text a page shows.

use arc_core::{
    Action, ActionKind, ActionSet, Element, ExecutableAction, Role, Snapshot, Source, Subtask,
};

fn text(id: &str, name: &str, parent: &str) -> Element {
    let mut e = Element::new(id, Role::StaticText, name);
    e.parent_id = Some(parent.into());
    e.source = Source::Cdp;
    e
}

fn page() -> Snapshot {
    let mut bar = Element::new("bar", Role::Generic, "");
    bar.actions = ActionSet::from([ActionKind::Click]);
    Snapshot::new(
        "app",
        "w",
        vec![
            Element::new("doc", Role::Document, "Mail"),
            bar,
            text("reply", "Reply", "bar"),
            text("note", "From Tomas", "doc"),
        ],
    )
}

fn check(action: Action) -> Result<(), String> {
    ExecutableAction::materialize(&action, &page(), &Subtask::new("g", "c"))
        .map(drop)
        .map_err(|e| e.to_string())
}

#[test]
fn a_label_inside_a_control_takes_a_click_and_nothing_else_does() {
    assert_eq!(check(Action::click("reply")), Ok(()));
    let err = check(Action::click("note")).unwrap_err();
    assert!(err.contains("CLICK is not legal for"), "{err}");
    let err = check(Action::DoubleClick {
        target: "reply".into(),
    })
    .unwrap_err();
    assert!(err.contains("DOUBLE_CLICK is not legal for"), "{err}");
    // Text a page shows can always be highlighted.
    assert_eq!(
        check(Action::SelectText {
            target: "note".into()
        }),
        Ok(())
    );
}
