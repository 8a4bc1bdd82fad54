//! Files a page downloads: saved into its session's own directory and reported as
//! [`arc_core::Download`] (name, path, bytes, SHA-256) in every snapshot after.
//!
//! Chromium's download directory is one per browser context, and a host's sessions share
//! the default context. So every download is staged under its guid in one directory per
//! browser (`Browser.setDownloadBehavior` `allowAndName`) — inside the temporary profile
//! of a browser we launched, so it goes with it whatever ends the runtime; for a browser
//! we attached to, one of this process's — and the session whose
//! page (one of its frames) began it claims it by the event's frame: when it completes,
//! the file moves into that session's directory under the page's suggested name, made
//! safe (no path, no leading dot, a number added rather than a file replaced). A
//! download over [`MAX_DOWNLOAD_BYTES`] is cancelled. A claimed download in progress
//! keeps the page busy for settling, so a click that downloads settles on the saved file.

use std::collections::{HashMap, HashSet};
use std::io;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use arc_core::Download;

use crate::cdp::events::{DownloadProgress, DownloadWillBegin, FrameNavigated};
use crate::cdp::methods::browser::{CancelDownload, SetDownloadBehavior};
use crate::cdp::{Event, FrameId, TargetId};
use crate::{Browser, BrowserError};

/// The largest file a download may be; a larger one is cancelled.
pub const MAX_DOWNLOAD_BYTES: u64 = 512 * 1024 * 1024;

/// The longest saved file name, in bytes (ext4's limit is 255).
const MAX_NAME_BYTES: usize = 200;

/// This process's staging directory for attached browsers (0700), removed when the last
/// session holding it is dropped.
struct Staging(tempfile::TempDir);

/// Where one browser stages its downloads.
enum StagedIn {
    /// Inside the temporary profile of the browser we launched.
    Launch(PathBuf),
    /// This process's own directory (an attached browser).
    Process(Arc<Staging>),
}

