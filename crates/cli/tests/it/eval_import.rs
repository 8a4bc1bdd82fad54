//! `arc-cua eval import`: upstream task files in, a suite our loader reads out, and the
//! summary saying what was flagged and that nothing ran live.

use assert_cmd::Command;
use std::path::PathBuf;

fn sample(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/external")
        .join(path)
}

fn arc() -> Command {
    let mut c = Command::cargo_bin("arc-cua").unwrap();
    // Only the flags decide the sites here.
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("WEBARENA_")) {
        c.env_remove(k);
    }
    c
}

const SITES: [&str; 10] = [
    "--site",
    "SHOPPING=http://shop.test:7770",
    "--site",
    "shopping_admin=http://shop.test:7780/admin",
    "--site",
    "GITLAB=http://gitlab.test:8023",
    "--site",
    "REDDIT=http://reddit.test:9999",
    "--site",
    "MAP=http://map.test:3000",
];

#[test]
fn eval_import_webarena_writes_a_suite_the_loader_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = arc()
        .args(["eval", "import", "webarena"])
        .arg(sample("webarena/sample.json"))
        .args(SITES)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tasks = arc_eval::suite::load_dir(dir.path()).expect("the suite loader reads them");
    let ids: Vec<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
    // Only the fully checked tasks by default.
    assert_eq!(ids, ["webarena-44", "webarena-455"]);
    assert_eq!(
        tasks[0].start,
        arc_eval::Start::Url("http://gitlab.test:8023".into())
    );
    for expected in [
        "webarena-0 ",
        "not runnable: no upstream check maps",
        "webarena-118",
        "partly checked: not written (--partial)",
        "webarena-0  string_match.exact_match: checks the agent's answer",
        "webarena-431  program_html[0]: opens __SHOPPING__/checkout/cart after the run",
        "9 tasks: 5 runnable (2 fully checked, 3 partly), 4 not runnable; 2 written to",
        "Live runs need WebArena's servers",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in:\n{stdout}");
    }

    // --partial adds the partly checked ones; their description says what is left out.
    let out = arc()
        .args(["eval", "import", "webarena"])
        .arg(sample("webarena/sample.json"))
        .args(SITES)
        .arg("--partial")
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let tasks = arc_eval::suite::load_dir(dir.path()).unwrap();
    assert_eq!(tasks.len(), 5);
    let partial = tasks
        .iter()
        .find(|t| t.id.as_str() == "webarena-682")
        .unwrap();
    assert!(partial
        .description
        .as_deref()
        .unwrap()
        .contains("NOT checked here (a pass is not an upstream pass): string_match.must_include"));
}

#[test]
fn eval_import_names_a_missing_site_and_says_live_runs_need_servers() {
    let out = arc()
        .args(["eval", "import", "webarena"])
        .arg(sample("webarena/sample.json"))
        .args(["--site", "GITLAB=http://gitlab.test:8023"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("__SHOPPING_ADMIN__") && err.contains("--site SHOPPING_ADMIN=URL"),
        "{err}"
    );

    let out = arc()
        .args(["eval", "import", "osworld", "--json"])
        .arg(sample("osworld/sample.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mapped: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(mapped.len(), 5);
    assert!(mapped.iter().all(|m| m["task"].is_null()));
    assert_eq!(mapped[2]["unsupported"][0]["kind"], "compare_table");
    assert_eq!(mapped[2]["unsupported"][0]["reason"]["reason"], "desktop");
    assert!(String::from_utf8_lossy(&out.stderr).contains("OSWorld's desktop VMs"));

    let help = arc().args(["eval", "import", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("WebArena's servers") && help.contains("OSWorld's desktop VMs"),
        "{help}"
    );
    let help = arc().args(["eval", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("live runs need WebArena's servers"));
}
