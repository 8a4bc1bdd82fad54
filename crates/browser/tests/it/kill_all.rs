//! `kill_all_launched`, the cleanup a process runs when a signal ends it: every live
//! launch's processes and profile go, and nothing is launched afterwards. It shuts
//! launching down for the whole process, so it needs a process of its own: nextest gives
//! every test one (`scripts/test.sh`); under `cargo test` it says so instead of breaking
//! its neighbours.

use crate::common;

use std::time::Duration;

use arc_browser::{kill_all_launched, BrowserError, Chromium, LaunchOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_all_launched_ends_every_browser_and_refuses_new_ones() {
    assert_eq!(
        std::env::var("NEXTEST").as_deref(),
        Ok("1"),
        "run with cargo nextest: this test ends launching for its whole process"
    );
    let mut launches = Vec::new();
    for _ in 0..2 {
        let chromium = Chromium::launch(LaunchOptions::default()).await.unwrap();
        let browser = chromium.connect().await.unwrap();
        browser.new_page("data:text/html,<p>hi</p>").await.unwrap();
        let profile = chromium.user_data_dir().to_path_buf();
        // Chromium's own temp files live inside the profile.
        assert!(profile.join("tmp").is_dir(), "{}", profile.display());
        launches.push((chromium.pid(), profile, chromium));
    }
    assert_eq!(kill_all_launched(), 2);
    for (pgid, profile, _handle) in &launches {
        let dir = profile.display().to_string();
        let left = common::leftovers_after(*pgid, &dir, Duration::from_secs(5));
        assert!(left.is_empty(), "left behind: {left:#?}");
        assert!(!profile.exists(), "profile {dir} left behind");
    }
    let refused = Chromium::launch(LaunchOptions::default())
        .await
        .unwrap_err();
    assert!(matches!(refused, BrowserError::ShuttingDown), "{refused}");
}
