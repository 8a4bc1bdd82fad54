//! A desktop window's screenshot through the host (`include_png`, what the MCP
//! `screenshot` tool serves): the PNG is the window's own box, pixel for pixel what the X
//! server shows there, read back by the test with its own `GetImage`.

use crate::common::desktop::Desktop;
use crate::common::duplex_client;
use arc_host::{DesktopAccess, Host, Limits};
use base64::Engine as _;
use serde_json::json;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _, ImageFormat, MapState};

/// The fixture's top-level X window (by `_NET_WM_PID`): its box on the screen and its
/// pixels as RGB, read straight from the X server.
fn x_window_pixels(display: &str, pid: u32) -> ((i16, i16, u16, u16), Vec<u8>) {
    let (conn, n) = x11rb::connect(Some(display)).expect("X display");
    let root = conn.setup().roots[n].root;
    let pid_atom = conn
        .intern_atom(false, b"_NET_WM_PID")
        .unwrap()
        .reply()
        .unwrap()
        .atom;
    let tree = conn.query_tree(root).unwrap().reply().unwrap();
    let (x, y, w, h) = tree
        .children
        .iter()
        .filter(|&&win| {
            let viewable = conn
                .get_window_attributes(win)
                .unwrap()
                .reply()
                .is_ok_and(|a| a.map_state == MapState::VIEWABLE);
            let owner = conn
                .get_property(false, win, pid_atom, AtomEnum::CARDINAL, 0, 1)
                .unwrap()
                .reply()
                .ok()
                .and_then(|p| p.value32().and_then(|mut v| v.next()));
            viewable && owner == Some(pid)
        })
        .map(|&win| {
            let g = conn.get_geometry(win).unwrap().reply().unwrap();
            (g.x, g.y, g.width, g.height)
        })
        .max_by_key(|g| g.2 as u32 * g.3 as u32)
        .expect("the fixture's window is mapped");
    let img = conn
        .get_image(ImageFormat::Z_PIXMAP, root, x, y, w, h, !0)
        .unwrap()
        .reply()
        .unwrap();
    let stride = img.data.len() / h as usize;
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for row in img.data.chunks(stride) {
        for p in row[..w as usize * 4].chunks_exact(4) {
            rgb.extend_from_slice(&[p[2], p[1], p[0]]);
        }
    }
    ((x, y, w, h), rgb)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_window_screenshot_is_the_windows_own_pixels() {
    let desk = Desktop::start();
    let app = desk.launch(&["--rows", "8"]);
    let host = Host::without_browser(Limits::default());
    host.set_desktop(DesktopAccess {
        session_bus: Some(desk.bus.clone()),
        display: Some(desk.display.clone()),
    });
    let mut c = duplex_client(&host);
    c.hello().await;
    let targets = c.ok("list_targets", json!({})).await;
    let window = targets["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "window" && t["pid"] == app.pid())
        .cloned()
        .unwrap_or_else(|| panic!("no window of the fixture in {targets}"));
    let r = c
        .ok(
            "open_session",
            json!({"target": {"target_id": window["target_id"]}}),
        )
        .await;
    let o = c
        .ok(
            "observe",
            json!({"session": r["session"], "options": {"include_png": true}}),
        )
        .await;
    assert!(
        o["view"].as_str().unwrap().contains("Submit"),
        "the observation is still served: {o}"
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(o["png_base64"].as_str().expect("a PNG"))
        .expect("base64");
    let mut reader = png::Decoder::new(std::io::Cursor::new(&png))
        .read_info()
        .expect("a PNG that decodes");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut buf).unwrap();
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    let shot = &buf[..frame.buffer_size()];

    let ((_, _, w, h), x_rgb) = x_window_pixels(&desk.display, app.pid());
    assert_eq!(
        (frame.width, frame.height),
        (w as u32, h as u32),
        "the PNG has the window's size as the X server has it"
    );
    // Not a blank frame: the form's background, its entry and its text differ.
    let colours: std::collections::HashSet<&[u8]> = shot.chunks_exact(3).collect();
    assert!(colours.len() >= 8, "{} colours", colours.len());
    // Pixel for pixel what the X server shows there (the window is still).
    let differing = shot
        .chunks_exact(3)
        .zip(x_rgb.chunks_exact(3))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differing * 1000 <= shot.len() / 3,
        "{differing} of {} pixels differ from the screen's",
        shot.len() / 3
    );
}
