//! `scripts/eval-ray.py` on a local Ray cluster of two CPUs that the driver starts (Ray
//! from the venv `scripts/ray-venv.sh` makes; installed when missing, never skipped):
//! suites run as four shards, each shard a Ray task with its own browser, and merge into
//! one scorecard. Checked against a single-process run's own results, and with one
//! shard's Ray worker killed mid-run.

use crate::procs::procs;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A driver's whole run, generously: a cluster start, four shards on two busy cores.
const DRIVER_BOUND: Duration = Duration::from_secs(300);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The venv's python (created on first use).
fn ray_python() -> PathBuf {
    let out = Command::new("bash")
        .arg(repo().join("scripts/ray-venv.sh"))
        .stderr(Stdio::inherit())
        .output()
        .expect("run scripts/ray-venv.sh");
    assert!(out.status.success(), "scripts/ray-venv.sh failed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// The driver, started on this machine's own local cluster of two CPUs.
fn driver(args: &[&str]) -> Command {
    let mut c = Command::new(ray_python());
    c.arg(repo().join("scripts/eval-ray.py"))
        .args(["--num-cpus", "2", "--bin", env!("CARGO_BIN_EXE_arc-cua")])
        .args(args)
        .env("RAY_USAGE_STATS_ENABLED", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Waits for `child` within the bound; its stdout and stderr.
fn finish(mut child: std::process::Child) -> (bool, String) {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > DRIVER_BOUND {
            let _ = child.kill();
            panic!("the Ray driver did not finish within {DRIVER_BOUND:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Each run's `(mode, task id)` → status, from a results file; panics on a task twice.
fn statuses(path: &Path) -> BTreeMap<(String, String), Value> {
    let runs: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for run in runs.as_array().unwrap() {
        let mode = run["mode"].to_string();
        for t in run["tasks"].as_array().unwrap() {
            let key = (mode.clone(), t["id"].as_str().unwrap().to_owned());
            let again = out.insert(key.clone(), t["status"].clone());
            assert!(again.is_none(), "{key:?} is in the merge twice");
        }
    }
    out
}

#[test]
fn the_fixture_suite_as_ray_shards_merges_into_the_single_process_run() {
    let dir = tempfile::tempdir().unwrap();
    let single = dir.path().join("single.json");
    let alone = Command::new(env!("CARGO_BIN_EXE_arc-cua"))
        .args(["eval", "fixtures", "--results"])
        .arg(&single)
        .arg("--out")
        .arg(dir.path().join("single"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(
        alone.success() || single.is_file(),
        "the single run wrote nothing"
    );

    let merged = dir.path().join("merged.json");
    let out = dir.path().join("ray");
    let child = driver(&["fixtures", "--shards", "4", "--results"])
        .arg(&merged)
        .arg("--out")
        .arg(&out)
        .spawn()
        .unwrap();
    let (ok, text) = finish(child);
    assert!(ok, "{text}");
    for k in 1..=4 {
        assert!(text.contains(&format!("shard {k}/4 on ")), "{text}");
    }
    // Every task exactly once, with the status the single process gave it.
    assert_eq!(statuses(&merged), statuses(&single), "{text}");
    assert!(out.join("scorecard.html").is_file() || out.read_dir().unwrap().count() >= 3);
}

#[test]
fn a_shard_whose_worker_is_killed_is_run_again_and_the_merge_is_whole() {
    let dir = tempfile::tempdir().unwrap();
    let merged = dir.path().join("merged.json");
    let mut cmd = driver(&["miniwob", "--shards", "4", "--results"]);
    cmd.arg(&merged)
        .arg("--out")
        .arg(dir.path().join("ray"))
        .args(["--", "--tasks", "click-test,enter-text", "--seeds", "2"]);
    let mut child = cmd.spawn().unwrap();
    // The second shard's eval, once it runs: its parent is the Ray worker running it.
    let started = Instant::now();
    let worker = loop {
        if child.try_wait().unwrap().is_some() {
            let (_, text) = finish(child);
            panic!("the driver ended before shard 2/4 ran:\n{text}");
        }
        let shard = procs().into_iter().find(|(_, _, _, _, cmd)| {
            cmd.contains(" eval miniwob ") && cmd.contains("--shard 2/4")
        });
        if let Some((_, ppid, ..)) = shard {
            break ppid;
        }
        assert!(started.elapsed() < DRIVER_BOUND, "shard 2/4 never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    let killed = Command::new("kill")
        .args(["-KILL", &worker.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (ok, text) = finish(child);
    assert!(ok, "{text}");
    assert!(text.contains("shard 2/4 failed"), "{text}");
    assert!(text.contains("attempt 2 of 3"), "{text}");
    // Each (task, seed) exactly once.
    let ids: Vec<String> = statuses(&merged).into_keys().map(|(_, id)| id).collect();
    assert_eq!(
        ids,
        [
            "click-test.s0",
            "click-test.s1",
            "enter-text.s0",
            "enter-text.s1"
        ],
        "{text}"
    );
}
