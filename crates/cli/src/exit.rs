//! Exit codes: stable, documented in `--help`.

use arc_core::TerminalKind;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// SUBTASK_COMPLETE, or a valid payload for `validate`.
    Ok = 0,
    /// BLOCKED, NEEDS_AGENT or any other terminal status.
    NotComplete = 1,
    /// The payload, script or flags are invalid.
    BadInput = 2,
    /// The environment failed (a backend could not start, a file could not be read).
    Environment = 3,
}

impl Exit {
    pub fn for_status(status: TerminalKind) -> Exit {
        if status == TerminalKind::SubtaskComplete {
            Exit::Ok
        } else {
            Exit::NotComplete
        }
    }

    pub fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }

    /// Prints `message` on stderr and returns the code.
    pub fn report(self, message: &str) -> ExitCode {
        eprintln!("arc-cua: {message}");
        self.code()
    }
}

/// A command's failure: which exit code, and the message for stderr.
pub type Failure = (Exit, String);