impl StagedIn {
    fn path(&self) -> &Path {
        match self {
            StagedIn::Launch(p) => p,
            StagedIn::Process(s) => s.0.path(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn staging() -> io::Result<Arc<Staging>> {
    static CURRENT: OnceLock<Mutex<Weak<Staging>>> = OnceLock::new();
    let mut current = lock(CURRENT.get_or_init(Mutex::default));
    if let Some(s) = current.upgrade() {
        return Ok(s);
    }
    let dir = tempfile::Builder::new()
        .prefix("arc-cua-staging-")
        .tempdir()?;
    let s = Arc::new(Staging(dir));
    *current = Arc::downgrade(&s);
    Ok(s)
}

/// One session's downloads. Cheap to clone; the clones share the state.
#[derive(Clone)]
pub(crate) struct Downloads {
    inner: Arc<Inner>,
}

struct Inner {
    staging: StagedIn,
    /// Where finished files go: the one asked for, else a directory made at the first
    /// download (`arc-cua-downloads-*` in the temp directory, kept).
    asked: Option<PathBuf>,
    /// The largest file kept; a larger download is cancelled.
    limit: u64,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    dir: Option<PathBuf>,
    /// The frames of the session's pages, so a download a frame began is claimed.
    frames: HashSet<FrameId>,
    /// Claimed downloads in progress or being saved: guid → suggested name.
    claimed: HashMap<String, String>,
    saved: Vec<Download>,
}

impl Downloads {
    /// Downloads saved into `dir` (created 0700 when missing), or into a fresh
    /// temporary directory when `None`; none larger than `limit` (default
    /// [`MAX_DOWNLOAD_BYTES`]).
    pub(crate) fn new(
        browser: &Browser,
        dir: Option<PathBuf>,
        limit: Option<u64>,
    ) -> Result<Downloads, BrowserError> {
        let staging = match browser.connection().download_staging() {
            Some(p) => StagedIn::Launch(p.to_path_buf()),
            None => StagedIn::Process(staging().map_err(|e| {
                BrowserError::io("cannot create the downloads' staging directory", e)
            })?),
        };
        Ok(Downloads {
            inner: Arc::new(Inner {
                staging,
                asked: dir,
                limit: limit.unwrap_or(MAX_DOWNLOAD_BYTES),
                state: Mutex::default(),
            }),
        })
    }

    /// Has `browser` stage every download here and report it.
    pub(crate) async fn enable(&self, browser: &Browser) -> Result<(), BrowserError> {
        let path = self.inner.staging.path().to_string_lossy().into_owned();
        browser
            .call(SetDownloadBehavior {
                behavior: "allowAndName",
                download_path: Some(path),
                events_enabled: true,
            })
            .await?;
        Ok(())
    }

    /// The files saved so far, oldest first.
    pub(crate) fn saved(&self) -> Vec<Download> {
        lock(&self.inner.state).saved.clone()
    }

    /// Whether a download of the session is still coming in or being saved.
    pub(crate) fn busy(&self) -> bool {
        !lock(&self.inner.state).claimed.is_empty()
    }

    /// Folds one event of the page's session or of the browser's.
    pub(crate) fn fold(&self, event: &Event, our_target: &TargetId, browser: &Browser) {
        if let Some(Ok(n)) = event.parse::<FrameNavigated>() {
            lock(&self.inner.state).frames.insert(n.frame.id);
        } else if let Some(Ok(d)) = event.parse::<DownloadWillBegin>() {
            let mut s = lock(&self.inner.state);
            if d.frame_id.0 == our_target.0 || s.frames.contains(&d.frame_id) {
                s.claimed.insert(d.guid, d.suggested_filename);
            }
        } else if let Some(Ok(p)) = event.parse::<DownloadProgress>() {
            let name = {
                let s = lock(&self.inner.state);
                match s.claimed.get(&p.guid) {
                    Some(name) => name.clone(),
                    None => return,
                }
            };
            match p.state.as_str() {
                "inProgress" | "completed" if p.received_bytes > self.inner.limit as f64 => {
                    tracing::warn!(
                        name,
                        limit = self.inner.limit,
                        "a download went over the size limit and was cancelled"
                    );
                    lock(&self.inner.state).claimed.remove(&p.guid);
                    let browser = browser.clone();
                    let staged = self.inner.staging.path().join(&p.guid);
                    let guid = p.guid;
                    tokio::spawn(async move {
                        let _ = browser.call(CancelDownload { guid }).await;
                        // A download that finished before the cancel leaves its file.
                        let _ = std::fs::remove_file(staged);
                    });
                }
                "completed" => {
                    let this = self.clone();
                    tokio::task::spawn_blocking(move || this.save(&p.guid, &name));
                }
                "canceled" => {
                    lock(&self.inner.state).claimed.remove(&p.guid);
                }
                _ => {}
            }
        }
    }

    /// Moves a completed download into the session's directory and hashes it.
    fn save(&self, guid: &str, suggested: &str) {
        let staged = self.inner.staging.path().join(guid);
        let saved = self.dir().and_then(|dir| {
            let path = free_path(&dir, &safe_name(suggested));
            move_file(&staged, &path)?;
            let (bytes, sha256) = hash(&path)?;
            Ok(Download {
                name: path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                path: path.to_string_lossy().into_owned(),
                bytes,
                sha256,
            })
        });
        let mut s = lock(&self.inner.state);
        s.claimed.remove(guid);
        match saved {
            Ok(d) => s.saved.push(d),
            Err(e) => {
                let _ = std::fs::remove_file(&staged);
                tracing::warn!(error = %e, "a finished download could not be saved");
            }
        }
    }

    fn dir(&self) -> io::Result<PathBuf> {
        let mut s = lock(&self.inner.state);
        if let Some(dir) = &s.dir {
            return Ok(dir.clone());
        }
        let dir = match &self.inner.asked {
            Some(dir) => {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)?;
                // Reported paths are absolute, whatever directory the caller ran in.
                std::fs::canonicalize(dir)?
            }
            None => tempfile::Builder::new()
                .prefix("arc-cua-downloads-")
                .tempdir()?
                .keep(),
        };
        s.dir = Some(dir.clone());
        Ok(dir)
    }
}

/// The page's suggested name as one safe file name: its last path segment, control
/// characters out, no leading dot, at most [`MAX_NAME_BYTES`]; `download` if nothing is
/// left.
fn safe_name(suggested: &str) -> String {
    let last = suggested.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last.chars().filter(|c| !c.is_control()).collect();
    let mut name = cleaned.trim().trim_start_matches('.').to_owned();
    while name.len() > MAX_NAME_BYTES {
        name.pop();
    }
    if name.is_empty() {
        "download".into()
    } else {
        name
    }
}

/// `dir/name`, or `dir/stem (n).ext` for the first `n` not taken.
fn free_path(dir: &Path, name: &str) -> PathBuf {
    let first = dir.join(name);
    if !first.exists() {
        return first;
    }
    let (stem, ext) = match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    (1..)
        .map(|n| dir.join(format!("{stem} ({n}){ext}")))
        .find(|p| !p.exists())
        .expect("some number is free")
}

/// Renames, or copies and removes across file systems.
fn move_file(from: &Path, to: &Path) -> io::Result<()> {
    match std::fs::rename(from, to) {
        Ok(()) => Ok(()),
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            std::fs::copy(from, to)?;
            std::fs::remove_file(from)
        }
        Err(e) => Err(e),
    }
}

/// Size and SHA-256 (lower-case hex) of a file.
fn hash(path: &Path) -> io::Result<(u64, String)> {
    use sha2::Digest;
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        hasher.update(&buf[..n]);
    }
    let sha256 = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((bytes, sha256))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suggested_name_is_one_safe_file_name() {
        assert_eq!(safe_name("report.csv"), "report.csv");
        assert_eq!(safe_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_name("a\\b\\c.txt"), "c.txt");
        assert_eq!(safe_name(".bashrc"), "bashrc");
        assert_eq!(safe_name("bad\u{7}\nname.txt"), "badname.txt");
        assert_eq!(safe_name(""), "download");
        assert_eq!(safe_name(".."), "download");
        assert!(safe_name(&"x".repeat(400)).len() <= MAX_NAME_BYTES);
    }

    #[test]
    fn a_taken_name_gets_a_number_and_nothing_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("r.csv"), "1").unwrap();
        assert_eq!(free_path(dir.path(), "r.csv"), dir.path().join("r (1).csv"));
        std::fs::write(dir.path().join("r (1).csv"), "2").unwrap();
        assert_eq!(free_path(dir.path(), "r.csv"), dir.path().join("r (2).csv"));
        assert_eq!(free_path(dir.path(), "new"), dir.path().join("new"));
    }
}
