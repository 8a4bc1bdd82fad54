//! `arc-cua` on a desktop application: run with the reflex policy, observe, doctor —
//! on a private Xvfb display and D-Bus session with the GTK fixture.

use crate::desktop::Desktop;
use assert_cmd::Command;
use serde_json::Value;

fn arc(desk: &Desktop) -> Command {
    let mut c = Command::cargo_bin("arc-cua").unwrap();
    c.env("DISPLAY", &desk.display)
        .env("DBUS_SESSION_BUS_ADDRESS", &desk.bus)
        .env_remove("ARC_CUA_MODEL")
        .timeout(std::time::Duration::from_secs(60));
    c
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

#[test]
fn the_reflex_policy_completes_a_subtask_on_the_gtk_app() {
    let desk = Desktop::start();
    let app = desk.launch(&[]);
    let payload = r#"{"goal": "Enter the name and submit the form",
        "inputs": {"name": "Ada"},
        "verification": ["The window shows \"Submitted: Ada\""]}"#;
    let out = arc(&desk)
        .args([
            "run",
            "--quiet",
            "--policy",
            "reflex",
            "--backend",
            "desktop",
            "--app",
            "arc-gtk-form",
        ])
        .write_stdin(payload)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = &json_lines(&out.stdout)[0];
    assert_eq!(result["status"], "SUBTASK_COMPLETE", "{result}");
    for step in result["history"].as_array().unwrap() {
        assert_eq!(step["decision"]["provenance"]["tier"], "reflex", "{step}");
    }
    // The application's own record: the name was entered, then Submit pressed with it.
    let record = app.read().expect("record");
    assert_eq!(record.state.name, "Ada");
    assert!(
        record
            .events
            .iter()
            .any(|e| e.kind == "clicked" && e.widget == "submit"),
        "{:#?}",
        record.events
    );
}

#[test]
fn observe_prints_the_desktop_apps_view() {
    let desk = Desktop::start();
    let _app = desk.launch(&[]);
    let out = arc(&desk)
        .args(["observe", "--app", "arc-gtk-form", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let obs = &json_lines(&out.stdout)[0];
    assert_eq!(obs["url"], "atspi:arc-gtk-form");
    let view = obs["view"]["text"].as_str().unwrap();
    assert!(view.contains("button \"Submit\""), "{view}");
    assert!(view.contains("text_field \"Name\""), "{view}");

    let out = arc(&desk)
        .args(["observe", "--app", "no-such-app"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no-such-app") && err.contains("arc-gtk-form"),
        "{err}"
    );
}

#[test]
fn doctor_reports_what_is_usable_and_how_to_fix_what_is_not() {
    let desk = Desktop::start();
    let _app = desk.launch(&[]);
    let out = arc(&desk).args(["doctor", "--json"]).output().unwrap();
    let checks = json_lines(&out.stdout);
    let status = |name: &str| {
        checks
            .iter()
            .find(|c| c["check"].as_str().unwrap().starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {checks:#?}"))["status"]
            .clone()
    };
    assert_eq!(status("accessibility bus"), "ok", "{checks:#?}");
    assert_eq!(status("X display"), "ok", "{checks:#?}");
    assert_eq!(status("Chromium"), "ok", "{checks:#?}");
    assert_eq!(status("Tesseract"), "ok", "{checks:#?}");
    assert_eq!(out.status.code(), Some(0));
    let bus = checks
        .iter()
        .find(|c| c["check"] == "accessibility bus")
        .unwrap();
    assert!(
        bus["detail"].as_str().unwrap().contains("arc-gtk-form"),
        "{bus}"
    );

    // No display, no bus: both reported missing, each with a fix; exit 3.
    let out = arc(&desk)
        .env_remove("DISPLAY")
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
        .args(["doctor"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("MISSING accessibility bus"), "{text}");
    assert!(text.contains("MISSING X display"), "{text}");
    assert_eq!(text.matches("fix:").count(), 2, "{text}");
}

#[test]
fn doctor_reports_tesseract_its_version_and_one_ocr_thread() {
    let desk = Desktop::start();
    // Started without OMP_THREAD_LIMIT: the CLI re-executes itself with it, and libgomp
    // (asked, not the environment) reports one thread.
    let out = arc(&desk)
        .env_remove("OMP_THREAD_LIMIT")
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    let checks = json_lines(&out.stdout);
    let tess = checks
        .iter()
        .find(|c| c["check"] == "Tesseract (OCR)")
        .unwrap_or_else(|| panic!("{checks:#?}"));
    assert_eq!(tess["status"], "ok", "{tess}");
    let detail = tess["detail"].as_str().unwrap();
    let installed = std::process::Command::new("tesseract")
        .arg("--version")
        .output()
        .expect("the tesseract program (tesseract-ocr)");
    let version = String::from_utf8_lossy(&installed.stdout);
    let version = version.split_whitespace().nth(1).expect("tesseract X.Y.Z");
    assert!(
        detail.contains(&format!("Tesseract {version}")),
        "{detail} vs {version}"
    );
    assert!(detail.contains("English data"), "{detail}");
    assert!(detail.ends_with("OCR threads: 1"), "{detail}");

    // Without English data it is missing, with a fix, and doctor exits 3.
    let empty = tempfile::tempdir().unwrap();
    let out = arc(&desk)
        .env("TESSDATA_PREFIX", empty.path())
        .args(["doctor"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("MISSING Tesseract (OCR)"), "{text}");
    assert!(text.contains("tesseract-ocr-eng"), "{text}");
}

#[test]
fn observe_reads_a_canvas_window_by_ocr_unless_told_never() {
    let desk = Desktop::start();
    let _app = desk.launch_fixture("canvas_buttons.py", &["--width", "1000", "--height", "620"]);
    let observe = |ocr: &str| {
        arc(&desk)
            .args([
                "observe",
                "--app",
                "arc-canvas-buttons",
                "--json",
                "--ocr",
                ocr,
            ])
            .output()
            .unwrap()
    };
    let out = observe("auto");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let view = json_lines(&out.stdout)[0]["view"]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    for label in ["Export", "Settings", "Search files"] {
        assert!(
            view.contains(&format!("visible_text \"{label}\"")),
            "{view}"
        );
    }

    let out = observe("never");
    assert_eq!(out.status.code(), Some(0));
    let obs = &json_lines(&out.stdout)[0];
    let elements = obs["snapshot"]["elements"].as_array().unwrap();
    assert!(
        elements.iter().all(|e| e["source"] != "ocr"),
        "{elements:#?}"
    );
    assert!(!obs["view"]["text"].as_str().unwrap().contains("Export"));

    let out = observe("sometimes");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sometimes") && err.contains("auto, always, never"),
        "{err}"
    );
}
