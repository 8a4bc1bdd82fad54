//! What a page downloads is saved into its session's own directory, reported with its
//! size and SHA-256, bounded in size, and never given to another session on the same
//! browser. Judged on the files on disk against the bytes the server holds.

use crate::common::{find, site_root, Fixture};
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_core::{Action, Backend, Download, Subtask};
use std::path::Path;
use std::time::{Duration, Instant};

fn report() -> Vec<u8> {
    std::fs::read(site_root().join("portal/report.csv")).unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

/// Clicks the element named `name` and waits (bounded) until `backend` reports `n`
/// downloads, or the bound passes.
async fn click_and_wait(
    backend: &mut BrowserBackend,
    role: &str,
    name: &str,
    n: usize,
) -> Vec<Download> {
    let snapshot = backend.observe().await.unwrap();
    let target = find(&snapshot, role, name);
    let exec = arc_core::ExecutableAction::materialize(
        &Action::click(target),
        &snapshot,
        &Subtask::new("download", "saved"),
    )
    .unwrap();
    backend.execute(&snapshot, &exec).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let saved = backend.observe().await.unwrap().facts.downloads;
        if saved.len() >= n || Instant::now() > deadline {
            return saved;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread")]
async fn a_download_is_saved_hashed_never_replaced_and_one_over_the_bound_is_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let saved_to = dir.path().join("dl");
    let options = BrowserOptions {
        downloads: Some(saved_to.clone()),
        max_download_bytes: Some(1024),
        ..BrowserOptions::default()
    };
    let mut f = Fixture::open_with("downloads.html", options).await;

    // 64 KiB over a 1 KiB bound: cancelled, nothing kept.
    let saved = click_and_wait(&mut f.backend, "button", "Export everything", 1).await;
    assert!(saved.is_empty(), "{saved:?}");
    assert!(files_in(&saved_to).is_empty(), "{:?}", files_in(&saved_to));

    let first = click_and_wait(&mut f.backend, "link", "Monthly report", 1).await;
    let again = click_and_wait(&mut f.backend, "link", "Monthly report", 2).await;
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(again.len(), 2, "{again:?}");
    let bytes = report();
    for (d, name) in again
        .iter()
        .zip(["monthly-report.csv", "monthly-report (1).csv"])
    {
        assert_eq!(d.name, name);
        let on_disk = std::fs::read(&d.path).unwrap();
        assert_eq!(on_disk, bytes, "{}", d.path);
        assert_eq!(d.bytes, bytes.len() as u64);
        assert_eq!(d.sha256, sha256(&bytes));
        assert!(Path::new(&d.path).starts_with(saved_to.canonicalize().unwrap()));
    }
    assert_eq!(
        files_in(&saved_to),
        ["monthly-report (1).csv", "monthly-report.csv"]
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&saved_to).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_download_belongs_to_the_session_whose_page_began_it() {
    let dir = tempfile::tempdir().unwrap();
    let (dir_a, dir_b) = (dir.path().join("a"), dir.path().join("b"));
    let server = arc_browser::StaticServer::start(site_root()).await.unwrap();
    let (chromium, browser) = crate::common::launch().await;
    let open = |to: &Path| BrowserOptions {
        downloads: Some(to.to_path_buf()),
        ..BrowserOptions::default()
    };
    let url = server.url("downloads.html");
    let mut a = BrowserBackend::open(browser.clone(), &url, open(&dir_a))
        .await
        .unwrap();
    let mut b = BrowserBackend::open(browser.clone(), &url, open(&dir_b))
        .await
        .unwrap();

    let saved = click_and_wait(&mut a, "link", "Monthly report", 1).await;
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(Path::new(&saved[0].path).starts_with(dir_a.canonicalize().unwrap()));
    assert!(b.observe().await.unwrap().facts.downloads.is_empty());
    assert!(files_in(&dir_b).is_empty());
    // And the other way round.
    let saved = click_and_wait(&mut b, "link", "Monthly report", 1).await;
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(Path::new(&saved[0].path).starts_with(dir_b.canonicalize().unwrap()));
    assert_eq!(a.observe().await.unwrap().facts.downloads.len(), 1);
    drop((a, b));
    drop(chromium);
}
