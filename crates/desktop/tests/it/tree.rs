//! Finding the application, reading its tree by cache and by walk, stable ids.

use crate::common::Desktop;
use arc_core::Backend;
use arc_desktop::{apps, connect_bus, AppSelector, DesktopBackend, DesktopError, TreeSource};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread")]
async fn applications_are_listed_with_their_pid_and_windows() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let bus = connect_bus(Some(&desk.bus)).await.unwrap();
    let listed = apps::list(bus.connection()).await.unwrap();
    let me = listed
        .iter()
        .find(|a| a.name == "arc-gtk-form")
        .unwrap_or_else(|| panic!("{listed:#?}"));
    assert_eq!(me.pid, Some(app.pid()), "the pid the process table gave us");
    assert!(
        me.windows
            .iter()
            .any(|w| w.name == "Arc GTK form" && w.role == "frame"),
        "{:#?}",
        me.windows
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_app_that_is_not_there_is_a_clear_error() {
    let desk = Desktop::start();
    let _app = desk.launch(&[]);
    let mut opts = desk.options(&_app);
    opts.app = AppSelector::Name("no-such-app".into());
    opts.find_timeout = Duration::from_millis(300);
    let err = match DesktopBackend::connect(opts).await {
        Err(e) => e,
        Ok(_) => panic!("found an app that does not exist"),
    };
    assert!(matches!(err, DesktopError::AppNotFound { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("no-such-app") && msg.contains("arc-gtk-form"),
        "{msg}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_bounded_walk_reads_what_the_cache_reads_and_ids_are_stable() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "12"]);
    let mut cached = desk.backend(&app).await;
    let mut opts = desk.options(&app);
    opts.tree = TreeSource::Walk;
    let mut walked = DesktopBackend::connect(opts).await.unwrap();
    let a = cached.observe().await.unwrap();
    let b = walked.observe().await.unwrap();
    let seen = |s: &arc_core::Snapshot| {
        let mut v: Vec<(String, String, bool)> = s
            .elements
            .iter()
            .map(|e| (e.role.as_str().to_owned(), e.name.clone(), e.visible))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        seen(&a),
        seen(&b),
        "cache and walk perceive the same window"
    );
    assert!(
        a.elements.iter().any(|e| e.name == "Item 11"),
        "the uncached list rows are read"
    );
    let again = cached.observe().await.unwrap();
    let ids = |s: &arc_core::Snapshot| s.elements.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
    assert_eq!(
        ids(&a),
        ids(&again),
        "ids are bound to objects, stable across observations"
    );
    assert_eq!(a.revision, again.revision, "nothing changed, same revision");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_list_is_read_where_it_is_on_screen_and_the_rest_is_counted() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "290"]);
    let mut b = desk.backend(&app).await;
    let s = b.observe().await.unwrap();
    let rows: Vec<&arc_core::Element> = s
        .elements
        .iter()
        .filter(|e| e.role.as_str() == "listitem")
        .collect();
    assert!(
        rows.iter().any(|e| e.name == "Item 0"),
        "the first row is on screen"
    );
    assert!(
        !rows.iter().any(|e| e.name == "Item 289"),
        "the last row is not"
    );
    assert!(
        rows.iter().all(|e| e.visible),
        "only on-screen rows are read"
    );
    assert_eq!(s.facts.scope, Some(arc_core::ObservationScope::Viewport));
    assert_eq!(
        s.facts.left_out_elements,
        Some(290 - rows.len() as u64),
        "every row is either read or counted"
    );

    // Scrolled down, the rows read are the ones now on screen.
    let list = crate::common::find(&s, "listbox", "Items");
    let scroll = arc_core::Action::Scroll {
        direction: arc_core::ScrollDirection::Down,
        target: Some(list),
    };
    let task = crate::common::subtask("{}");
    let exec = arc_core::ExecutableAction::materialize(&scroll, &s, &task).unwrap();
    b.execute(&s, &exec).await.unwrap();
    let rec = app.wait(
        |r| r.events.iter().any(|e| e.kind == "scrolled"),
        "a scroll",
    );
    let s = b.observe().await.unwrap();
    let rows: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| e.role.as_str() == "listitem")
        .map(|e| e.name.as_str())
        .collect();
    assert!(
        !rows.contains(&"Item 0"),
        "scrolled past the first row: {rows:?} ({rec:?})"
    );
    assert!(!rows.is_empty() && rows.len() < 40, "{rows:?}");
}
