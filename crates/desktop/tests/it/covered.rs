//! Physical input refuses a point another application's window covers: a second fixture
//! app opens over the first, and a double-click (XTest), a click at a window point or a
//! key on the first is stale, nothing pressed in either app; once it closes, the same
//! press lands.

use crate::common::{find, subtask, Desktop};
use arc_core::key::Modifier;
use arc_core::{Action, Backend, BackendError, ExecutableAction, Key};
use arc_desktop::input::point::PointInput;

fn activations(app: &crate::common::App) -> usize {
    app.read()
        .map(|r| r.events.iter().filter(|e| e.kind == "activated").count())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_covered_point_is_stale_and_nothing_is_pressed() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "8"]);
    let mut b = desk.backend(&app).await;
    let s = b.observe().await.unwrap();
    let row = find(&s, "listitem", "Item 2");
    // The second app opens at the same place, on top.
    let over = desk.launch_recording("over.json", &["--rows", "8", "--title", "Over"]);
    desk.park_pointer(1200, 780);
    let task = subtask("{}");
    let dbl = ExecutableAction::materialize(
        &Action::DoubleClick {
            target: row.clone(),
        },
        &s,
        &task,
    )
    .expect("legal");
    let err = b.execute(&s, &dbl).await.expect_err("covered");
    assert!(
        matches!(&err, BackendError::Stale { detail, .. } if detail.contains("covers")),
        "{err}"
    );
    let click = PointInput::Click {
        x: 100.0,
        y: 100.0,
        right: false,
        count: 2,
        modifiers: vec![Modifier::Shift],
    };
    let err = b.input_at(&click).await.expect_err("covered");
    assert!(matches!(err, BackendError::Stale { .. }), "{err}");
    // Keys go to the X window focused at the window's centre: covered, none is sent
    // (it would reach the other app).
    let enter = ExecutableAction::materialize(&Action::PressKey { key: Key::Enter }, &s, &task)
        .expect("legal");
    let err = b.execute(&s, &enter).await.expect_err("covered");
    assert!(matches!(err, BackendError::Stale { .. }), "{err}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(desk.pointer(), (1200, 780), "the pointer never moved");
    assert_eq!(activations(&app), 0, "the covered app got nothing");
    assert_eq!(activations(&over), 0, "the covering app got nothing");
    let keys = |a: &crate::common::App| {
        a.read()
            .map_or(0, |r| r.events.iter().filter(|e| e.kind == "key").count())
    };
    assert_eq!(keys(&over) + keys(&app), 0, "no key reached either app");

    drop(over);
    let s = b.observe().await.unwrap();
    let dbl = ExecutableAction::materialize(&Action::DoubleClick { target: row }, &s, &task)
        .expect("legal");
    // The covering window may take a moment to unmap.
    let started = std::time::Instant::now();
    let executed = loop {
        match b.execute(&s, &dbl).await {
            Ok(executed) => break executed,
            Err(BackendError::Stale { .. }) if started.elapsed().as_secs() < 5 => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await
            }
            Err(e) => panic!("uncovered press failed: {e}"),
        }
    };
    assert!(executed.physical_input);
    app.wait(
        |r| {
            r.events
                .iter()
                .any(|e| e.kind == "activated" && e.row == Some(2))
        },
        "the row activated once uncovered",
    );
}
