//! The selector cache: what it stores survives a restart, replays on a new session's
//! ids, heals a renamed label, falls through on a removed control, and evicts on
//! repeated failure.

use arc_core::{
    Action, ActionKind, Choice, Decision, Element, Role, Snapshot, Subtask, TerminalKind,
};
use arc_policy::cache::{CacheKey, Recorder, Replay, ReplayStep, SelectorCache};

/// The sign-up form as a page; `prefix` changes every id (a new session), `button` is
/// the submit button's label.
fn page(prefix: &str, button: Option<&str>) -> Snapshot {
    let mut out = vec![Element::new(
        format!("{prefix}1"),
        Role::Document,
        "Sign up",
    )];
    let mut email = Element::new(format!("{prefix}2"), Role::TextField, "Email");
    email.actions = [ActionKind::Click, ActionKind::TypeText].into();
    email.parent_id = Some(format!("{prefix}1").into());
    out.push(email);
    if let Some(label) = button {
        let mut b = Element::new(format!("{prefix}3"), Role::Button, label);
        b.actions = [ActionKind::Click].into();
        b.parent_id = Some(format!("{prefix}1").into());
        out.push(b);
    }
    let mut s = Snapshot::new("Chromium", "Sign up", out);
    s.facts.url = Some("http://127.0.0.1:40001/signup.html".into());
    s
}

fn subtask() -> Subtask {
    Subtask::new("Sign up as ada@example.com", "Welcome is shown")
        .with_input("email", "ada@example.com")
}

fn recorded() -> Vec<arc_policy::cache::CachedStep> {
    let s = page("a", Some("Sign up"));
    let mut r = Recorder::default();
    r.record(&Decision::act(Action::type_text("a2", "email")), &s);
    r.record(&Decision::act(Action::click("a3")), &s);
    r.record(&Decision::terminal(TerminalKind::SubtaskComplete), &s);
    r.finish().expect("cacheable")
}

fn targets(replay: &mut Replay, snapshot: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        match replay.next(snapshot) {
            ReplayStep::Decision(d) => match d.choice {
                Choice::Act(a) => out.push(a.target().map(|t| t.to_string()).unwrap_or_default()),
                Choice::Terminal(t) => out.push(t.to_string()),
            },
            ReplayStep::Miss(why) => {
                out.push(format!("miss: {why}"));
                return out;
            }
            ReplayStep::Done => return out,
        }
    }
}

#[test]
fn a_stored_run_replays_on_a_new_sessions_ids_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache.json");
    let key = CacheKey::of(&subtask(), &page("a", Some("Sign up")));
    SelectorCache::open(&path)
        .unwrap()
        .store(&key, recorded())
        .unwrap();
    // A new process, a new session: other ids, another port, a same-shaped goal.
    let cache = SelectorCache::open(&path).unwrap();
    let later = page("b", Some("Sign up"));
    let mut other = later.clone();
    other.facts.url = Some("http://127.0.0.1:51234/signup.html".into());
    let again = Subtask::new("Sign up as bob@example.com", "Welcome")
        .with_input("email", "bob@example.com");
    let entry = cache
        .get(&CacheKey::of(&again, &other))
        .expect("same template, same place");
    let mut replay = Replay::new(key, entry.steps.clone());
    assert_eq!(
        targets(&mut replay, &later),
        vec!["b2", "b3", "SUBTASK_COMPLETE"]
    );
}

#[test]
fn a_renamed_label_heals() {
    let mut replay = Replay::new(CacheKey::of(&subtask(), &page("a", None)), recorded());
    // A hyphen alone is no rename (names are normalized as the gate reads them).
    let renamed = page("c", Some("Signup"));
    let ReplayStep::Decision(_) = replay.next(&renamed) else {
        panic!()
    };
    match replay.next(&renamed) {
        ReplayStep::Decision(d) => {
            assert_eq!(d.action().unwrap().target().unwrap().as_str(), "c3");
            assert!(d.reason.unwrap().contains("healed"), "the heal is reported");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_removed_control_falls_through() {
    let mut replay = Replay::new(CacheKey::of(&subtask(), &page("a", None)), recorded());
    let without = page("d", None);
    let steps = targets(&mut replay, &without);
    assert_eq!(steps[0], "d2");
    assert!(
        steps[1].starts_with("miss: cached button \"sign up\" is no longer on the page"),
        "{steps:?}"
    );
}

#[test]
fn an_unrelated_label_is_not_a_heal() {
    let mut replay = Replay::new(CacheKey::of(&subtask(), &page("a", None)), recorded());
    let other = page("e", Some("Delete account"));
    let steps = targets(&mut replay, &other);
    assert!(steps[1].starts_with("miss:"), "{steps:?}");
}

#[test]
fn repeated_failures_evict_the_entry_and_the_file_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache.json");
    let key = CacheKey::of(&subtask(), &page("a", None));
    let mut cache = SelectorCache::open(&path).unwrap();
    cache.store(&key, recorded()).unwrap();
    assert!(!cache.failed(&key).unwrap(), "one failure is tolerated");
    assert!(cache.failed(&key).unwrap(), "the second evicts");
    assert!(SelectorCache::open(&path).unwrap().get(&key).is_none());
}

#[test]
fn a_corrupt_cache_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cache.json");
    std::fs::write(&path, "{ not json").unwrap();
    let err = SelectorCache::open(&path).unwrap_err().to_string();
    assert!(
        err.contains("cache.json") && err.contains("not a valid cache file"),
        "{err}"
    );
}
