//! `arc-cua host --socket [PATH]`: length-prefixed frames on a Unix socket in a private
//! directory.

use super::endpoint::{prepare, restrict_socket, EndpointError};
use super::{serve, Framing};
use crate::host::{lock, Host};
use crate::protocol::{HostError, LimitName, Response};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::UnixListener;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

/// The socket files this process serves on: a signal that ends the process exits without
/// dropping a [`SocketServer`], so its path must be found from the signal's path.
static BOUND: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every socket file this process is serving on, so no client connects to a host
/// on its way out and none is left behind; the CLI's SIGTERM/SIGINT/SIGHUP path calls it
/// before it kills the browsers. Returns how many were removed.
pub fn remove_bound_sockets() -> usize {
    let paths = std::mem::take(&mut *lock(&BOUND));
    paths
        .iter()
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count()
}

/// A bound socket being served. Dropping it stops accepting and removes the file.
pub struct SocketServer {
    path: PathBuf,
    accept: JoinHandle<()>,
}

impl SocketServer {
    /// Binds `path` (see [`prepare`]) and serves connections on it.
    pub fn bind(host: Host, path: &Path) -> Result<SocketServer, EndpointError> {
        prepare(path)?;
        let listener = UnixListener::bind(path).map_err(|source| EndpointError::Io {
            path: path.to_owned(),
            source,
        })?;
        restrict_socket(path)?;
        lock(&BOUND).push(path.to_owned());
        host.set_endpoint(Some(path.display().to_string()));
        // Sockets that have not said hello yet count too: a flood of silent connections
        // waits out its hello deadline without taking more than this many slots.
        let accepted = Arc::new(Semaphore::new(host.limits().connections + 8));
        let accept = tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    // Out of descriptors, say: try again shortly rather than spin.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                };
                let Ok(slot) = Arc::clone(&accepted).try_acquire_owned() else {
                    let refusal = Response::err(
                        None,
                        HostError::limit(
                            LimitName::Connections,
                            "the host has too many connections; retry later",
                        ),
                    )
                    .to_bytes();
                    tokio::spawn(async move {
                        let _ = super::write_frame(&mut stream, Framing::LengthPrefixed, &refusal)
                            .await;
                        let _ = stream.shutdown().await;
                    });
                    continue;
                };
                let host = host.clone();
                tokio::spawn(async move {
                    let (r, w) = stream.into_split();
                    serve(host, BufReader::new(r), w, Framing::LengthPrefixed).await;
                    drop(slot);
                });
            }
        });
        Ok(SocketServer {
            path: path.to_owned(),
            accept,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Serves until the task is aborted (the process ends).
    pub async fn wait(mut self) {
        let _ = (&mut self.accept).await;
    }
}

impl Drop for SocketServer {
    fn drop(&mut self) {
        self.accept.abort();
        let mut bound = lock(&BOUND);
        // Not there when a signal removed it already.
        if let Some(i) = bound.iter().position(|p| *p == self.path) {
            bound.swap_remove(i);
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
