//! A client that pipelines requests and never reads its replies: the host queues at most
//! `reply_queue_bytes` of replies for it and stops reading its requests (its writes
//! block), on JSON lines (the stdio transport's loop, over an in-memory pipe) and on the
//! Unix socket; once the client reads, every request is answered, once. Before the bound,
//! 976 `observe` with elements took the host from 34 MB to 1,574 MB in 12 s.

use crate::common::{Client, Rig};
use arc_host::transport::socket::SocketServer;
use arc_host::transport::{read_frame, serve, write_frame, Framing};
use arc_host::Limits;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncWrite, BufReader};

/// Requests the client pipelines: many more bytes than any pipe or socket buffer holds.
const REQUESTS: usize = 1_000;
const QUEUE: usize = 128 * 1024;

fn limits() -> Limits {
    Limits {
        reply_queue_bytes: QUEUE,
        ..Limits::default()
    }
}

/// This process's resident memory (the host runs in it; Chromium does not), in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

async fn pipeline_without_reading<R, W>(rig: &Rig, mut c: Client<R, W>, framing: Framing)
where
    R: AsyncBufRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    c.hello().await;
    let s = c.open(&rig.url("control-gallery.html"), json!({})).await;
    let observe = json!({"session": s.auth, "options": {"include_elements": true}});
    let one = c.ok("observe", observe.clone()).await;
    assert!(
        one["elements"].as_array().is_some_and(|e| e.len() > 10),
        "{one}"
    );
    let (mut reader, mut writer) = c.into_parts();
    let before = rss();

    let sent = Arc::new(AtomicUsize::new(0));
    let writing = tokio::spawn({
        let sent = Arc::clone(&sent);
        async move {
            for i in 0..REQUESTS {
                let req =
                    json!({"request_id": format!("p{i}"), "method": "observe", "params": observe});
                write_frame(&mut writer, framing, req.to_string().as_bytes())
                    .await
                    .expect("write a request");
                sent.fetch_add(1, Ordering::SeqCst);
            }
            writer
        }
    });
    // The client's writes stop going through: the host no longer reads it.
    let mut last = usize::MAX;
    let mut still = 0;
    while still < 20 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = sent.load(Ordering::SeqCst);
        assert!(
            now < REQUESTS,
            "the host read all {REQUESTS} requests of a client that reads nothing"
        );
        still = if now == last { still + 1 } else { 0 };
        last = now;
    }
    let grown = rss().saturating_sub(before);
    assert!(
        grown < 100 << 20,
        "the host grew by {} MB for a client that does not read",
        grown >> 20
    );

    // Now it reads: every request answered exactly once. (Requests are served
    // concurrently and answered by request_id; the queue itself is FIFO, `outbox`'s test.)
    let mut answered = BTreeSet::new();
    let mut observations = Vec::new();
    let mut largest = 0;
    while answered.len() < REQUESTS {
        let frame = tokio::time::timeout(
            Duration::from_secs(60),
            read_frame(&mut reader, framing, 64 << 20),
        )
        .await
        .expect("a reply within 60 s")
        .expect("read a reply")
        .expect("the connection stays open");
        largest = largest.max(frame.len());
        let r: Value = serde_json::from_slice(&frame).unwrap();
        let id = r["request_id"].as_str().expect("every reply echoes its id");
        assert!(answered.insert(id.to_owned()), "{id} answered twice");
        if r["ok"] == true {
            let o = r["result"]["observation_id"].as_str().unwrap();
            let n: u64 = o.rsplit_once("/o").unwrap().1.parse().unwrap();
            observations.push(n);
        } else {
            // Over the in-flight bound: refused, documented, never lost.
            assert_eq!(r["error"]["limit"], "requests_in_flight", "{r}");
        }
    }
    let _writer = writing.await.unwrap();
    assert!(!observations.is_empty());
    let taken = observations.len();
    observations.sort_unstable();
    observations.dedup();
    assert_eq!(
        observations.len(),
        taken,
        "each observe took an observation of its own"
    );
    let peak = rig.host.reply_queue_peak_bytes();
    eprintln!(
        "{framing:?}: {last} of {REQUESTS} requests went through while nothing was read; \
         grew {} KB; peak queue {peak} B (bound {QUEUE}, largest reply {largest} B); {taken} observed",
        grown >> 10
    );
    assert!(
        peak <= QUEUE.max(largest),
        "{peak} bytes were queued for one connection (bound {QUEUE}, largest reply {largest})"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_holds_a_bounded_queue_on_json_lines() {
    let rig = Rig::with_limits(limits()).await;
    // A 16 KiB pipe, as stdio's would be.
    let (client, server) = tokio::io::duplex(16 * 1024);
    let (sr, sw) = tokio::io::split(server);
    tokio::spawn(serve(
        rig.host.clone(),
        BufReader::new(sr),
        sw,
        Framing::Lines,
    ));
    let (cr, cw) = tokio::io::split(client);
    let c = Client::new(BufReader::new(cr), cw, Framing::Lines);
    pipeline_without_reading(&rig, c, Framing::Lines).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_holds_a_bounded_queue_on_the_socket() {
    let rig = Rig::with_limits(limits()).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let path = dir.path().join("host.sock");
    let _server = SocketServer::bind(rig.host.clone(), &path).expect("bind");
    let c = crate::socket::connect(&path).await;
    pipeline_without_reading(&rig, c, Framing::LengthPrefixed).await;
}
