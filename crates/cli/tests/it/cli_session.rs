//! A browser session kept across `arc-cua run`s, files in and out: sign in once and save
//! the session (`--save-storage-state`, or a kept `--profile`), then, in a later run that
//! is never given the password, upload a receipt and download the monthly report.
//!
//! The fixture (`fixtures/site/portal/`) keeps its own record: the signed-in user (a
//! cookie and localStorage), and each upload's name, size and SHA-256 as the page read the
//! bytes (localStorage `portal.uploads`). The tests read that record from the browser's
//! own storage, saved to a file after the run, and compare the downloaded file's bytes
//! with the served one; the runtime's claims are checked against both. The refusals:
//! a storage state open to others, a second browser on a profile, a path the subtask
//! does not list, a file over the upload bound.

use arc_browser::StaticServer;
use assert_cmd::Command;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const EMAIL: &str = "ada@example.com";
const PASSWORD: &str = "orchid-42";

fn site_root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site")
}

/// The fixture site on loopback, served by a runtime of its own for the whole test: one
/// origin for every run (localStorage belongs to an origin, port included).
fn serve() -> (tokio::runtime::Runtime, StaticServer) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(StaticServer::start(site_root())).unwrap();
    (rt, server)
}

struct Ran {
    result: Value,
    code: Option<i32>,
    stderr: String,
}

