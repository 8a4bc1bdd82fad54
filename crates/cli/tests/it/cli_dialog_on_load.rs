//! `arc-cua observe` on a page whose inline script calls `alert()` before load prints
//! the dialog promptly instead of failing after 30 s.

use std::time::{Duration, Instant};

#[test]
fn observe_shows_an_alert_opened_during_load() {
    let page = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/site/alert-on-load.html"
    );
    let started = Instant::now();
    let out = assert_cmd::Command::cargo_bin("arc-cua")
        .unwrap()
        .args(["observe", "--json", page])
        .timeout(Duration::from_secs(25))
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Launch and close included, on a loaded machine; the old failure took 30 s and more.
    assert!(took < Duration::from_secs(20), "took {took:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let elements = json["snapshot"]["elements"].as_array().unwrap();
    let has = |role: &str, name: &str| {
        elements
            .iter()
            .any(|e| e["role"] == role && e["name"] == name)
    };
    assert!(has("dialog", "alert: Welcome back"), "{elements:#?}");
    assert!(has("button", "OK"), "{elements:#?}");
}
