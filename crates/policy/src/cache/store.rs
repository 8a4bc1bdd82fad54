//! The persistent store: entries keyed by (goal template, context), saved as one JSON
//! file written atomically (temp file + rename), so a crash never leaves half a cache.

use super::selector::Selector;
use arc_core::{Snapshot, Subtask, TerminalKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Failures (a step that no longer resolves) after which an entry is dropped.
pub const EVICT_AFTER_FAILURES: u32 = 2;

arc_core::action_wire! {
    /// One recorded step: its targets as selectors, its other parameters from the table.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct CachedStep {
        head {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub terminal: Option<TerminalKind>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub target: Option<Selector>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub destination: Option<Selector>,
        }
        values
        tail {}
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub steps: Vec<CachedStep>,
    pub successes: u32,
    pub failures: u32,
}

/// What an entry is keyed by: the goal with its literals replaced by their input keys,
/// and where it ran (application + host + path; ephemeral ports and queries dropped).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CacheKey {
    pub template: String,
    pub context: String,
}

impl CacheKey {
    pub fn of(subtask: &Subtask, snapshot: &Snapshot) -> CacheKey {
        let mut template = subtask.goal.to_lowercase();
        let mut literals: Vec<(String, String)> = subtask
            .inputs
            .iter()
            .map(|(k, v)| (v.as_text().to_lowercase(), k.clone()))
            .filter(|(v, _)| !v.trim().is_empty())
            .collect();
        // Longest first, so "ada@example.com" is replaced before "ada".
        literals.sort_by_key(|(v, _)| std::cmp::Reverse(v.len()));
        for (literal, key) in literals {
            template = template.replace(&literal, &format!("{{{key}}}"));
        }
        let url = snapshot.url().unwrap_or("");
        CacheKey {
            template: key_text(&template),
            context: format!("{}|{}", snapshot.application, place(url)),
        }
    }

    fn file_key(&self) -> String {
        format!("{} @ {}", self.template, self.context)
    }
}

/// A goal template as a key: lower-cased, whitespace collapsed, its `{input}` placeholders
/// kept (a key, not a label: files already stored under it keep their names).
fn key_text(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// `http://127.0.0.1:43211/form.html?x=1` → `127.0.0.1/form.html`. Like the ephemeral
/// port, the random prefix a local file is served under (`/<32 hex>/`, fresh per run) is
/// dropped, so a file's place is the same every run.
fn place(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.rsplit_once(':').map_or(host, |(h, port)| {
        if port.chars().all(|c| c.is_ascii_digit()) {
            h
        } else {
            host
        }
    });
    let path = match path.split_once('/') {
        Some((first, rest))
            if first.len() == 32 && first.bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            rest
        }
        _ => path,
    };
    format!("{host}/{path}")
}

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("selector cache {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("selector cache {path} is not a valid cache file: {source}")]
    Corrupt {
        path: PathBuf,
        source: serde_json::Error,
    },
}

#[derive(Debug, Default)]
pub struct SelectorCache {
    path: Option<PathBuf>,
    entries: BTreeMap<String, Entry>,
}

impl SelectorCache {
    /// A cache that lives only as long as the process.
    pub fn in_memory() -> Self {
        SelectorCache::default()
    }

