//! `arc-cua bench host`, as a user runs it: the JSON's shape, and the host child and its
//! browser gone afterwards, checked in the process table while and after it runs. No
//! timing is asserted (the machine's load decides the figures).

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn arc() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("arc-cua"))
}

struct Proc {
    pid: u32,
    ppid: u32,
    pgid: u32,
}

fn procs() -> Vec<Proc> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let f: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
            (f[0] != "Z").then(|| Proc {
                pid,
                ppid: f[1].parse().unwrap_or(0),
                pgid: f[2].parse().unwrap_or(0),
            })
        })
        .collect()
}

fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
        .unwrap_or_default()
}

#[test]
fn bench_host_reports_its_figures_as_json_and_leaves_no_process() {
    let mut bench = arc()
        .args([
            "bench",
            "host",
            "--sessions",
            "2",
            "--pings",
            "50",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // SAFETY: getpgrp(2) cannot fail.
    let ours = unsafe { libc::getpgrp() } as u32;
    // Watch the process table: the bench's host child, and its browser's process groups.
    let mut host_pid = None;
    let mut browser_groups = Vec::new();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = bench.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "bench host ends within 120 s"
        );
        let table = procs();
        if let Some(h) = table
            .iter()
            .find(|p| p.ppid == bench.id() && cmdline(p.pid).contains("host --socket"))
        {
            host_pid = Some(h.pid);
            for p in table.iter().filter(|p| p.ppid == h.pid && p.pgid != ours) {
                if !browser_groups.contains(&p.pgid) {
                    browser_groups.push(p.pgid);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(30));
    };
    let out = bench.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "{status}: {stderr}");
    let host_pid = host_pid.expect("the bench ran `arc-cua host --socket` as its child");
    assert!(!browser_groups.is_empty(), "the host launched a browser");

    let r: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "one JSON object: {e}: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    assert_eq!(r["host_pid"], host_pid, "the figures are the child's");
    assert_eq!(
        (r["pings"].as_u64(), r["sessions"].as_u64()),
        (Some(50), Some(2))
    );
    let us = |k: &str| {
        r[k].as_f64()
            .unwrap_or_else(|| panic!("{k} is a number: {r}"))
    };
    let (p50, p95, p99, max) = (
        us("ping_p50_us"),
        us("ping_p95_us"),
        us("ping_p99_us"),
        us("ping_max_us"),
    );
    assert!(0.0 < p50 && p50 <= p95 && p95 <= p99 && p99 <= max, "{r}");
    let kb = |k: &str| {
        r[k].as_u64()
            .unwrap_or_else(|| panic!("{k} is a count: {r}"))
    };
    assert!(kb("rss_idle_kb") > 1024, "{r}");
    assert!(
        kb("rss_sessions_kb") > 1024 && kb("hwm_kb") >= kb("rss_sessions_kb"),
        "{r}"
    );
    // VmRSS is RssAnon + RssFile + RssShmem.
    let parts = kb("rss_sessions_anon_kb") + kb("rss_sessions_file_kb");
    assert!(
        kb("rss_sessions_anon_kb") > 0 && parts <= kb("rss_sessions_kb"),
        "{r}"
    );
    assert!(kb("threads") >= 1 && kb("observe_tokens_max") > 0, "{r}");
    assert_eq!(r["ping_p50_target_us"], 100.0);
    assert_eq!(r["rss_target_kb"], 40 * 1024);
    assert_eq!(r["ping_p50_met"], p50 <= 100.0);
    assert_eq!(r["rss_met"], kb("rss_sessions_kb") <= 40 * 1024);
    assert!(
        matches!(r["build"].as_str(), Some("debug" | "release")),
        "{r}"
    );
    assert_eq!(r["browser_processes_left"], 0);

    // Independently of what it says: the host is gone, and so is its browser.
    assert!(
        !cmdline(host_pid).contains("host --socket"),
        "the host child {host_pid} outlived the bench"
    );
    let left: Vec<u32> = procs()
        .iter()
        .filter(|p| browser_groups.contains(&p.pgid))
        .map(|p| p.pid)
        .collect();
    assert!(left.is_empty(), "the host's browser outlived it: {left:?}");
}

#[test]
fn bench_host_refuses_bad_numbers_naming_the_flag_and_starts_nothing() {
    for (args, needle) in [
        (["--sessions", "0"], "--sessions must be 1–16"),
        (["--sessions", "17"], "--sessions must be 1–16"),
        (["--pings", "0"], "--pings must be at least 1"),
    ] {
        let out = arc().args(["bench", "host"]).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}
