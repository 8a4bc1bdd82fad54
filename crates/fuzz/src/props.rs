//! Properties every boundary shares.

use arc_core::{ContractError, ErrorCode};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The longest error message a caller should have to read (an error must not echo a
/// megabyte of input back).
pub const MAX_MESSAGE: usize = 1_024;

/// Runs `f`; a panic is a finding, reported with its message.
pub fn no_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a non-string panic".into());
        format!("panicked: {msg}")
    })
}

/// An error carries one of the boundary's stable codes, names a field, says why, and
/// stays short.
pub fn contract_error(e: &ContractError) -> Result<(), String> {
    if !matches!(e.code, ErrorCode::InvalidPayload | ErrorCode::UnknownField) {
        return Err(format!("unexpected code {:?}: {e}", e.code));
    }
    if e.field.trim().is_empty() {
        return Err(format!("error names no field: {e}"));
    }
    if e.message.trim().is_empty() {
        return Err(format!("error has no message: field {:?}", e.field));
    }
    let len = e.field.len() + e.message.len();
    if len > MAX_MESSAGE {
        let head: String = e.to_string().chars().take(200).collect();
        return Err(format!(
            "error is {len} bytes long (limit {MAX_MESSAGE}): {head}…"
        ));
    }
    Ok(())
}
