//! The temporary profile a launch creates holds the session's cookies, storage and
//! history: no other local user may list or enter it, nor its `tmp/` (Chromium's shared
//! memory). Read from the file system, after the page has written to the profile.

use crate::common::Fixture;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test(flavor = "multi_thread")]
async fn the_profile_and_its_tmp_are_the_owners_alone() {
    let mut f = Fixture::open("events.html").await;
    f.observe().await;
    let chromium = f.backend.chromium().expect("the backend launched Chromium");
    let profile = chromium.user_data_dir().to_path_buf();
    assert!(
        std::fs::read_dir(&profile).unwrap().next().is_some(),
        "Chromium wrote nothing into {}",
        profile.display()
    );
    assert_eq!(mode(&profile), 0o700, "{}", profile.display());
    assert_eq!(
        mode(&profile.join("tmp")),
        0o700,
        "{}/tmp",
        profile.display()
    );
}
