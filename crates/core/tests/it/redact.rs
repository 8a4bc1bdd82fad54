//! The one redactor, checked against an encoder written here (not the redactor's own):
//! random secret sets — overlapping, prefixes and suffixes of each other, repeated, with
//! spaces and `&<>%+` — and texts built from their literal and encoded forms.

use arc_core::{Redactor, SECRET_PLACEHOLDER};
use proptest::prelude::*;

/// How a secret may appear in a text.
#[derive(Clone, Copy, Debug)]
enum Form {
    Raw,
    /// Percent-encoded; `upper` hex digits; a space as `+` or `%20`.
    Percent {
        upper: bool,
        plus: bool,
    },
    /// JavaScript's `encodeURIComponent` (leaves `!'()*` raw; space `%20`).
    UriComponent,
    /// `&`, `<`, `>` as named entities; `numeric`: every non-alphanumeric as `&#N;`.
    Html {
        numeric: bool,
    },
}

const FORMS: [Form; 8] = [
    Form::Raw,
    Form::Percent {
        upper: true,
        plus: false,
    },
    Form::Percent {
        upper: false,
        plus: false,
    },
    Form::Percent {
        upper: true,
        plus: true,
    },
    Form::Percent {
        upper: false,
        plus: true,
    },
    Form::UriComponent,
    Form::Html { numeric: false },
    Form::Html { numeric: true },
];

fn encode(s: &str, form: Form) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let keep = c.is_ascii_alphanumeric() || "-_.~".contains(c);
        match form {
            Form::Raw => out.push(c),
            Form::Percent { plus: true, .. } if c == ' ' => out.push('+'),
            Form::Percent { upper, .. } if !keep => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out += &if upper {
                        format!("%{b:02X}")
                    } else {
                        format!("%{b:02x}")
                    };
                }
            }
            Form::UriComponent if !keep && !"!'()*".contains(c) => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out += &format!("%{b:02X}");
                }
            }
            Form::Html { numeric: true } if !c.is_ascii_alphanumeric() => {
                out += &format!("&#{};", c as u32)
            }
            Form::Html { numeric: false } if "&<>".contains(c) => out.push_str(match c {
                '&' => "&amp;",
                '<' => "&lt;",
                _ => "&gt;",
            }),
            _ => out.push(c),
        }
    }
    out
}

/// Characters secrets are made of: letters, digits, space and the encoders' specials.
fn secret_char() -> impl Strategy<Value = char> {
    prop::sample::select("aQz7X9 &<>%+!'é".chars().collect::<Vec<_>>())
}

fn base_secret() -> impl Strategy<Value = String> {
    prop::collection::vec(secret_char(), 2..9).prop_map(|v| v.into_iter().collect())
}

/// 1–4 secrets where later ones may be a prefix, suffix or middle of an earlier one, or
/// an earlier one repeated or extended: the sets that break "replace in key order".
fn secret_set() -> impl Strategy<Value = Vec<String>> {
    (
        base_secret(),
        prop::collection::vec((0u8..5, base_secret(), 0usize..8, 0usize..8), 0..4),
    )
        .prop_map(|(first, derived)| {
            let mut set = vec![first];
            for (how, fresh, a, b) in derived {
                let from: Vec<char> = set[a % set.len()].chars().collect();
                let (lo, hi) = (a.min(b) % from.len(), (a.max(b) % from.len()) + 1);
                let part: String = from[lo..hi.max(lo + 1)].iter().collect();
                let s = match how {
                    0 => part,
                    1 => format!("{part}{fresh}"),
                    2 => format!("{fresh}{part}"),
                    3 => part.repeat(2),
                    _ => fresh,
                };
                if s.chars().count() >= 2 {
                    set.push(s);
                }
            }
            set
        })
}

/// A text of segments: secrets in some form, and filler that may itself hold secret
/// characters (so occurrences also form across segment boundaries).
fn text_from(secrets: Vec<String>) -> impl Strategy<Value = (Vec<String>, String)> {
    let n = secrets.len();
    let segment = prop_oneof![
        (0..n, 0..FORMS.len()).prop_map(|(i, f)| Err((i, f))),
        prop::collection::vec(
            prop::sample::select("ab Q7-_.:/?=&%+".chars().collect::<Vec<_>>()),
            0..6
        )
        .prop_map(|v| Ok(v.into_iter().collect::<String>())),
    ];
    prop::collection::vec(segment, 1..12).prop_map(move |segments| {
        let text = segments
            .iter()
            .map(|s| match s {
                Err((i, f)) => encode(&secrets[*i], FORMS[*f]),
                Ok(filler) => filler.clone(),
            })
            .collect();
        (secrets.clone(), text)
    })
}

