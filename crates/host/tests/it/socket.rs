//! The protocol over a real Unix socket: a private directory, a 0600 socket file,
//! length-prefixed frames, malformed and oversized frames refused with the connection
//! closed, and a disconnect stopping that connection's sessions (its tab closed).

use crate::common::{Client, Rig};
use arc_host::transport::endpoint::{default_socket_path, prepare, EndpointError};
use arc_host::transport::socket::SocketServer;
use arc_host::transport::Framing;
use serde_json::json;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::UnixStream;

pub type SocketClient =
    Client<BufReader<tokio::net::unix::OwnedReadHalf>, tokio::net::unix::OwnedWriteHalf>;

pub async fn connect(path: &Path) -> SocketClient {
    let stream = UnixStream::connect(path)
        .await
        .expect("connect to the host");
    let (r, w) = stream.into_split();
    Client::new(BufReader::new(r), w, Framing::LengthPrefixed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_on_a_private_socket_and_bad_frames_close_the_connection() {
    let rig = Rig::start().await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let path = dir.path().join("host.sock");
    let server = SocketServer::bind(rig.host.clone(), &path).expect("bind");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the socket file is the owner's only");

    let mut c = connect(&path).await;
    assert_eq!(c.code("ping", json!({})).await, "hello_required");
    c.hello().await;
    assert_eq!(c.ok("ping", json!({})).await["pong"], true);
    let manifest = c.ok("manifest", json!({})).await;
    assert_eq!(manifest["endpoint"], path.display().to_string());
    // Not JSON: refused, the connection stays.
    c.send_raw(b"{nope").await;
    assert_eq!(c.recv().await.unwrap()["error"]["code"], "invalid_json");
    assert_eq!(c.ok("ping", json!({})).await["pong"], true);

    // Over the frame limit: refused by its header alone, then closed.
    let limit = rig.host.limits().frame_bytes as u32;
    c.writer()
        .write_all(&(limit + 1).to_be_bytes())
        .await
        .unwrap();
    let r = c.recv().await.expect("the refusal");
    assert_eq!(
        (r["error"]["code"].as_str(), r["error"]["limit"].as_str()),
        (Some("limit_exceeded"), Some("frame_bytes"))
    );
    assert!(c.recv().await.is_none(), "then the connection is closed");

    // A zero-length frame: malformed, closed.
    let mut c = connect(&path).await;
    c.hello().await;
    c.writer().write_all(&0u32.to_be_bytes()).await.unwrap();
    assert_eq!(c.recv().await.unwrap()["error"]["code"], "invalid_request");
    assert!(c.recv().await.is_none());

    // A disconnect stops the connection's sessions: the tab it opened goes.
    let mut c = connect(&path).await;
    c.hello().await;
    let s = c.open(&rig.url("events.html"), json!({})).await;
    let open = |pages: &[arc_browser::cdp::methods::target::TargetInfo]| {
        pages.iter().any(|p| p.target_id.0 == s.target_id)
    };
    assert!(open(&rig.browser.pages().await.unwrap()));
    drop(c);
    let mut closed = false;
    for _ in 0..50 {
        if !open(&rig.browser.pages().await.unwrap()) {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        closed,
        "the session's tab was closed when its connection went"
    );

    // Another host cannot take a live socket.
    match SocketServer::bind(rig.host.clone(), &path) {
        Err(EndpointError::Refused { reason, .. }) => {
            assert!(reason.contains("already serving"), "{reason}")
        }
        other => panic!("a live socket is refused: {:?}", other.err()),
    }
    drop(server);
    assert!(!path.exists(), "the socket file is removed with the server");
}

#[test]
fn only_private_directories_hold_the_socket() {
    let dir = tempfile::tempdir().unwrap();
    let open_dir = dir.path().join("open");
    std::fs::create_dir(&open_dir).unwrap();
    std::fs::set_permissions(&open_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let refused = |r: Result<(), EndpointError>| matches!(r, Err(EndpointError::Refused { .. }));
    assert!(
        refused(prepare(&open_dir.join("s.sock"))),
        "a 0755 parent is refused"
    );
    assert!(
        refused(prepare(Path::new("relative/s.sock"))),
        "a relative path is refused"
    );
    // A missing parent is created 0700.
    let fresh = dir.path().join("fresh");
    prepare(&fresh.join("s.sock")).unwrap();
    let meta = std::fs::metadata(&fresh).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    // Something that is not a socket at the path is left alone and refused.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let file = dir.path().join("file.sock");
    std::fs::write(&file, "keep me").unwrap();
    assert!(refused(prepare(&file)));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    // A symlinked parent is refused even when its target is private.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&fresh, &link).unwrap();
    assert!(refused(prepare(&link.join("s.sock"))));

    // The default: $XDG_RUNTIME_DIR only when it is ours and 0700; otherwise a private
    // directory under $TMPDIR.
    std::env::set_var("XDG_RUNTIME_DIR", &open_dir);
    std::env::set_var("TMPDIR", dir.path());
    let path = default_socket_path().unwrap();
    assert!(path.starts_with(dir.path()), "{}", path.display());
    assert!(path
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .starts_with("arc-cua-"));
    std::env::set_var("XDG_RUNTIME_DIR", &fresh);
    assert_eq!(
        default_socket_path().unwrap(),
        fresh.join("arc-cua-host-v1.sock")
    );
    assert_eq!(meta.uid(), unsafe { libc::getuid() });
}
