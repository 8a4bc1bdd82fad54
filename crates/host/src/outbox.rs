//! A connection's outgoing messages, bounded in bytes (`Limits::reply_queue_bytes`).
//!
//! A client that pipelines requests and never reads its replies once grew the host from
//! 34 MB to 1.5 GB in 12 s: replies piled up in an unbounded queue behind a blocked
//! write. Now a reply waits for room before it is queued, the transport reads no further
//! request while the queue is full (so the kernel's buffer fills and the client's writes
//! block: backpressure), and what a connection holds is the queue plus the replies of its
//! `requests_in_flight`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

/// One message and the room it holds in the queue until it is written.
struct Queued {
    bytes: Vec<u8>,
    _room: Option<OwnedSemaphorePermit>,
}

struct Shared {
    max: usize,
    /// Free bytes of the queue. Fair (FIFO), so replies queue in the order they asked.
    room: Arc<Semaphore>,
    queued: AtomicUsize,
    /// The host's high-water mark of bytes queued on any one connection.
    peak: Arc<AtomicUsize>,
}

/// Where a connection's outgoing messages go, each one JSON text. Cloned per request.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::UnboundedSender<Queued>,
    shared: Arc<Shared>,
}

/// The writer's end: messages in the order they were queued.
pub struct Drain {
    rx: mpsc::UnboundedReceiver<Queued>,
    shared: Arc<Shared>,
}

/// A queue of at most `max` bytes (a single larger message waits for the whole queue and
/// goes alone); `peak` records the most it ever held.
pub fn outbox(max: usize, peak: Arc<AtomicUsize>) -> (Outbox, Drain) {
    let (tx, rx) = mpsc::unbounded_channel();
    let max = max.clamp(1, Semaphore::MAX_PERMITS.min(u32::MAX as usize));
    let shared = Arc::new(Shared {
        max,
        room: Arc::new(Semaphore::new(max)),
        queued: AtomicUsize::new(0),
        peak,
    });
    (
        Outbox {
            tx,
            shared: Arc::clone(&shared),
        },
        Drain { rx, shared },
    )
}

impl Outbox {
    /// Queues `bytes` once there is room for them; dropped when the peer is gone.
    pub async fn send(&self, bytes: Vec<u8>) {
        let want = bytes.len().clamp(1, self.shared.max) as u32;
        let Ok(room) = Arc::clone(&self.shared.room).acquire_many_owned(want).await else {
            return;
        };
        self.queue(bytes, Some(room));
    }

    /// Queues `bytes` without waiting: a run's events, bounded by its steps, from a
    /// callback that cannot wait (they count in the peak, not against the bound).
    pub fn push(&self, bytes: Vec<u8>) {
        self.queue(bytes, None);
    }

    fn queue(&self, bytes: Vec<u8>, room: Option<OwnedSemaphorePermit>) {
        let n = bytes.len();
        let now = self.shared.queued.fetch_add(n, Ordering::AcqRel) + n;
        self.shared.peak.fetch_max(now, Ordering::AcqRel);
        if self.tx.send(Queued { bytes, _room: room }).is_err() {
            self.shared.queued.fetch_sub(n, Ordering::AcqRel);
        }
    }

    /// Returns once the replies queued before this call have room and one byte is left
    /// (or the writer is gone): the transport reads the next request only then.
    pub async fn room(&self) {
        let _ = self.shared.room.acquire().await;
    }
}

impl Drain {
    /// The next message; its room is freed when `written` is called with it.
    pub async fn recv(&mut self) -> Option<Written> {
        let q = self.rx.recv().await?;
        Some(Written {
            queued: q,
            shared: Arc::clone(&self.shared),
        })
    }
}

/// A message taken from the queue; dropping it (once written) frees its room.
pub struct Written {
    queued: Queued,
    shared: Arc<Shared>,
}

impl Written {
    pub fn bytes(&self) -> &[u8] {
        &self.queued.bytes
    }
}

impl Drop for Written {
    fn drop(&mut self) {
        self.shared
            .queued
            .fetch_sub(self.queued.bytes.len(), Ordering::AcqRel);
    }
}

impl Drop for Drain {
    fn drop(&mut self) {
        // Nobody writes any more: no sender or reader waits for room.
        self.shared.room.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_full_queue_holds_senders_in_order_until_the_writer_drains_it() {
        let peak = Arc::new(AtomicUsize::new(0));
        let (out, mut drain) = outbox(10, Arc::clone(&peak));
        out.send(vec![b'a'; 6]).await;
        out.send(vec![b'b'; 4]).await;
        let waiting = tokio::spawn({
            let out = out.clone();
            async move { out.send(vec![b'c'; 3]).await }
        });
        let full = tokio::time::timeout(Duration::from_millis(50), out.room()).await;
        assert!(full.is_err(), "no room while 10 of 10 bytes are queued");
        assert!(!waiting.is_finished());
        drop(drain.recv().await.unwrap());
        waiting.await.unwrap();
        assert_eq!(drain.recv().await.unwrap().bytes(), [b'b'; 4]);
        assert_eq!(drain.recv().await.unwrap().bytes(), [b'c'; 3]);
        assert_eq!(peak.load(Ordering::Acquire), 10);
        // One message larger than the bound goes through an empty queue.
        out.send(vec![b'd'; 25]).await;
        assert_eq!(drain.recv().await.unwrap().bytes().len(), 25);
        drop(drain);
        tokio::time::timeout(Duration::from_millis(50), out.send(vec![0; 50]))
            .await
            .expect("a closed queue never blocks a sender");
        tokio::time::timeout(Duration::from_millis(50), out.room())
            .await
            .expect("nor the reader");
    }
}
