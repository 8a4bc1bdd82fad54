//! Reading payloads from a file or stdin, with errors that say which.

use crate::exit::{Exit, Failure};
use arc_core::Subtask;
use std::io::Read;
use std::path::Path;

/// Upper bound on a payload read from stdin or a file: a subtask is a few KiB; this
/// stops a stray binary pipe from being slurped whole.
pub const MAX_PAYLOAD_BYTES: u64 = 4 * 1024 * 1024;

pub fn read_text(file: Option<&Path>, what: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let read = match file {
        Some(path) => std::fs::File::open(path)
            .and_then(|f| f.take(MAX_PAYLOAD_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| {
                (
                    Exit::Environment,
                    format!("cannot read {what} {}: {e}", path.display()),
                )
            }),
        None => std::io::stdin()
            .take(MAX_PAYLOAD_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| {
                (
                    Exit::BadInput,
                    format!("cannot read {what} from stdin: {e}"),
                )
            }),
    };
    read?;
    if bytes.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err((
            Exit::BadInput,
            format!("{what} exceeds the {MAX_PAYLOAD_BYTES}-byte limit"),
        ));
    }
    // Decoded here, not by the reader, so bad bytes are bad input wherever they came from.
    String::from_utf8(bytes).map_err(|e| {
        let from = file.map_or_else(|| "stdin".to_owned(), |p| p.display().to_string());
        (
            Exit::BadInput,
            format!(
                "{what} from {from} is not valid UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

pub fn read_subtask(file: Option<&Path>) -> Result<Subtask, Failure> {
    let text = read_text(file, "payload")?;
    Subtask::from_json(&text)
        .map_err(|e| (Exit::BadInput, format!("invalid payload: {e} [{}]", e.code)))
}
