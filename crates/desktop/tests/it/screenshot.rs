//! The window screenshot (`DesktopBackend::screenshot_png`, served by the host and MCP):
//! checked against what the canvas fixture draws where (its own layout), and refused
//! with the limit named when the box is over it.

use crate::common::Desktop;
use arc_core::{Backend, Bounds};
use arc_desktop::capture::{CaptureError, Screen};
use arc_desktop::DesktopBackend;

/// Decodes an RGB PNG: (width, height, pixels).
fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a PNG that decodes");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    buf.truncate(frame.buffer_size());
    (frame.width, frame.height, buf)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_png_shows_the_canvas_fixtures_drawing_at_its_size() {
    let desk = Desktop::start();
    let app = desk.launch_fixture("canvas_buttons.py", &["--width", "1000", "--height", "620"]);
    let mut backend = DesktopBackend::connect(desk.options(&app))
        .await
        .expect("desktop backend");
    backend.observe().await.expect("observe");
    let (w, h, rgb) = decode(&backend.screenshot_png().await.expect("a screenshot"));
    // The fixture asked for 1000×620 at (0, 0); no window manager changes it.
    assert_eq!((w, h), (1000, 620));
    let at = |x: u32, y: u32| {
        let i = (y * w + x) as usize * 3;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    // canvas_buttons.py paints the page white, each button's face (0.85, 0.9, 0.97) and
    // its border (0.2, 0.3, 0.5); the first button is at (60, 180), 200×56.
    assert_eq!(at(30, 600), [255, 255, 255], "the page");
    assert_eq!(at(70, 190), [217, 230, 248], "the Open button's face");
    assert_eq!(at(61, 200), [51, 76, 128], "the Open button's border");
}

#[test]
fn a_box_over_the_limit_is_refused_with_the_limit_named() {
    let desk = Desktop::start();
    let screen = Screen::connect(Some(&desk.display)).expect("X display");
    let b = Bounds {
        x: 0.0,
        y: 0.0,
        width: 400.0,
        height: 300.0,
    };
    let err = screen.grab_rgb(&b, 10_000).err().expect("refused");
    assert!(
        matches!(
            err,
            CaptureError::TooLarge {
                width: 400,
                height: 300,
                max_pixels: 10_000
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("limit of 10000 pixels"), "{err}");
    // Within the limit the same box is captured at its size.
    let shot = screen.grab_rgb(&b, 400 * 300).expect("captured");
    assert_eq!(
        (shot.width, shot.height, shot.rgb.len()),
        (400, 300, 400 * 300 * 3)
    );
}
