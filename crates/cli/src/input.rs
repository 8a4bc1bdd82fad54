//! Reading payloads from a file or stdin, with errors that say which.

use crate::exit::{Exit, Failure};
use arc_core::Subtask;
use std::io::Read;
use std::path::Path;

/// Upper bound on a payload read from stdin or a file: a subtask is a few KiB; this
/// stops a stray binary pipe from being slurped whole.
pub const MAX_PAYLOAD_BYTES: u64 = 4 * 1024 * 1024;

pub fn read_text(file: Option<&Path>, what: &str) -> Result<String, Failure> {
    let mut text = String::new();
    let read = match file {
        Some(path) => std::fs::File::open(path)
            .and_then(|f| f.take(MAX_PAYLOAD_BYTES + 1).read_to_string(&mut text))
            .map_err(|e| {
                (
                    Exit::Environment,
                    format!("cannot read {what} {}: {e}", path.display()),
                )
            }),
        None => std::io::stdin()
            .take(MAX_PAYLOAD_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| {
                (
                    Exit::BadInput,
                    format!("cannot read {what} from stdin: {e}"),
                )
            }),
    };
    read?;
    if text.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err((
            Exit::BadInput,
            format!("{what} exceeds the {MAX_PAYLOAD_BYTES}-byte limit"),
        ));
    }
    Ok(text)
}

pub fn read_subtask(file: Option<&Path>) -> Result<Subtask, Failure> {
    let text = read_text(file, "payload")?;
    Subtask::from_json(&text)
        .map_err(|e| (Exit::BadInput, format!("invalid payload: {e} [{}]", e.code)))
}
