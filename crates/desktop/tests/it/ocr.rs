//! OCR on a canvas-only GTK window (real Tesseract, real GTK under Xvfb): the drawn
//! buttons become `visible_text` elements that keep their ids, and a CLICK lands on the
//! right drawn button, checked through the fixture's own click record.

use crate::common::{subtask, Desktop};
use arc_core::{Action, Backend, ElementId, ExecutableAction, Snapshot, Source};
use arc_desktop::{DesktopBackend, OcrMode};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
struct CanvasRecord {
    events: Vec<CanvasEvent>,
    state: CanvasState,
}

#[derive(Debug, Deserialize)]
struct CanvasEvent {
    kind: String,
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    x: Option<i64>,
    #[serde(default)]
    y: Option<i64>,
    #[serde(default)]
    button: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
struct CanvasState {
    field: String,
}

async fn canvas_backend(desk: &Desktop, app: &crate::common::App, ocr: OcrMode) -> DesktopBackend {
    let mut o = desk.options(app);
    o.ocr = ocr;
    DesktopBackend::connect(o).await.expect("desktop backend")
}

fn ocr_texts(s: &Snapshot) -> BTreeMap<String, String> {
    s.elements
        .iter()
        .filter(|e| e.source == Source::Ocr)
        .map(|e| (e.id.0.clone(), e.name.clone()))
        .collect()
}

fn ocr_named(s: &Snapshot, name: &str) -> ElementId {
    s.elements
        .iter()
        .find(|e| e.source == Source::Ocr && e.name == name)
        .map(|e| e.id.clone())
        .unwrap_or_else(|| panic!("no OCR element {name:?} in {:#?}", ocr_texts(s)))
}

#[tokio::test(flavor = "multi_thread")]
async fn ocr_ids_hold_across_observations_and_a_click_lands_on_the_drawn_button() {
    let desk = Desktop::start();
    let app = desk.launch_fixture("canvas_buttons.py", &["--width", "1000", "--height", "620"]);
    let mut b = canvas_backend(&desk, &app, OcrMode::Auto).await;

    let first = b.observe().await.unwrap();
    let second = b.observe().await.unwrap();
    let (a, z) = (ocr_texts(&first), ocr_texts(&second));
    for label in ["Open", "Export", "Delete", "Settings", "Quit"] {
        assert!(a.values().any(|t| t == label), "{label} not read: {a:#?}");
    }
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        z.keys().collect::<Vec<_>>(),
        "OCR ids changed between two observations of the same window"
    );
    let export = ocr_named(&first, "Export");
    assert_eq!(ocr_named(&second, "Export"), export);

    let task = subtask("{}");
    let exec = ExecutableAction::materialize(&Action::click(export), &second, &task)
        .expect("CLICK on an OCR element is legal");
    assert!(b.is_fresh(&second, &exec).await.unwrap());
    let executed = b.execute(&second, &exec).await.expect("click");
    assert!(
        executed.physical_input,
        "an OCR element is pressed with XTest"
    );
    let r: CanvasRecord = app.wait_for(
        |r: &CanvasRecord| r.events.iter().any(|e| e.kind == "click"),
        "the click",
    );
    let clicks: Vec<&CanvasEvent> = r.events.iter().filter(|e| e.kind == "click").collect();
    assert_eq!(clicks.len(), 1, "{clicks:?}");
    assert_eq!(clicks[0].target.as_deref(), Some("Export"), "{clicks:?}");
    assert_eq!(clicks[0].button, Some(1.into()));
    assert!(clicks[0].x.is_some() && clicks[0].y.is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_drawn_field_offers_type_text_and_typing_reaches_it() {
    let desk = Desktop::start();
    let app = desk.launch_fixture("canvas_buttons.py", &["--width", "1000", "--height", "620"]);
    let mut b = canvas_backend(&desk, &app, OcrMode::Always).await;
    let s = b.observe().await.unwrap();
    let typable: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| e.source == Source::Ocr && e.actions.contains(arc_core::ActionKind::TypeText))
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(typable, ["Search files"], "{:#?}", ocr_texts(&s));

    let field = ocr_named(&s, "Search files");
    let task = subtask(r#"{"query": "report 2026"}"#);
    let action = Action::type_text(field, "query");
    let exec = ExecutableAction::materialize(&action, &s, &task).expect("legal");
    b.execute(&s, &exec).await.expect("type");
    app.wait_for(
        |r: &CanvasRecord| r.state.field == "report 2026",
        "the typed text in the drawn field",
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn ocr_never_yields_no_ocr_elements() {
    let desk = Desktop::start();
    let app = desk.launch_fixture("canvas_buttons.py", &["--width", "1000", "--height", "620"]);
    let mut b = canvas_backend(&desk, &app, OcrMode::Never).await;
    let s = b.observe().await.unwrap();
    assert!(ocr_texts(&s).is_empty());
    // The window is canvas-only: nothing accessible carries the drawn labels either.
    assert!(!s.elements.iter().any(|e| e.name == "Export"));
}

#[tokio::test(flavor = "multi_thread")]
async fn auto_leaves_a_labelled_accessible_window_alone() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let mut b = canvas_backend(&desk, &app, OcrMode::Auto).await;
    let s = b.observe().await.unwrap();
    assert!(ocr_texts(&s).is_empty(), "{:#?}", ocr_texts(&s));
}
