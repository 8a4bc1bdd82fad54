//! Getting the MiniWoB++ pages: the `miniwob` package from PyPI, unpacked into a cache
//! directory outside git (never vendored). One implementation: `scripts/fetch-miniwob.sh`,
//! embedded here so an installed `arc-cua` fetches on first use without the repository.

use super::error::MiniwobError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Overrides the cache directory (as in the script).
pub const DIR_ENV: &str = "ARC_CUA_MINIWOB_DIR";
/// The package version the harness is written against (the script pins it too).
pub const MINIWOB_VERSION: &str = "1.1.0";

const SCRIPT: &str = include_str!("../../../../scripts/fetch-miniwob.sh");

/// The cache directory: `$ARC_CUA_MINIWOB_DIR`, else `$XDG_CACHE_HOME/arc-cua/miniwob`,
/// else `~/.cache/arc-cua/miniwob`.
pub fn cache_dir() -> PathBuf {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env(DIR_ENV) {
        return dir;
    }
    let cache = env("XDG_CACHE_HOME")
        .or_else(|| env("HOME").map(|h| h.join(".cache")))
        .unwrap_or_else(|| std::env::temp_dir().join("arc-cua-cache"));
    cache.join("arc-cua").join("miniwob")
}

/// The html root inside a cache directory: it holds `miniwob/*.html` and `core/`.
pub fn html_root(dir: &Path) -> PathBuf {
    dir.join("miniwob").join("html")
}

/// Whether `root` looks like a complete html root.
pub fn is_complete(root: &Path) -> bool {
    root.join("core/core.js").is_file() && root.join("miniwob/click-test.html").is_file()
}

/// The html root, fetched first (pip download, unzip) when missing. Needs `bash`,
/// `python3 -m pip` and network access to PyPI only on the first call.
pub fn ensure_pages() -> Result<PathBuf, MiniwobError> {
    ensure_pages_in(&cache_dir())
}

/// [`ensure_pages`] for an explicit cache directory.
pub fn ensure_pages_in(dir: &Path) -> Result<PathBuf, MiniwobError> {
    let root = html_root(dir);
    if is_complete(&root) {
        return Ok(root);
    }
    let failed = |detail: String| MiniwobError::Fetch {
        dir: dir.to_owned(),
        detail,
    };
    tracing::info!(dir = %dir.display(), "fetching the MiniWoB++ pages (pip download miniwob=={MINIWOB_VERSION})");
    let out = Command::new("bash")
        .arg("-c")
        .arg(SCRIPT)
        .arg("fetch-miniwob")
        .env(DIR_ENV, dir)
        .output()
        .map_err(|e| failed(format!("cannot run bash: {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(failed(format!(
            "fetch-miniwob.sh exited with {}: {}",
            out.status,
            stderr.trim()
        )));
    }
    if !is_complete(&root) {
        return Err(failed(format!(
            "the script finished but {} is incomplete",
            root.display()
        )));
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_complete_cache_is_used_as_is() {
        let dir = std::env::temp_dir().join(format!("arc-miniwob-fetch-{}", std::process::id()));
        let root = html_root(&dir);
        std::fs::create_dir_all(root.join("core")).unwrap();
        std::fs::create_dir_all(root.join("miniwob")).unwrap();
        std::fs::write(root.join("core/core.js"), "var core = {};").unwrap();
        std::fs::write(root.join("miniwob/click-test.html"), "<html></html>").unwrap();
        // No bash, pip or network involved: the cache is complete.
        assert_eq!(ensure_pages_in(&dir).unwrap(), root);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cache_lives_outside_the_repository() {
        let dir = cache_dir();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let repo = repo.canonicalize().unwrap();
        assert!(!dir.starts_with(&repo), "{}", dir.display());
    }
}
