//! The two pipes of `--remote-debugging-pipe`: Chromium reads CDP commands from its fd 3
//! and writes replies and events to its fd 4.
//!
//! Every descriptor is created close-on-exec, so no other child (a second browser launched
//! concurrently, a helper) inherits an end; only the `pre_exec` step of *this* child puts
//! its two ends on fds 3 and 4 (where `dup2` clears close-on-exec). The child's ends are
//! first moved to fds ≥ [`CHILD_FD_FLOOR`], so neither `dup2` can overwrite the other's
//! source, and neither can be 3 or 4 already (`dup2(3, 3)` would keep close-on-exec).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use tokio::process::Command;

/// Where Chromium expects to read commands.
const BROWSER_READS: RawFd = 3;
/// Where Chromium writes replies and events.
const BROWSER_WRITES: RawFd = 4;
/// The lowest descriptor the child's ends are moved to before `dup2`.
const CHILD_FD_FLOOR: RawFd = 10;

/// Both pipes, before spawning.
pub(crate) struct CdpPipes {
    /// The child's ends.
    child_reads: OwnedFd,
    child_writes: OwnedFd,
    /// Ours.
    to_browser: OwnedFd,
    from_browser: OwnedFd,
}

impl CdpPipes {
    pub(crate) fn new() -> io::Result<CdpPipes> {
        let (child_reads, to_browser) = pipe()?;
        let (from_browser, child_writes) = pipe()?;
        Ok(CdpPipes {
            child_reads: above_floor(child_reads)?,
            child_writes: above_floor(child_writes)?,
            to_browser,
            from_browser,
        })
    }

    /// Makes `command`'s child find its ends on fds 3 and 4.
    pub(crate) fn install(&self, command: &mut Command) {
        let reads = self.child_reads.as_raw_fd();
        let writes = self.child_writes.as_raw_fd();
        // SAFETY: the closure only calls dup2(2), which is async-signal-safe, on
        // descriptors this struct keeps open until after the spawn.
        unsafe {
            command.pre_exec(move || place_cdp_fds(reads, writes));
        }
    }

    /// After the spawn: closes our copies of the child's ends (so the child's exit is an
    /// EOF for us) and returns ours, `(from_browser, to_browser)`.
    pub(crate) fn into_parent_ends(self) -> (OwnedFd, OwnedFd) {
        drop(self.child_reads);
        drop(self.child_writes);
        (self.from_browser, self.to_browser)
    }
}

/// In the child, between fork and exec: the ends onto fds 3 and 4, inheritable.
fn place_cdp_fds(reads: RawFd, writes: RawFd) -> io::Result<()> {
    for (from, to) in [(reads, BROWSER_READS), (writes, BROWSER_WRITES)] {
        // SAFETY: dup2 on descriptors open in this process; no memory is touched.
        if unsafe { libc::dup2(from, to) } < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A close-on-exec pipe: `(read end, write end)`.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe2 to fill.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both are fresh descriptors nobody else owns.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The same pipe end on a close-on-exec descriptor ≥ [`CHILD_FD_FLOOR`].
fn above_floor(fd: OwnedFd) -> io::Result<OwnedFd> {
    // SAFETY: fcntl(F_DUPFD_CLOEXEC) on an open descriptor returns a new one or -1.
    let high = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, CHILD_FD_FLOOR) };
    if high < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns; `fd` is closed when dropped here.
    Ok(unsafe { OwnedFd::from_raw_fd(high) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cloexec(fd: &OwnedFd) -> bool {
        // SAFETY: F_GETFD on an open descriptor.
        let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFD) };
        flags >= 0 && flags & libc::FD_CLOEXEC != 0
    }

    #[test]
    fn every_end_is_close_on_exec_and_the_childs_are_above_the_floor() {
        let p = CdpPipes::new().unwrap();
        for fd in [
            &p.child_reads,
            &p.child_writes,
            &p.to_browser,
            &p.from_browser,
        ] {
            assert!(cloexec(fd), "fd {} is inheritable", fd.as_raw_fd());
        }
        assert!(p.child_reads.as_raw_fd() >= CHILD_FD_FLOOR);
        assert!(p.child_writes.as_raw_fd() >= CHILD_FD_FLOOR);
    }

    #[tokio::test]
    async fn the_child_finds_its_ends_on_3_and_4_and_nothing_else_leaks() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let pipes = CdpPipes::new().unwrap();
        let high = pipes.child_reads.as_raw_fd();
        let mut command = Command::new("/bin/sh");
        // Echo what arrives on fd 3 to fd 4, and report whether the pre-dup2 copy leaked.
        command.arg("-c").arg(format!(
            "head -c 5 <&3 >&4; if [ -e /proc/self/fd/{high} ]; then echo LEAK >&4; fi"
        ));
        pipes.install(&mut command);
        let mut child = command.spawn().unwrap();
        let (from, to) = pipes.into_parent_ends();
        let mut to = tokio::fs::File::from_std(std::fs::File::from(to));
        to.write_all(b"hello").await.unwrap();
        drop(to);
        let mut out = String::new();
        tokio::fs::File::from_std(std::fs::File::from(from))
            .read_to_string(&mut out)
            .await
            .unwrap();
        assert_eq!(out, "hello");
        assert!(child.wait().await.unwrap().success());
    }
}
