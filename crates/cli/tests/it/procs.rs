//! The process table, read from /proc: what the runtime launched, as an outside observer
//! sees it.

use std::io::Read;
use std::process::Child;
use std::time::{Duration, Instant};

/// `(pid, ppid, pgrp, state, cmdline)` of every process, from /proc/PID/stat.
pub fn procs() -> Vec<(u32, u32, u32, char, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let f: Vec<&str> = after.split_whitespace().collect();
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        out.push((
            pid,
            f[1].parse().unwrap_or(0),
            f[2].parse().unwrap_or(0),
            f[0].chars().next().unwrap_or('?'),
            cmdline,
        ));
    }
    out
}

/// The Chromium that `child` launched (waits up to 30 s for it: a loaded machine).
pub fn browser_of(child: &mut Child) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(p) = procs()
            .into_iter()
            .find(|p| p.1 == child.id() && p.4.contains("--remote-debugging-pipe"))
        {
            return p.0;
        }
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
            panic!("arc-cua exited ({status}) before launching Chromium: {stderr}");
        }
        assert!(
            Instant::now() < deadline,
            "no Chromium child of {}",
            child.id()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