/// Exact expectation: fillers from characters no secret or encoding uses, so each maximal
/// run of secret segments must become exactly one placeholder and nothing else change.
fn exact_case() -> impl Strategy<Value = (Vec<String>, Vec<Option<(usize, usize)>>)> {
    secret_set().prop_flat_map(|secrets| {
        let n = secrets.len();
        let segment = prop_oneof![(0..n, 0..FORMS.len()).prop_map(Some), Just(None),];
        (Just(secrets), prop::collection::vec(segment, 1..10))
    })
}

fn survivors(secrets: &[String], output: &str) -> Vec<String> {
    let pieces: Vec<&str> = output.split(SECRET_PLACEHOLDER).collect();
    let mut found = Vec::new();
    for s in secrets {
        for form in FORMS {
            let e = encode(s, form);
            if pieces.iter().any(|p| p.contains(&e)) {
                found.push(format!("{s:?} as {form:?} ({e:?})"));
            }
        }
    }
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_secret_survives_in_any_form((secrets, text) in secret_set().prop_flat_map(text_from)) {
        let out = Redactor::new(&secrets).redact(&text).into_owned();
        let left = survivors(&secrets, &out);
        prop_assert!(left.is_empty(), "{text:?} -> {out:?} still holds {left:?}");
    }

    #[test]
    fn each_run_of_secrets_becomes_one_placeholder((secrets, segments) in exact_case()) {
        let filler = "-_.:";
        let mut text = String::new();
        let mut expected = String::new();
        let mut in_run = false;
        for seg in &segments {
            match seg {
                Some((i, f)) => {
                    text += &encode(&secrets[*i], FORMS[*f]);
                    if !in_run {
                        expected += SECRET_PLACEHOLDER;
                    }
                    in_run = true;
                }
                None => {
                    text += filler;
                    expected += filler;
                    in_run = false;
                }
            }
        }
        let r = Redactor::new(&secrets);
        let out = r.redact(&text).into_owned();
        // A remainder of a longer secret around a shorter one would break equality.
        prop_assert_eq!(&out, &expected, "secrets {:?}, text {:?}", secrets, text);
        prop_assert_eq!(r.redact(&out).into_owned(), out, "redacting twice changed it");
    }
}

#[test]
fn the_reported_overlap_leaves_nothing_behind() {
    let r = Redactor::new(["Qz7", "Qz7Xk9Wp"]);
    assert_eq!(r.redact("pw=Qz7Xk9Wp"), "pw=[secret]");
    let r = Redactor::new(["Qz7Xk9Wp", "Qz7"]);
    assert_eq!(r.redact("Qz7Xk9Wp Qz7"), "[secret] [secret]");
}

// ---- the loop: results and events of a run on a page that echoes what was typed ----

mod echo {
    use super::{encode, Form};
    use arc_core::{
        Action, ActionKind, BackendError, Decision, Element, ExecutableAction, Role, RuntimeConfig,
        SettleConfig, Snapshot, TerminalKind,
    };
    use arc_sim::{ScriptedPolicy, StateMachineBackend};

    #[derive(Default)]
    pub struct Echo {
        typed: String,
        continued: bool,
    }

    /// The typed text in the title, a button's name, a field, a percent-encoded link and
    /// an HTML-escaped status, as a page that echoes it would show it.
    fn view(s: &Echo) -> Snapshot {
        let t = &s.typed;
        let mut field = Element::new("code", Role::TextField, "Access code");
        field.actions = [ActionKind::Click, ActionKind::TypeText].into();
        field.value = Some(t.clone().into());
        let mut button = Element::new("go", Role::Button, format!("Continue as {t}"));
        button.actions = [ActionKind::Click].into();
        let link = Element::new(
            "share",
            Role::Link,
            format!("/share?c={}", encode(t, Form::UriComponent)),
        );
        let status = Element::new(
            "status",
            Role::Status,
            format!("<p>{}</p>", encode(t, Form::Html { numeric: false })),
        );
        let title = match s.continued {
            true => format!("Welcome back {t}"),
            false => format!("Signed in as {t}"),
        };
        Snapshot::new(t.clone(), title, vec![field, button, link, status])
    }

