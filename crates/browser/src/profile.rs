//! A Chromium profile kept across runs (`--profile DIR`): the sign-ins, cookies and
//! storage a site left, there again next time.
//!
//! The directory holds credentials, so it is created `0700` and refused when others can
//! reach it. Two browsers on one profile corrupt it (Chromium's own singleton lock hands
//! the second launch to the first, which then exits unseen): a launch holds an exclusive
//! `flock` on `arc-cua.lock` inside it for the browser's whole life, and a second launch
//! is refused at once, naming the directory.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::BrowserError;

/// The lock file inside a kept profile.
const LOCK_FILE: &str = "arc-cua.lock";

/// A kept profile, claimed: released (the lock dropped) with it.
#[derive(Debug)]
pub(crate) struct ClaimedProfile {
    path: PathBuf,
    _lock: File,
}

impl ClaimedProfile {
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

fn refused(path: &Path, reason: impl Into<String>) -> BrowserError {
    BrowserError::SessionFile {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// Creates `dir` (0700) if it is missing, checks an existing one is a directory of this
/// user's that no one else can reach, and locks it against a second launch.
pub(crate) fn claim(dir: &Path) -> Result<ClaimedProfile, BrowserError> {
    if !dir.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| refused(dir, format!("cannot create the profile: {e}")))?;
    }
    let meta = std::fs::metadata(dir)
        .map_err(|e| refused(dir, format!("cannot read the profile: {e}")))?;
    if !meta.is_dir() {
        return Err(refused(dir, "the profile is not a directory"));
    }
    // SAFETY: geteuid(2) has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    if meta.uid() != euid {
        return Err(refused(
            dir,
            format!(
                "the profile belongs to uid {}, not to this user",
                meta.uid()
            ),
        ));
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(refused(
            dir,
            format!(
                "the profile holds sign-ins but its mode is {mode:o}, open to others; make \
                 it the owner's alone (chmod 700)"
            ),
        ));
    }
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(dir.join(LOCK_FILE))
        .map_err(|e| refused(dir, format!("cannot open the profile's lock: {e}")))?;
    // SAFETY: flock(2) on a descriptor we own; no memory is involved.
    let rc = unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc != 0 {
        let err = std::io::Error::last_os_error();
        return Err(refused(
            dir,
            if err.raw_os_error() == Some(libc::EWOULDBLOCK) {
                "the profile is in use by another arc-cua browser; give each run its own".into()
            } else {
                format!("cannot lock the profile: {err}")
            },
        ));
    }
    let path = std::fs::canonicalize(dir)
        .map_err(|e| refused(dir, format!("cannot resolve the profile: {e}")))?;
    Ok(ClaimedProfile { path, _lock: lock })
}