    /// Opens (or starts) the cache file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, CacheError> {
        let path = path.as_ref().to_path_buf();
        let entries = match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|source| CacheError::Corrupt {
                path: path.clone(),
                source,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(source) => return Err(CacheError::Io { path, source }),
        };
        Ok(SelectorCache {
            path: Some(path),
            entries,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, key: &CacheKey) -> Option<&Entry> {
        self.entries.get(&key.file_key())
    }

    /// Stores a finished subtask's steps (replacing an older recording).
    pub fn store(&mut self, key: &CacheKey, steps: Vec<CachedStep>) -> Result<(), CacheError> {
        let successes = self.get(key).map_or(0, |e| e.successes) + 1;
        self.entries.insert(
            key.file_key(),
            Entry {
                steps,
                successes,
                failures: 0,
            },
        );
        self.save()
    }

    /// A replay that reached its end: the entry is still good.
    pub fn succeeded(&mut self, key: &CacheKey) -> Result<(), CacheError> {
        if let Some(e) = self.entries.get_mut(&key.file_key()) {
            e.successes += 1;
            e.failures = 0;
        }
        self.save()
    }

    /// A replay that could not continue; returns whether the entry was evicted.
    pub fn failed(&mut self, key: &CacheKey) -> Result<bool, CacheError> {
        let k = key.file_key();
        let evict = match self.entries.get_mut(&k) {
            Some(e) => {
                e.failures += 1;
                e.failures >= EVICT_AFTER_FAILURES
            }
            None => false,
        };
        if evict {
            self.entries.remove(&k);
        }
        self.save()?;
        Ok(evict)
    }

    fn save(&self) -> Result<(), CacheError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let io = |source| CacheError::Io {
            path: path.clone(),
            source,
        };
        let text =
            serde_json::to_vec_pretty(&self.entries).map_err(|e| io(std::io::Error::other(e)))?;
        let tmp = path.with_extension("tmp");
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(&tmp, text).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::{Action, ActionKind, Decision, ElementId, Role};

    /// A step's file text is what it was before the parameter table (key order too),
    /// and its keys are the table's value parameters around its selectors.
    #[test]
    fn a_cached_step_keeps_its_file_shape() {
        let selector = |name: &str| Selector {
            role: Role::Button,
            name: name.into(),
            test_id: None,
            dom_id: None,
            automation_id: None,
            path: Vec::new(),
        };
        let mut step = CachedStep {
            target: Some(selector("a")),
            destination: Some(selector("b")),
            ..CachedStep::default()
        };
        step.set_action_fields(
            Action::DragTo {
                target: ElementId::from("e1"),
                destination: ElementId::from("e2"),
            }
            .to_fields(),
        );
        let text = serde_json::to_string(&step).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"DRAG_TO","target":{"role":"button","name":"a"},"destination":{"role":"button","name":"b"}}"#
        );
        assert_eq!(serde_json::from_str::<CachedStep>(&text).unwrap(), step);
        let mut typed = CachedStep::default();
        typed.set_action_fields(Action::type_text(ElementId::from("e1"), "email").to_fields());
        assert_eq!(
            serde_json::to_string(&typed).unwrap(),
            r#"{"kind":"TYPE_TEXT","input_key":"email"}"#
        );
        let fields = typed.action_fields(ActionKind::TypeText, Some(ElementId::from("e9")), None);
        assert_eq!(
            Decision::act(Action::from_fields(fields).unwrap()),
            Decision::act(Action::type_text(ElementId::from("e9"), "email"))
        );
        let err = serde_json::from_str::<CachedStep>(r#"{"target_id":"e1"}"#).unwrap_err();
        assert!(
            err.to_string().contains(
                "unknown field `target_id`, expected one of `kind`, `terminal`, `target`, \
                 `destination`, `input_key`, `key`, `hotkey`, `scroll_direction`, `drag_dx`, \
                 `drag_dy`"
            ),
            "{err}"
        );
    }

    #[test]
    fn places_drop_ports_and_queries() {
        assert_eq!(
            place("http://127.0.0.1:43211/form.html?x=1#y"),
            "127.0.0.1/form.html"
        );
        assert_eq!(place("https://example.com/a/b"), "example.com/a/b");
        assert_eq!(
            place("http://127.0.0.1:40001/0123456789abcdef0123456789abcdef/form.html"),
            "127.0.0.1/form.html"
        );
    }

    #[test]
    fn templates_replace_literals_by_their_keys() {
        let s = Subtask::new("Sign up as ada@example.com on the Pro plan", "v")
            .with_input("email", "ada@example.com")
            .with_input("plan", "Pro");
        let key = CacheKey::of(&s, &Snapshot::empty());
        assert_eq!(key.template, "sign up as {email} on the {plan} plan");
    }
}
