//! Files a page may be given (`<input type=file>`): only paths the planner listed in the
//! subtask's `files` (core's `executable.rs` refuses any other), each checked here to be
//! a readable regular file within [`MAX_UPLOAD_BYTES`] — before a run by the front doors
//! ([`check_files`]), and again when the file input takes it.

use std::path::Path;

/// The largest file one upload takes.
pub const MAX_UPLOAD_BYTES: u64 = 64 * 1024 * 1024;

/// A file checked for an upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadFile {
    pub path: String,
    pub bytes: u64,
}

/// Checks one path: absolute, a regular file (after links), readable, within the bound.
/// The error is a sentence naming the path and what is wrong with it.
pub fn check_file(path: &str) -> Result<UploadFile, String> {
    if !path.starts_with('/') {
        return Err(format!("{path:?} is not an absolute path"));
    }
    let meta =
        std::fs::metadata(Path::new(path)).map_err(|e| format!("{path:?} cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{path:?} is not a regular file"));
    }
    if meta.len() > MAX_UPLOAD_BYTES {
        return Err(format!(
            "{path:?} is {} bytes, over the {MAX_UPLOAD_BYTES}-byte upload limit",
            meta.len()
        ));
    }
    std::fs::File::open(path).map_err(|e| format!("{path:?} cannot be read: {e}"))?;
    Ok(UploadFile {
        path: path.to_owned(),
        bytes: meta.len(),
    })
}

/// Checks every file a subtask lists; the first bad one is named with its index
/// (`files[1]: …`).
pub fn check_files(files: &[String]) -> Result<Vec<UploadFile>, String> {
    files
        .iter()
        .enumerate()
        .map(|(i, f)| check_file(f).map_err(|e| format!("files[{i}]: {e}")))
        .collect()
}
