//! Where the socket lives: only in a directory that is the user's own and closed to
//! everyone else (0700), so no other local user can reach the host.

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const SOCKET_NAME: &str = "arc-cua-host-v1.sock";

#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    #[error("{path}: {reason}")]
    Refused { path: PathBuf, reason: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn uid() -> u32 {
    // SAFETY: getuid(2) cannot fail and touches no memory.
    unsafe { libc::getuid() }
}

/// `$XDG_RUNTIME_DIR/arc-cua-host-v1.sock` when that directory is absolute, ours and 0700;
/// otherwise `$TMPDIR/arc-cua-<uid>/arc-cua-host-v1.sock` (or under /tmp), that directory
/// created 0700 when missing and refused when it is not ours and 0700.
pub fn default_socket_path() -> Result<PathBuf, EndpointError> {
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        if dir.is_absolute() && check_private_dir(&dir).is_ok() {
            return Ok(dir.join(SOCKET_NAME));
        }
    }
    let base = std::env::var_os("TMPDIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    Ok(base.join(format!("arc-cua-{}", uid())).join(SOCKET_NAME))
}

/// Makes `path` ready to bind: absolute, its parent a private directory (created 0700
/// when missing), and no live socket there (a stale one is removed; anything else at
/// the path is refused).
pub fn prepare(path: &Path) -> Result<(), EndpointError> {
    if !path.is_absolute() {
        return Err(refused(path, "the socket path must be absolute"));
    }
    let parent = path
        .parent()
        .ok_or_else(|| refused(path, "the socket path has no parent directory"))?;
    match std::fs::symlink_metadata(parent) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(parent)
                .map_err(|source| EndpointError::Io {
                    path: parent.to_owned(),
                    source,
                })?;
        }
        Err(source) => {
            return Err(EndpointError::Io {
                path: parent.to_owned(),
                source,
            })
        }
        Ok(_) => {}
    }
    check_private_dir(parent)?;
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(EndpointError::Io {
            path: path.to_owned(),
            source,
        }),
        Ok(meta) => {
            use std::os::unix::fs::FileTypeExt;
            if !meta.file_type().is_socket() || meta.uid() != uid() {
                return Err(refused(
                    path,
                    "something that is not our socket is there; remove it or pick another path",
                ));
            }
            if std::os::unix::net::UnixStream::connect(path).is_ok() {
                return Err(refused(path, "a host is already serving on this socket"));
            }
            std::fs::remove_file(path).map_err(|source| EndpointError::Io {
                path: path.to_owned(),
                source,
            })
        }
    }
}

/// A directory (not a symlink) owned by us with mode 0700.
fn check_private_dir(dir: &Path) -> Result<(), EndpointError> {
    let meta = std::fs::symlink_metadata(dir).map_err(|source| EndpointError::Io {
        path: dir.to_owned(),
        source,
    })?;
    if !meta.file_type().is_dir() {
        return Err(refused(dir, "not a directory (symlinks are refused)"));
    }
    if meta.uid() != uid() {
        return Err(refused(dir, "the directory belongs to another user"));
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode != 0o700 {
        return Err(refused(
            dir,
            &format!("the directory's mode is {mode:o}, not 700"),
        ));
    }
    Ok(())
}

/// Restricts the bound socket file to its owner.
pub fn restrict_socket(path: &Path) -> Result<(), EndpointError> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(|source| {
        EndpointError::Io {
            path: path.to_owned(),
            source,
        }
    })
}

fn refused(path: &Path, reason: &str) -> EndpointError {
    EndpointError::Refused {
        path: path.to_owned(),
        reason: reason.to_owned(),
    }
}
