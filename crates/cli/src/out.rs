//! Printing to stdout without panicking. `println!` panics when stdout is closed
//! (`arc-cua run … | head -c0`: exit 101); here a failed write marks stdout closed and
//! the command ends with `Exit::OutputClosed` instead, after its cleanup has run.

use crate::exit::{Exit, Failure};
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `args` and a newline to stdout.
pub fn line(args: fmt::Arguments<'_>) -> Result<(), Failure> {
    write(format_args!("{args}\n"))
}

/// Writes `args` to stdout as is (no newline), flushed.
pub fn write(args: fmt::Arguments<'_>) -> Result<(), Failure> {
    if is_closed() {
        return Err(closed("an earlier write failed"));
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) => {
            CLOSED.store(true, Ordering::SeqCst);
            Err(closed(&e.to_string()))
        }
    }
}

/// One JSON line.
pub fn json_line(value: &impl serde::Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string(value)
        .map_err(|e| (Exit::Environment, format!("cannot serialize output: {e}")))?;
    line(format_args!("{text}"))
}

/// Whether a write to stdout has failed (the reader went away).
pub fn is_closed() -> bool {
    CLOSED.load(Ordering::SeqCst)
}

fn closed(detail: &str) -> Failure {
    (
        Exit::OutputClosed,
        format!("stdout is closed or unwritable ({detail}); output dropped"),
    )
}

/// `println!` that returns a `Result` instead of panicking.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}
