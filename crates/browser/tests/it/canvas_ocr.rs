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
    f.act(&again, Action::click(rename.id.clone()), &task)
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

/// Left unread: a transparent overlay canvas with nothing drawn (over text the tree does
/// not have, which a screenshot of it would show), a canvas drawn and then cleared, and a
/// drawn canvas under `aria-hidden` or `inert`; the drawn canvas beside them still is.
#[tokio::test(flavor = "multi_thread")]
async fn a_blank_hidden_or_inert_canvas_is_not_read() {
    let mut f = Fixture::open("canvas.html").await;
    f.eval(
        "(() => { \
           const text = (label, top) => { const d = document.createElement('div'); \
             d.setAttribute('aria-hidden', 'true'); d.textContent = label; \
             d.style.cssText = `position:absolute;left:40px;top:${top}px;font:bold 28px sans-serif`; \
             document.body.appendChild(d); return d; }; \
           text('Under glass', 420); \
           const over = document.createElement('canvas'); over.width = 400; over.height = 60; \
           over.style.cssText = 'position:absolute;left:30px;top:410px;margin:0;border:0'; \
           over.getContext('2d'); document.body.appendChild(over); \
           const drawn = (label, top, attr) => { const c = document.createElement('canvas'); \
             c.width = 300; c.height = 50; c.style.cssText = `position:absolute;left:500px;top:${top}px`; \
             const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, 300, 50); \
             g.fillStyle = '#000'; g.font = 'bold 26px sans-serif'; g.fillText(label, 10, 35); \
             if (attr) { const w = document.createElement('div'); w.setAttribute(attr, attr === 'inert' ? '' : 'true'); \
               w.appendChild(c); document.body.appendChild(w); } else document.body.appendChild(c); \
             return g; }; \
           drawn('Hidden words', 420, 'aria-hidden'); \
           drawn('Inert words', 480, 'inert'); \
           drawn('Wiped words', 540, null).clearRect(0, 0, 300, 50); \
           return true; })()",
    )
    .await;
    let s = f.observe().await;
    let names = ocr_names(&s);
    assert!(
        names.contains(&"Export"),
        "the drawn canvas is read: {names:?}"
    );
    for unread in ["Under", "glass", "Hidden", "Inert", "Wiped"] {
        assert!(
            !names.iter().any(|n| n.contains(unread)),
            "{unread} read: {names:?}"
        );
    }
}