    fn act(s: &mut Echo, a: &ExecutableAction) -> Result<(), BackendError> {
        match &a.action {
            Action::TypeText { .. } => s.typed = a.text().into_owned(),
            _ => s.continued = true,
        }
        Ok(())
    }

    pub fn backend() -> StateMachineBackend<Echo> {
        StateMachineBackend::new(Echo::default(), view, act)
    }

    /// The echo page whose revision spells its state, as a state machine's JSON does.
    pub fn backend_spelling_its_state() -> StateMachineBackend<Echo> {
        let spelled = |s: &Echo| {
            let mut snap = view(s);
            snap.revision = format!("{{\"typed\": {:?}}}", s.typed);
            snap
        };
        StateMachineBackend::new(Echo::default(), spelled, act)
    }

    /// Types `key`, clicks the echoing button, and completes with a reason that quotes
    /// the page (as a policy reading the title might).
    pub fn policy(key: &str, quoted: &str) -> ScriptedPolicy {
        ScriptedPolicy::new([
            Decision::act(Action::type_text("code", key)),
            Decision::act(Action::click("go")),
            Decision::terminal(TerminalKind::SubtaskComplete)
                .with_reason(format!("the title says {quoted}")),
        ])
    }

    pub fn config() -> RuntimeConfig {
        RuntimeConfig {
            settle: SettleConfig::immediate(),
            ..Default::default()
        }
    }
}

/// Every string in a JSON document but the hex fingerprints (revisions, guards, state
/// hashes), which may spell a short secret such as "77" by chance.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    let fingerprint = |s: &str| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
    match v {
        serde_json::Value::String(s) if fingerprint(s) => {}
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(m) => m.iter().for_each(|(k, v)| {
            out.push(k.clone());
            if !k.ends_with("revision") && !k.ends_with("guard") {
                strings(v, out)
            }
        }),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_secret_survives_in_results_or_events(secrets in secret_set(), pick in 0usize..8) {
        let mut task = arc_core::Subtask::new("Enter the code", "");
        for (i, s) in secrets.iter().enumerate() {
            task = task.with_input(format!("s{i}"), s.as_str());
            task.secret_inputs.insert(format!("s{i}"));
        }
        let typed = pick % secrets.len();
        let quoted = secrets.concat();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let mut events = Vec::new();
        let result = rt.block_on(async {
            let mut ex = arc_core::Executor::new(
                echo::backend(),
                echo::policy(&format!("s{typed}"), &quoted),
                echo::config(),
            );
            ex.run_with(&task, |e| events.push(serde_json::to_value(&e).unwrap())).await
        });
        prop_assert!(result.is_complete(), "{:?}", result.reason);
        prop_assert_eq!(result.history.len(), 2);
        prop_assert!(
            result.history[1].target_name.as_deref().unwrap().contains(SECRET_PLACEHOLDER),
            "{:?}", result.history[1].target_name
        );
        let mut all = Vec::new();
        strings(&serde_json::to_value(&result).unwrap(), &mut all);
        events.iter().for_each(|e| strings(e, &mut all));
        for text in &all {
            let left = survivors(&secrets, text);
            prop_assert!(left.is_empty(), "{text:?} still holds {left:?}");
        }
    }
}

/// A revision that spells the state (the typed text) carries the placeholder in the
/// result, not the secret.
#[tokio::test]
async fn a_secret_in_a_revision_is_redacted_in_the_result() {
    let mut task = arc_core::Subtask::new("Enter the code", "");
    task = task.with_input("code", "hunter2-secret");
    task.secret_inputs.insert("code".into());
    let mut ex = arc_core::Executor::new(
        echo::backend_spelling_its_state(),
        echo::policy("code", "done"),
        echo::config(),
    );
    let result = ex.run(&task).await;
    assert!(result.is_complete(), "{:?}", result.reason);
    let json = serde_json::to_string(&result).unwrap();
    assert!(!json.contains("hunter2-secret"), "{json}");
    let spelled = format!("{{\"typed\": \"{SECRET_PLACEHOLDER}\"}}");
    assert_eq!(result.history[0].after_revision, spelled);
    assert_eq!(result.final_snapshot.revision, spelled);
}