/// `arc-cua run --backend browser --url URL` with the subtask on stdin.
fn run(url: &str, subtask: &Value, extra: &[&str]) -> Ran {
    let out = Command::cargo_bin("arc-cua")
        .unwrap()
        .args(["run", "--backend", "browser", "--quiet", "--url", url])
        .args(extra)
        .env_remove("ARC_CUA_MODEL")
        .write_stdin(subtask.to_string())
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    Ran {
        result: stdout
            .lines()
            .last()
            .and_then(|l| serde_json::from_str(l).ok())
            .unwrap_or(Value::Null),
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn sign_in() -> Value {
    serde_json::json!({
        "goal": format!("Sign in as {EMAIL}"),
        "inputs": {"email": EMAIL, "password": PASSWORD},
        "secret_inputs": ["password"],
        "verification": [format!("The page says Signed in as {EMAIL}")],
        "max_actions": 8,
    })
}

/// The later run's work: no password among its inputs.
fn upload_and_fetch(receipt: &Path) -> Value {
    let path = receipt.to_str().unwrap();
    serde_json::json!({
        "goal": "Upload the receipt, then download the monthly report",
        "inputs": {"receipt": path},
        "files": [path],
        "verification": ["The receipt has been uploaded", "The monthly report has been downloaded"],
        "max_actions": 8,
    })
}

fn sha256_hex(bytes: &[u8]) -> String {
    let out = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(bytes)?;
            c.wait_with_output()
        })
        .unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

/// The page's own record in a saved storage state: `portal.uploads` of its origin.
fn uploads_recorded(state: &Path) -> Vec<Value> {
    let state: Value = serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    state["origins"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|o| o["localStorage"].as_array().cloned().unwrap_or_default())
        .find(|nv| nv["name"] == "portal.uploads")
        .map(|nv| serde_json::from_str(nv["value"].as_str().unwrap()).unwrap())
        .unwrap_or_default()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn receipt(dir: &Path) -> (std::path::PathBuf, Vec<u8>) {
    let bytes: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 251) as u8).collect();
    let path = dir.join("receipt.pdf");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

fn report() -> Vec<u8> {
    std::fs::read(site_root().join("portal/report.csv")).unwrap()
}

/// Checks the later run: done, with the password never typed, the upload as the page
/// received it, and the report as served.
fn assert_uploaded_and_fetched(later: &Ran, bytes: &[u8], saved_after: &Path) {
    assert_eq!(
        later.result["status"], "SUBTASK_COMPLETE",
        "{}\n{}",
        later.result, later.stderr
    );
    let typed: Vec<&Value> = later.result["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["action"]["input_key"].is_string())
        .collect();
    assert!(
        typed.iter().all(|r| r["action"]["input_key"] == "receipt"),
        "the later run signed in again: {typed:?}"
    );
    // The page's record: the file's name, size and hash as the page read its bytes.
    let uploads = uploads_recorded(saved_after);
    assert_eq!(uploads.len(), 1, "one upload, not two: {uploads:?}");
    assert_eq!(uploads[0]["name"], "receipt.pdf");
    assert_eq!(uploads[0]["size"], bytes.len());
    assert_eq!(uploads[0]["sha256"], sha256_hex(bytes));
    // The download: in the result, and on disk as the server sent it.
    let downloads = later.result["downloads"].as_array().expect("downloads");
    assert_eq!(downloads.len(), 1, "{downloads:?}");
    let d = &downloads[0];
    assert_eq!(d["name"], "monthly-report.csv");
    let on_disk = std::fs::read(d["path"].as_str().unwrap()).unwrap();
    assert_eq!(on_disk, report());
    assert_eq!(d["bytes"], on_disk.len());
    assert_eq!(d["sha256"], sha256_hex(&on_disk));
    // Every "done" carries its evidence: the download names the file.
    let verdict = &later.result["verification"][1];
    assert_eq!(verdict["holds"], true);
    assert!(
        verdict["evidence"]["text"]
            .as_str()
            .unwrap()
            .contains("monthly-report.csv"),
        "{verdict}"
    );
}

#[test]
fn a_session_saved_after_signing_in_uploads_and_downloads_later_without_signing_in() {
    let (_rt, server) = serve();
    let url = server.url("portal/index.html");
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    let first = run(
        &url,
        &sign_in(),
        &["--save-storage-state", state.to_str().unwrap()],
    );
    assert_eq!(
        first.result["status"], "SUBTASK_COMPLETE",
        "{}",
        first.stderr
    );
    assert_eq!(
        mode(&state),
        0o600,
        "the saved session is the owner's alone"
    );
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("portal_session"), "{saved}");
    assert!(
        !saved.contains(PASSWORD),
        "the password itself is never saved"
    );

    let (file, bytes) = receipt(dir.path());
    let downloads = dir.path().join("downloads");
    let after = dir.path().join("after.json");
    let later = run(
        &url,
        &upload_and_fetch(&file),
        &[
            "--storage-state",
            state.to_str().unwrap(),
            "--save-storage-state",
            after.to_str().unwrap(),
            "--downloads",
            downloads.to_str().unwrap(),
        ],
    );
    assert_uploaded_and_fetched(&later, &bytes, &after);
    assert_eq!(mode(&downloads), 0o700);
}

#[test]
fn a_kept_profile_keeps_the_sign_in_and_refuses_a_second_browser() {
    let (_rt, server) = serve();
    let url = server.url("portal/index.html");
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("profile");
    let p = profile.to_str().unwrap().to_owned();
    let first = run(&url, &sign_in(), &["--profile", &p]);
    assert_eq!(
        first.result["status"], "SUBTASK_COMPLETE",
        "{}",
        first.stderr
    );
    assert_eq!(mode(&profile), 0o700, "the profile is the owner's alone");

    let (file, bytes) = receipt(dir.path());
    let after = dir.path().join("after.json");
    let later = run(
        &url,
        &upload_and_fetch(&file),
        &[
            "--profile",
            &p,
            "--save-storage-state",
            after.to_str().unwrap(),
        ],
    );
    assert_uploaded_and_fetched(&later, &bytes, &after);

    // A second browser on the profile while one holds it: refused, naming the profile.
    let mut holder = std::process::Command::new(env!("CARGO_BIN_EXE_arc-cua"))
        .args(["mcp", "--profile", &p])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = profile.join("arc-cua.lock");
    // Only once the holder holds it: a browser started before would take the profile
    // itself and leave the holder refused (seen once in CI).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !held(&lock) {
        assert!(
            holder.try_wait().unwrap().is_none(),
            "the holder exited before holding the profile"
        );
        assert!(
            std::time::Instant::now() < deadline,
            "the holder never held the profile"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let refused = run(&url, &sign_in(), &["--profile", &p]);
    drop(holder.stdin.take());
    let _ = holder.wait();
    assert!(lock.exists());
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("in use by another arc-cua browser") && refused.stderr.contains(&p),
        "{}",
        refused.stderr
    );
}

#[test]
fn a_storage_state_open_to_others_is_refused_before_anything_starts() {
    let (_rt, server) = serve();
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    std::fs::write(&state, r#"{"cookies": [], "origins": []}"#).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o644)).unwrap();
    let ran = run(
        &server.url("portal/index.html"),
        &sign_in(),
        &["--storage-state", state.to_str().unwrap()],
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("chmod 600"), "{}", ran.stderr);
    assert_eq!(ran.result, Value::Null, "no run started");
    // A key Playwright's format does not have is named.
    std::fs::write(&state, r#"{"cookies": [], "origin": []}"#).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o600)).unwrap();
    let ran = run(
        &server.url("portal/index.html"),
        &sign_in(),
        &["--storage-state", state.to_str().unwrap()],
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("unknown field `origin`"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_file_the_subtask_does_not_list_or_over_the_bound_is_never_uploaded() {
    let (_rt, server) = serve();
    let url = server.url("portal/index.html");
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state.json");
    let first = run(
        &url,
        &sign_in(),
        &["--save-storage-state", state.to_str().unwrap()],
    );
    assert_eq!(
        first.result["status"], "SUBTASK_COMPLETE",
        "{}",
        first.stderr
    );
    let (listed, _) = receipt(dir.path());
    let other = dir.path().join("secrets.txt");
    std::fs::write(&other, "not for upload").unwrap();

    // The input names a path the subtask's `files` does not list.
    let mut lured = upload_and_fetch(&listed);
    lured["inputs"]["receipt"] = other.to_str().unwrap().into();
    let after = dir.path().join("after.json");
    let ran = run(
        &url,
        &lured,
        &[
            "--storage-state",
            state.to_str().unwrap(),
            "--save-storage-state",
            after.to_str().unwrap(),
        ],
    );
    assert_ne!(ran.result["status"], "SUBTASK_COMPLETE", "{}", ran.result);
    assert!(
        ran.result["reason"].as_str().unwrap().contains("files"),
        "{}",
        ran.result
    );
    assert!(
        uploads_recorded(&after).is_empty(),
        "the page received a file"
    );

    // A listed file over the bound: refused before the browser starts, naming the limit.
    let big = dir.path().join("big.bin");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(arc_browser::upload::MAX_UPLOAD_BYTES + 1)
        .unwrap();
    let ran = run(&url, &upload_and_fetch(&big), &[]);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("files[0]") && ran.stderr.contains("upload limit"),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.result, Value::Null);
}

/// Whether some process holds the profile's lock (util-linux `flock -n` cannot take it).
fn held(lock: &std::path::Path) -> bool {
    lock.exists()
        && std::process::Command::new("flock")
            .arg("-n")
            .arg(lock)
            .arg("true")
            .status()
            .is_ok_and(|s| !s.success())
}
