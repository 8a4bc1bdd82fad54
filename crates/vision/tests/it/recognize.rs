//! Real Tesseract (loaded at run time) over the canvas fixture: every label's text and
//! word box as the engine read them before the library was loaded at run time (leptess,
//! Tesseract 5.3.0), within a pixel.

use arc_vision::{GrayImage, OcrEngine, TextRegion};

const CANVAS: &[u8] = include_bytes!("../fixtures/canvas_buttons_1280x800.png");

/// Text, x, y, width, height at 1× (the screen's pixels), in reading order.
const EXPECTED: [(&str, f64, f64, f64, f64); 14] = [
    ("Canvas Tools", 61.0, 40.0, 191.0, 20.0),
    ("Search files", 73.0, 111.0, 102.0, 14.0),
    ("Open", 132.0, 199.0, 57.0, 19.0),
    ("Export", 604.0, 199.0, 72.0, 19.0),
    ("Save", 374.0, 201.0, 53.0, 15.0),
    ("Print", 854.0, 201.0, 53.0, 15.0),
    ("Undo", 133.0, 297.0, 55.0, 15.0),
    ("Redo", 374.0, 297.0, 54.0, 15.0),
    ("Delete", 604.0, 297.0, 73.0, 15.0),
    ("Rename", 836.0, 297.0, 89.0, 15.0),
    ("Settings", 114.0, 391.0, 93.0, 19.0),
    ("Help", 376.0, 391.0, 49.0, 19.0),
    ("Quit", 857.0, 391.0, 46.0, 18.0),
    ("Share", 608.0, 393.0, 64.0, 15.0),
];

fn check(regions: &[TextRegion], scale: f64) {
    let texts: Vec<&str> = regions.iter().map(|r| r.text.as_str()).collect();
    let want: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
    assert_eq!(texts, want, "at {scale}×");
    for (r, &(text, x, y, w, h)) in regions.iter().zip(&EXPECTED) {
        let b = &r.bounds;
        let got = [b.x, b.y, b.width, b.height];
        let want = [x, y, w, h].map(|v| v * scale);
        assert!(
            got.iter().zip(&want).all(|(g, w)| (g - w).abs() <= scale),
            "{text:?} at {scale}×: box {got:?}, expected {want:?}"
        );
        assert!(
            r.confidence >= 90.0,
            "{text:?}: confidence {}",
            r.confidence
        );
    }
}

#[test]
fn the_canvas_fixture_reads_as_its_labels_in_their_boxes() {
    let image = GrayImage::from_png(CANVAS).unwrap();
    let mut engine = OcrEngine::new().expect("Tesseract starts (scripts/setup-system.sh)");
    assert!(
        OcrEngine::version().starts_with(['4', '5']),
        "{}",
        OcrEngine::version()
    );
    // Screen pixels, small text upscaled; and the same picture taken at 2×.
    check(&engine.read(&image, true).unwrap(), 1.0);
    check(
        &engine.read(&image.upscale2().unwrap(), false).unwrap(),
        2.0,
    );
}

#[test]
fn engines_start_on_several_threads_at_once() {
    // The library is loaded once, whichever thread asks first; each engine has its own
    // handle and reads on its own thread.
    let image = GrayImage::from_png(CANVAS).unwrap();
    let line = image.crop(40, 20, 320, 60).unwrap();
    let reads: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|_| {
                s.spawn(|| {
                    let mut engine = OcrEngine::new().expect("Tesseract starts");
                    let regions = engine.read(&line, true).unwrap();
                    regions.into_iter().map(|r| r.text).collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for texts in reads {
        assert_eq!(texts, ["Canvas Tools"]);
    }
    assert_eq!(
        OcrEngine::thread_limit(),
        1,
        "OMP_THREAD_LIMIT=1 (.cargo/config.toml)"
    );
}
