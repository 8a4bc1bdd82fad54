//! OCR over a `<canvas>` (real Chromium, real Tesseract): the drawn labels become
//! `visible_text` elements inside the canvas, a CLICK on one lands on that drawn button
//! (the page's own `window.__events`), a label drawn anew is read anew, and `--ocr never`
//! reads none.

use crate::common::Fixture;
use arc_browser::backend::BrowserOptions;
use arc_core::{Action, Snapshot, Source, Subtask};
use arc_vision::OcrMode;

fn ocr_names(s: &Snapshot) -> Vec<&str> {
    s.elements
        .iter()
        .filter(|e| e.source == Source::Ocr)
        .map(|e| e.name.as_str())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_click_on_an_ocr_label_lands_on_the_drawn_button() {
    let mut f = Fixture::open("canvas.html").await;
    let s = f.observe().await;
    let names = ocr_names(&s);
    for label in ["Open", "Export", "Delete", "Quit"] {
        assert!(names.contains(&label), "{label} not read: {names:?}");
    }
    // The paragraph is DOM text the tree already has: no OCR copy of it.
    assert!(
        !names.iter().any(|n| n.contains("Pick an action")),
        "{names:?}"
    );
    let rename = s
        .elements
        .iter()
        .find(|e| e.source == Source::Ocr && e.name == "Rename")
        .expect("Rename read");
    let again = f.observe().await;
    assert!(
        again
            .element(rename.id.as_str())
            .is_some_and(|e| e.name == "Rename"),
        "the id moved between observations"
    );
    let task = Subtask::new("Rename the file", "renamed");
    f.act(
        &again,
        Action::Click {
            target: rename.id.clone(),
        },
        &task,
    )
    .await
    .expect("click");
    let events = f.events().await;
    assert_eq!(events.len(), 1, "{events:#?}");
    assert_eq!(events[0]["target"], "Rename", "{events:#?}");
    assert_eq!(events[0]["isTrusted"], true);
}

/// The provider reuses the last read of unchanged pixels: a canvas drawn anew must be read
/// anew.
#[tokio::test(flavor = "multi_thread")]
async fn a_label_drawn_anew_is_read_anew() {
    let mut f = Fixture::open("canvas.html").await;
    let before = f.observe().await;
    assert!(
        ocr_names(&before).contains(&"Quit"),
        "{:?}",
        ocr_names(&before)
    );
    // The page's own drawing code repaints the last button with another label.
    f.eval(
        "(() => { const b = buttons[7]; g.fillStyle = '#dbe6f7'; \
         g.fillRect(b.x + 3, b.y + 3, b.w - 6, b.h - 6); g.fillStyle = '#0d0d1a'; \
         g.fillText('Close', b.x + b.w / 2, b.y + b.h / 2); return true; })()",
    )
    .await;
    let after = f.observe().await;
    let names = ocr_names(&after);
    assert!(names.contains(&"Close"), "{names:?}");
    assert!(!names.contains(&"Quit"), "{names:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn ocr_never_reads_no_canvas() {
    let options = BrowserOptions {
        ocr: OcrMode::Never,
        ..BrowserOptions::default()
    };
    let mut f = Fixture::open_with("canvas.html", options).await;
    let s = f.observe().await;
    assert!(ocr_names(&s).is_empty(), "{:?}", ocr_names(&s));
}
