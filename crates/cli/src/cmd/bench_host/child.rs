//! The host under test: the real `arc-cua host --socket` as a child process, read from
//! `/proc` (its own memory only; Chromium is a separate process tree) and always ended.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const STDERR_TAIL_LINES: usize = 20;

pub struct HostChild {
    child: Child,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// The host's own memory and threads, from `/proc/<pid>/status`.
#[derive(Clone, Copy, Debug)]
pub struct ProcStatus {
    pub rss_kb: u64,
    /// Of `rss_kb`: heap and stacks, and the binary's pages (file-backed).
    pub anon_kb: u64,
    pub file_kb: u64,
    pub hwm_kb: u64,
    pub threads: u64,
}

impl HostChild {
    /// Starts `<this binary> host --socket <path>`.
    pub fn spawn(socket: &Path) -> Result<HostChild, String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
        let mut cmd = Command::new(exe);
        cmd.arg("host")
            .arg("--socket")
            .arg(socket)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // SAFETY: prctl(2) only sets a flag of the child; it allocates nothing. The host
        // dies with this process (it then kills its own Chromium) even if we are SIGKILLed.
        unsafe {
            cmd.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start the host: {e}"))?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            // Drained always, so a chatty host never blocks on a full pipe.
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines() {
                    let Ok(line) = line else { break };
                    let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if t.len() == STDERR_TAIL_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            });
        }
        Ok(HostChild { child, stderr })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its last stderr lines, for an error message.
    pub fn stderr_tail(&self) -> String {
        let t = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        t.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// `Some(status)` once it has exited.
    pub fn exited(&mut self) -> Option<String> {
        self.child.try_wait().ok().flatten().map(|s| s.to_string())
    }

    pub fn status(&self) -> Result<ProcStatus, String> {
        let path = format!("/proc/{}/status", self.pid());
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let field = |name: &str| -> Result<u64, String> {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{path}: no {name} line"))
        };
        Ok(ProcStatus {
            rss_kb: field("VmRSS:")?,
            anon_kb: field("RssAnon:")?,
            file_kb: field("RssFile:")?,
            hwm_kb: field("VmHWM:")?,
            threads: field("Threads:")?,
        })
    }

    /// Process groups of the host's live children (its Chromium runs in its own), not
    /// counting ours (the host's watchdog may share it, and so do we).
    pub fn child_groups(&self) -> Vec<u32> {
        // SAFETY: getpgrp(2) cannot fail and touches no memory.
        let ours = unsafe { libc::getpgrp() } as u32;
        let mut groups: Vec<u32> = procs()
            .filter(|p| p.ppid == self.pid() && p.pgid != ours)
            .map(|p| p.pgid)
            .collect();
        groups.sort_unstable();
        groups.dedup();
        groups
    }

    /// SIGTERM (the host kills its browser on the way out), SIGKILL after `grace`.
    /// Returns how it ended.
    pub fn stop(&mut self, grace: Duration) -> String {
        if let Some(s) = self.exited() {
            return s;
        }
        // SAFETY: kill(2) on our own child, not yet reaped, so the pid is still its.
        unsafe { libc::kill(self.pid() as i32, libc::SIGTERM) };
        let start = Instant::now();
        while start.elapsed() < grace {
            if let Some(s) = self.exited() {
                return s;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(s) => format!(
                "{s} (after SIGTERM was ignored for {} ms)",
                grace.as_millis()
            ),
            Err(e) => format!("unknown ({e})"),
        }
    }
}

impl Drop for HostChild {
    fn drop(&mut self) {
        if self.exited().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

struct Proc {
    ppid: u32,
    pgid: u32,
}

/// Every live (not zombie) process's parent and group.
fn procs() -> impl Iterator<Item = Proc> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|stat| {
            // The command name may hold spaces and parentheses: fields start after the last ')'.
            let after = &stat[stat.rfind(')')? + 1..];
            let f: Vec<&str> = after.split_whitespace().collect();
            if f.first() == Some(&"Z") {
                return None;
            }
            Some(Proc {
                ppid: f.get(1)?.parse().ok()?,
                pgid: f.get(2)?.parse().ok()?,
            })
        })
}

/// Live processes still in any of `groups`, polled until none or `bound`.
pub fn left_in_groups(groups: &[u32], bound: Duration) -> usize {
    let start = Instant::now();
    loop {
        let n = procs().filter(|p| groups.contains(&p.pgid)).count();
        if n == 0 || start.elapsed() >= bound {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
