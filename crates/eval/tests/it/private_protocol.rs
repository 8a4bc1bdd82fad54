//! No private protocol between the benchmark planner and the policy: no phrase the MiniWoB++
//! planner writes, and no registered task name, is spelled anywhere in the policy's source
//! (code, comments and tests alike). The planner's phrases are its own string literals —
//! each sentence it writes, split at its placeholders — so a new template is checked the
//! day it is written. What the planner cannot say in plain English it states as a typed
//! check (`arc_core::Check`), which every planner can write.

use arc_eval::miniwob::REGISTERED;
use std::path::{Path, PathBuf};

/// Phrases of this many words or more are a shared spelling; shorter ones ("is checked",
/// "the form") are the language itself.
const WINDOW: usize = 3;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of Rust source outside comments (plain and raw strings; a char
/// literal such as `'"'` is skipped, not taken for a string's start).
fn literals(src: &str) -> Vec<String> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let at = |k: usize| b.get(k).copied().unwrap_or('\0');
        match b[i] {
            '/' if at(i + 1) == '/' => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                i += 2;
                while i < b.len() && !(b[i] == '*' && at(i + 1) == '/') {
                    i += 1;
                }
                i += 2;
            }
            'r' if (at(i + 1) == '"' || at(i + 1) == '#')
                && !(i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')) =>
            {
                let mut k = i + 1;
                while at(k) == '#' {
                    k += 1;
                }
                if at(k) != '"' {
                    i += 1;
                    continue;
                }
                let hashes = k - i - 1;
                let start = k + 1;
                let mut j = start;
                while j < b.len() && !(b[j] == '"' && (0..hashes).all(|h| at(j + 1 + h) == '#')) {
                    j += 1;
                }
                out.push(b[start..j.min(b.len())].iter().collect());
                i = j + 1 + hashes;
            }
            '"' => {
                let mut j = i + 1;
                let mut s = String::new();
                while j < b.len() && b[j] != '"' {
                    if b[j] == '\\' {
                        // An escaped quote ends a phrase as a quote mark does.
                        s.push(if at(j + 1) == '"' { '"' } else { ' ' });
                        j += 2;
                    } else {
                        s.push(b[j]);
                        j += 1;
                    }
                }
                out.push(s);
                i = j + 1;
            }
            '\'' => {
                // 'x', '\n', '"': skip a char literal; a lifetime is one quote.
                if at(i + 1) == '\\' {
                    i += 4;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Every run of `WINDOW` words inside one fragment of a planner sentence (fragments end
/// at a placeholder, a quote mark or an ellipsis: the words either side are not written
/// together).
fn planner_phrases() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/miniwob/planner");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    // Unit tests quote utterances, which are the benchmark's words, not the planner's.
    files.retain(|f| f.file_stem().is_some_and(|s| s != "tests"));
    let mut out = Vec::new();
    for file in files {
        let src = std::fs::read_to_string(&file).unwrap();
        let src = src.split("#[cfg(test)]").next().unwrap_or_default();
        for lit in literals(src) {
            let fragments: Vec<Vec<String>> = lit.split(['{', '}', '"', '…']).map(words).collect();
            if fragments.iter().map(Vec::len).sum::<usize>() < WINDOW {
                continue;
            }
            for f in fragments.iter().filter(|f| f.len() >= WINDOW) {
                for w in f.windows(WINDOW) {
                    out.push((w.join(" "), lit.clone()));
                }
            }
        }
    }
    out
}

/// Every policy's source: the cascade and cache, the reflex, the model.
fn policy_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for krate in ["policy", "reflex", "model"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../{krate}/src"));
        sources(&dir, &mut files);
    }
    assert!(
        files
            .iter()
            .any(|p| p.ends_with("reflex/src/verify/holds.rs")),
        "{files:?}"
    );
    files
        .into_iter()
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            (p.display().to_string(), src)
        })
        .collect()
}

#[test]
fn the_policy_spells_no_phrase_the_planner_writes_and_no_task_name() {
    let phrases = planner_phrases();
    assert!(
        phrases.len() > 10,
        "the planner's sentences were not found: {phrases:?}"
    );
    let mut shared = Vec::new();
    for (path, src) in policy_files() {
        let text = format!(" {} ", words(&src).join(" "));
        for (phrase, sentence) in &phrases {
            if text.contains(&format!(" {phrase} ")) {
                shared.push(format!(
                    "{path}: {phrase:?} (the planner writes {sentence:?})"
                ));
            }
        }
        let lower = src.to_lowercase();
        // A one-word name ("terminal") is a word of the language, not a task's spelling.
        for (name, _) in REGISTERED.iter().filter(|(n, _)| n.contains('-')) {
            if lower.contains(name) {
                shared.push(format!("{path}: the task name {name:?}"));
            }
        }
    }
    shared.sort();
    shared.dedup();
    assert!(shared.is_empty(), "{}", shared.join("\n"));
}

#[test]
fn the_literal_reader_finds_sentences_and_skips_comments_and_chars() {
    let src = r###"
        // "a commented phrase here"
        let q = '"';
        let s = format!("the {x} field contains {y:?}");
        let r = r#"a raw "quoted" one"#;
    "###;
    assert_eq!(
        literals(src),
        ["the {x} field contains {y:?}", "a raw \"quoted\" one"]
    );
}
