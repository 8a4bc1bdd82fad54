//! The codemap's dependency claims (docs/ARCHITECTURE.md) checked against the manifests:
//! every crate has its line there, what a crate is said not to depend on is absent from its
//! `[dependencies]`, and every crate `arc-core` depends on is named in core's "Depends on:"
//! line — so a new dependency is a decision someone wrote down, not an accident.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The names in a manifest's `[dependencies]` table (not dev or build dependencies).
fn manifest_dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            deps.push(name.to_string());
        }
    }
    deps
}

fn package_name(manifest: &str) -> String {
    manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("name = "))
        .expect("a [package] name")
        .trim_matches('"')
        .to_string()
}

/// Every package the lock file knows: a claimed absence must name a real crate, so a
/// misspelt name cannot hold vacuously.
fn locked_packages() -> Vec<String> {
    read(&workspace().join("Cargo.lock"))
        .lines()
        .filter_map(|l| l.strip_prefix("name = "))
        .map(|n| n.trim_matches('"').to_string())
        .collect()
}

/// The workspace's crates: (directory under `crates/`, its manifest's text).
fn crates() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(workspace().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let manifest = dir.join("Cargo.toml");
        if manifest.is_file() {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, read(&manifest)));
        }
    }
    assert!(out.len() >= 10, "found too few crates: {}", out.len());
    out
}

/// The codemap's crate sections: (heading line, body), one per `### ` heading between
/// "## Codemap" and the next `## ` section.
fn codemap_sections() -> Vec<(String, String)> {
    let doc = read(&workspace().join("docs/ARCHITECTURE.md"));
    let codemap = doc
        .split("\n## Codemap\n")
        .nth(1)
        .expect("docs/ARCHITECTURE.md has a \"## Codemap\" section");
    let codemap = codemap.split("\n## ").next().unwrap();
    codemap
        .split("\n### ")
        .skip(1)
        .map(|s| {
            let (head, body) = s.split_once('\n').unwrap_or((s, ""));
            (head.to_string(), body.to_string())
        })
        .collect()
}

/// The section whose heading names `crates/<dir>`.
fn section_of(dir: &str) -> Option<(String, String)> {
    let path = format!("`crates/{dir}`");
    codemap_sections()
        .into_iter()
        .find(|(head, _)| head.contains(&path))
}

/// The line of a section that starts with `label`.
fn line_of<'a>(body: &'a str, label: &str) -> Option<&'a str> {
    body.lines()
        .find_map(|l| l.strip_prefix(label))
        .map(str::trim)
}

/// The names written in backticks on a line.
fn backticked(line: &str) -> Vec<String> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn every_crate_has_a_codemap_line_naming_it() {
    let crates = crates();
    for (dir, manifest) in &crates {
        let package = package_name(manifest);
        let (head, _) = section_of(dir)
            .unwrap_or_else(|| panic!("the codemap has no \"### `crates/{dir}`\" line"));
        assert!(
            head.contains(&format!("`{package}`")),
            "the codemap's line for crates/{dir} does not name its package `{package}`: {head}"
        );
    }
    for (head, _) in codemap_sections() {
        assert!(
            crates
                .iter()
                .any(|(dir, _)| head.contains(&format!("`crates/{dir}`"))),
            "the codemap names a crate the workspace does not have: {head}"
        );
    }
}

#[test]
fn no_crate_depends_on_what_the_codemap_says_it_does_not() {
    let known = locked_packages();
    let mut wrong = Vec::new();
    for (dir, manifest) in crates() {
        let (_, body) = section_of(&dir)
            .unwrap_or_else(|| panic!("the codemap has no \"### `crates/{dir}`\" line"));
        let line = line_of(&body, "Not on:")
            .unwrap_or_else(|| panic!("the codemap's crates/{dir} says nothing it is not on"));
        let claimed: Vec<_> = backticked(line)
            .into_iter()
            .filter(|n| !n.contains(' '))
            .collect();
        assert!(
            !claimed.is_empty(),
            "crates/{dir}'s \"Not on:\" names no crate: {line}"
        );
        let deps = manifest_dependencies(&manifest);
        for name in claimed {
            assert!(
                known.contains(&name),
                "crates/{dir}'s \"Not on:\" names `{name}`, which is no crate in Cargo.lock"
            );
            if deps.contains(&name) {
                wrong.push(format!("crates/{dir} depends on `{name}`"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/ARCHITECTURE.md says these are not dependencies, but Cargo.toml has them: {wrong:?}"
    );
}

#[test]
fn every_core_dependency_is_named_in_the_codemap() {
    let (_, body) = section_of("core").expect("the codemap has a crates/core line");
    let listed = line_of(&body, "Depends on:").expect("core's section says what it depends on");
    let deps = manifest_dependencies(&read(&workspace().join("crates/core/Cargo.toml")));
    assert!(deps.len() >= 5, "parsed too few dependencies: {deps:?}");
    let missing: Vec<_> = deps
        .iter()
        .filter(|d| !listed.contains(d.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "arc-core depends on {missing:?}, which docs/ARCHITECTURE.md's core \"Depends on:\" line does not list: {listed}"
    );
}

#[test]
fn core_does_not_depend_on_a_tokenizer_or_io_crate() {
    let deps = manifest_dependencies(&read(&workspace().join("crates/core/Cargo.toml")));
    for banned in [
        "tiktoken-rs",
        "reqwest",
        "tokio-tungstenite",
        "libc",
        "tempfile",
        "arc-browser",
        "arc-desktop",
        "arc-vision",
        "arc-policy",
        "arc-view",
    ] {
        assert!(
            !deps.iter().any(|d| d == banned),
            "arc-core must not depend on {banned}"
        );
    }
}
