//! Exit codes: stable, documented in `--help`.

use arc_browser::Lost;
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
    /// The environment failed (a backend could not start, a file could not be read, a
    /// local page was not served, a requested trajectory could not be written, the browser
    /// died or its renderer crashed).
    Environment = 3,
    /// Stdout was closed or unwritable (the reader went away); output was dropped.
    OutputClosed = 4,
}

impl Exit {
    pub fn for_status(status: TerminalKind) -> Exit {
        if status == TerminalKind::SubtaskComplete {
            Exit::Ok
        } else {
            Exit::NotComplete
        }
    }

    /// A finished run: its status, unless the environment under an unfinished run was
    /// lost — then no decision could have helped, and the caller should see an
    /// environment failure, not a hand-back.
    pub fn for_run(status: TerminalKind, lost: Option<Lost>) -> Exit {
        match lost {
            Some(_) if status != TerminalKind::SubtaskComplete => Exit::Environment,
            _ => Exit::for_status(status),
        }
    }

    pub fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }

    /// Prints `message` on stderr (never panicking, even when stderr is closed) and
    /// returns the code.
    pub fn report(self, message: &str) -> ExitCode {
        warn(message);
        self.code()
    }
}

/// One `arc-cua: …` line on stderr; a closed stderr is ignored rather than a panic.
pub fn warn(message: &str) {
    use std::io::Write;
    // A last bound on echoed input, whatever produced the message.
    let message = arc_core::clip(message, 4096);
    let _ = writeln!(std::io::stderr().lock(), "arc-cua: {message}");
}

/// A command's failure: which exit code, and the message for stderr.
pub type Failure = (Exit, String);

impl From<Lost> for Exit {
    fn from(_: Lost) -> Exit {
        Exit::Environment
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_environment_is_exit_3_unless_the_run_completed() {
        for lost in [Lost::Browser, Lost::Renderer] {
            assert_eq!(
                Exit::for_run(TerminalKind::NeedsAgent, Some(lost)),
                Exit::Environment
            );
            assert_eq!(Exit::from(lost), Exit::Environment);
        }
        assert_eq!(
            Exit::for_run(TerminalKind::SubtaskComplete, Some(Lost::Browser)),
            Exit::Ok
        );
        assert_eq!(
            Exit::for_run(TerminalKind::Blocked, None),
            Exit::NotComplete
        );
    }
}
