//! Core's dependency list is part of the architecture: every crate `arc-core` depends on
//! must be named in the codemap's "Depends on:" line for core, so a new dependency is a
//! decision someone wrote down, not an accident.

use std::path::Path;

fn manifest_dependencies() -> Vec<String> {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .expect("read core's Cargo.toml");
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

fn codemap_core_dependencies() -> String {
    let codemap = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ARCHITECTURE.md"),
    )
    .expect("read docs/ARCHITECTURE.md");
    let section = codemap
        .split("### `crates/core`")
        .nth(1)
        .expect("the codemap has a crates/core section");
    let section = section.split("\n### ").next().unwrap();
    let start = section
        .find("Depends on:")
        .expect("core's section says what it depends on");
    let paragraph = &section[start..];
    paragraph.split("\n\n").next().unwrap().replace('\n', " ")
}

#[test]
fn every_core_dependency_is_named_in_the_codemap() {
    let listed = codemap_core_dependencies();
    let deps = manifest_dependencies();
    assert!(deps.len() >= 5, "parsed too few dependencies: {deps:?}");
    // "xxhash-rust" is written "xxhash" in prose; compare on the name's first segment too.
    let missing: Vec<_> = deps
        .iter()
        .filter(|d| !listed.contains(d.as_str()) && !listed.contains(d.split('-').next().unwrap()))
        .collect();
    assert!(
        missing.is_empty(),
        "arc-core depends on {missing:?}, which docs/ARCHITECTURE.md's core \"Depends on:\" line does not list: {listed}"
    );
}

#[test]
fn core_does_not_depend_on_a_tokenizer_or_io_crate() {
    let deps = manifest_dependencies();
    for banned in [
        "tiktoken-rs",
        "reqwest",
        "tokio-tungstenite",
        "arc-browser",
        "arc-policy",
        "arc-view",
    ] {
        assert!(
            !deps.iter().any(|d| d == banned),
            "arc-core must not depend on {banned}"
        );
    }
}
