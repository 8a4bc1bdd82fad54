//! Files into a page through the host: only from a directory the session's `allow_files`
//! grants, and a session may ask only for directories the host's operator allowed
//! (`Host::set_upload_dirs`, `--allow-files`). The page records what its file input
//! received (`window.__received`: name, size, SHA-256), read over the test's own CDP
//! session; every refusal leaves that record as it was.

use crate::common::Rig;
use serde_json::{json, Value};
use std::path::Path;

async fn received(rig: &Rig, target: &str) -> Vec<Value> {
    // The page hashes asynchronously after `change`: give it a moment to record.
    for _ in 0..50 {
        let v = rig
            .eval(target, "JSON.stringify(window.__received || [])")
            .await;
        let got: Vec<Value> = serde_json::from_str(v.as_str().unwrap_or("[]")).unwrap();
        if !got.is_empty() {
            return got;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Vec::new()
}

fn set_files(target: &str, path: &Path) -> Value {
    json!({"kind": "SET_VALUE", "target_id": target, "text": path.to_str().unwrap()})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_input_takes_files_only_from_a_granted_directory() {
    let rig = Rig::start().await;
    let root = tempfile::tempdir().unwrap();
    let granted = root.path().join("granted");
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir_all(&granted).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let doc = granted.join("brief.txt");
    std::fs::write(&doc, "the brief, 27 bytes long...").unwrap();
    let secret = elsewhere.join("secret.txt");
    std::fs::write(&secret, "never leaves").unwrap();
    // A link inside the granted directory to a file outside it.
    let link = granted.join("link.txt");
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    rig.host
        .set_upload_dirs(&[root.path().to_path_buf()])
        .unwrap();

    let mut c = rig.duplex_client();
    c.hello().await;
    // A session may not ask beyond what the operator allowed.
    let beyond = c
        .call(
            "open_session",
            json!({"grants": {"allow_launch": true, "allow_input": true, "allow_files": ["/"]},
                   "target": {"url": rig.url("upload.html")}}),
        )
        .await;
    assert_eq!(beyond["error"]["code"], "file_not_granted", "{beyond}");

    let s = c
        .open(
            &rig.url("upload.html"),
            json!({"allow_input": true, "allow_files": [granted]}),
        )
        .await;
    let (input, _) = c.find_role(&s, "button", "Document").await;

    for path in [&secret, &link] {
        let r = c.act_fresh(&s, set_files(&input, path)).await;
        assert_eq!(
            r["error"]["code"],
            "file_not_granted",
            "{}: {r}",
            path.display()
        );
    }
    // Typing a path, even a granted one, is no way in: a file input offers no TYPE_TEXT.
    let typed = c
        .act_fresh(
            &s,
            json!({"kind": "TYPE_TEXT", "target_id": input, "text": doc.to_str().unwrap()}),
        )
        .await;
    assert_eq!(typed["error"]["code"], "invalid_action", "{typed}");
    assert!(received(&rig, &s.target_id).await.is_empty());

    let r = c.act_fresh(&s, set_files(&input, &doc)).await;
    assert_eq!(r["ok"], true, "{r}");
    let got = received(&rig, &s.target_id).await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["name"], "brief.txt");
    assert_eq!(got[0]["size"], 27);
    // `sha256sum` of the file's 27 bytes.
    assert_eq!(
        got[0]["sha256"],
        "48daba28bb6b4cd46e3fc2253d13e0c5a2ad2394bdfd93f9ae8ced55534eb8db"
    );
}
