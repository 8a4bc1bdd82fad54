//! IoU deduplication, dropping what an accessible element already covers, and the
//! `auto` mode's rule, on synthetic boxes.

use arc_core::action::{ActionKind, ActionSet};
use arc_core::element::{Bounds, Element, Source};
use arc_core::role::Role;
use arc_vision::{dedup, drop_covered, Found, OcrMode, TextRegion};

fn b(x: f64, y: f64, w: f64, h: f64) -> Bounds {
    Bounds {
        x,
        y,
        width: w,
        height: h,
    }
}

fn found(text: &str, bounds: Bounds, confidence: f32) -> Found {
    Found {
        region: TextRegion {
            text: text.into(),
            bounds,
            confidence,
        },
        input: false,
        parent: None,
    }
}

fn button(name: &str, bounds: Bounds) -> Element {
    let mut e = Element::new("a1", Role::Button, name);
    e.bounds = Some(bounds);
    e.source = Source::Atspi;
    e.actions = ActionSet::EMPTY.with(ActionKind::Click);
    e
}

fn texts(f: &[Found]) -> Vec<&str> {
    f.iter().map(|f| f.region.text.as_str()).collect()
}

#[test]
fn overlapping_reads_of_one_text_collapse_to_the_most_confident() {
    let got = dedup(vec![
        found("Subrnit", b(100.0, 50.0, 60.0, 16.0), 61.0),
        found("Cancel", b(300.0, 50.0, 60.0, 16.0), 90.0),
        found("Submit", b(102.0, 51.0, 58.0, 15.0), 93.0),
        // Touching but barely overlapping (IoU ≈ 0.05): a different text.
        found("Help", b(157.0, 50.0, 40.0, 16.0), 80.0),
    ]);
    assert_eq!(texts(&got), ["Cancel", "Submit", "Help"]);
}

#[test]
fn a_region_an_accessible_element_covers_with_the_same_text_is_dropped() {
    let regions = vec![
        // Inside the Submit button, read with noise: dropped.
        found("Subrnit", b(110.0, 55.0, 50.0, 14.0), 70.0),
        // Inside the button but another text (a badge the tree does not name): kept.
        found("NEW", b(170.0, 55.0, 20.0, 14.0), 90.0),
        // Same text as the button, elsewhere (a heading): kept.
        found("Submit", b(100.0, 300.0, 60.0, 16.0), 95.0),
    ];
    let tree = [button("Submit", b(100.0, 50.0, 100.0, 24.0))];
    let got = drop_covered(regions, &tree);
    assert_eq!(texts(&got), ["NEW", "Submit"]);
}

#[test]
fn a_window_named_like_a_drawn_button_does_not_swallow_it() {
    let regions = vec![found("Save", b(110.0, 55.0, 40.0, 14.0), 90.0)];
    let mut window = Element::new("a0", Role::Window, "Save");
    window.bounds = Some(b(0.0, 0.0, 1280.0, 800.0));
    window.source = Source::Atspi;
    assert_eq!(texts(&drop_covered(regions, &[window])), ["Save"]);
}

#[test]
fn a_hidden_element_or_another_ocr_element_does_not_cover() {
    let regions = vec![found("Submit", b(110.0, 55.0, 50.0, 14.0), 90.0)];
    let mut hidden = button("Submit", b(100.0, 50.0, 100.0, 24.0));
    hidden.visible = false;
    let mut ocr = button("Submit", b(100.0, 50.0, 100.0, 24.0));
    ocr.source = Source::Ocr;
    assert_eq!(texts(&drop_covered(regions, &[hidden, ocr])), ["Submit"]);
}

#[test]
fn auto_reads_pixels_only_without_a_labelled_enabled_control() {
    let labelled = button("Submit", b(0.0, 0.0, 10.0, 10.0));
    let mut disabled = labelled.clone();
    disabled.enabled = false;
    let unlabelled = button("  ", b(0.0, 0.0, 10.0, 10.0));
    let window = Element::new("a0", Role::Window, "Canvas Buttons");
    assert!(!OcrMode::Auto.wants_ocr(&[window.clone(), labelled.clone()]));
    assert!(OcrMode::Auto.wants_ocr(&[window.clone(), disabled, unlabelled]));
    assert!(OcrMode::Always.wants_ocr(std::slice::from_ref(&labelled)));
    assert!(!OcrMode::Never.wants_ocr(&[window]));
    assert_eq!("always".parse::<OcrMode>(), Ok(OcrMode::Always));
    let err = "sometimes".parse::<OcrMode>().unwrap_err();
    assert!(
        err.contains("sometimes") && err.contains("auto, always, never"),
        "{err}"
    );
}
