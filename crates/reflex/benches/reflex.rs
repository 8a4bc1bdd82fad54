//! Reflex decide on 100 / 1,000 / 5,000-element snapshots (issue 4 target: p95 ≤ 1 ms at
//! 1,000). A realistic mix: navigation links, a sign-up form (text, password, native
//! select with options, checkbox, submit), then an orders table (rows of cells and a
//! link each) filling the rest. Three situations:
//!
//! - `fill`: the first decision (ground every input, type the first);
//! - `wait`: everything done, confirmation not shown yet (every step grounded and found
//!   done, every criterion scanned over the whole page, then WAIT): the longest path;
//! - `complete`: submitted and confirmed (the criteria are checked first and hold);
//! - `missing`: a quoted target that is nowhere (word pass, then the character-level
//!   fallback over every clickable element).
//!
//! Criterion reports the mean; a separate pass times each decision on its own and prints
//! the median, p95 and p99, which criterion does not.

use arc_core::{
    Action, ActionKind as K, ActionRecord, Bounds, DecideContext, Decision, Element,
    ExecutableAction, InputType, Role, SettleEnd, SettleReport, Snapshot, Source, Subtask,
};
use arc_reflex::ReflexPolicy;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::json;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Builder {
    els: Vec<Element>,
    y: f64,
}

impl Builder {
    fn add(&mut self, role: Role, name: &str, actions: &[K], parent: &str) -> String {
        let id = format!("e{}", self.els.len() + 1);
        let mut e = Element::new(id.as_str(), role, name);
        e.actions = actions.iter().copied().collect();
        e.source = Source::Cdp;
        e.parent_id = (!parent.is_empty()).then(|| parent.into());
        e.bounds = Some(Bounds {
            x: 32.0,
            y: self.y,
            width: 300.0,
            height: 22.0,
        });
        e.facts.extra.insert("tag".into(), "div".into());
        self.y += 24.0;
        self.els.push(e);
        id
    }

    fn last(&mut self) -> &mut Element {
        self.els.last_mut().unwrap()
    }
}

const CLICK: &[K] = &[K::Click, K::DoubleClick, K::RightClick];
const TYPE: &[K] = &[
    K::Click,
    K::DoubleClick,
    K::RightClick,
    K::TypeText,
    K::SetValue,
];

/// A page of `n` elements; `done` fills the form, `confirmed` shows the confirmation.
fn page(n: usize, done: bool, confirmed: bool) -> Snapshot {
    let mut b = Builder {
        els: Vec::with_capacity(n),
        y: 0.0,
    };
    let root = b.add(Role::Document, "Create your account", &[], "");
    let nav = b.add(Role::Other("navigation".into()), "Main", &[], &root);
    for name in [
        "Home", "Products", "Pricing", "Blog", "About us", "Contact", "Careers",
    ] {
        b.add(Role::Link, name, CLICK, &nav);
    }
    b.add(Role::Heading, "Create your account", &[], &root);
    let form = b.add(Role::Form, "", &[], &root);
    b.add(Role::TextField, "Email", TYPE, &form);
    if done {
        b.last().value = Some("ada@example.com".into());
    }
    b.add(Role::PasswordField, "Password", TYPE, &form);
    let plan = b.add(Role::ComboBox, "Plan", &[K::Click, K::SelectOption], &form);
    b.last().value = Some(if done { "Pro" } else { "Free" }.into());
    for name in ["Free", "Pro", "Team"] {
        b.add(Role::Option, name, CLICK, &plan);
        b.last().selected = Some(name == if done { "Pro" } else { "Free" });
    }
    b.add(Role::CheckBox, "I accept the terms", CLICK, &form);
    b.last().selected = Some(done);
    b.add(Role::Button, "Sign up", CLICK, &form);
    b.last().facts.input_type = Some(InputType::Submit);
    let table = b.add(Role::Table, "Recent orders", &[], &root);
    let mut i = 0;
    while b.els.len() + 6 <= n {
        i += 1;
        let row = b.add(Role::Row, "", &[], &table);
        b.add(Role::Cell, &format!("Order #{}", 10_000 + i), &[], &row);
        b.add(Role::Cell, &format!("2024-03-{:02}", i % 28 + 1), &[], &row);
        b.add(
            Role::Cell,
            &format!("${}.{:02}", i * 7 % 500, i % 100),
            &[],
            &row,
        );
        b.add(
            Role::Link,
            &format!("View order {}", 10_000 + i),
            CLICK,
            &row,
        );
    }
    while b.els.len() + 1 < n {
        b.add(
            Role::StaticText,
            "Terms of service and privacy policy",
            &[],
            &root,
        );
    }
    let status = if confirmed {
        "Welcome, ada@example.com! Your Pro account is ready."
    } else {
        ""
    };
    b.add(Role::Status, status, &[], &root);
    let mut s = Snapshot::new("Chromium", "Create your account", b.els);
    s.viewport = Some(Bounds {
        x: 0.0,
        y: 0.0,
        width: 1280.0,
        height: 720.0,
    });
    s
}

fn signup() -> Subtask {
    Subtask::from_value(json!({
        "goal": "Sign up with the email address and the password, choose the plan and accept the terms",
        "inputs": {"email": "ada@example.com", "password": "correct horse", "plan": "Pro"},
        "secret_inputs": ["password"],
        "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]
    }))
    .unwrap()
}

fn missing() -> Subtask {
    Subtask::from_value(json!({
        "goal": "Click the \"Checkout\" button",
        "verification": ["The page shows \"Order placed\""]
    }))
    .unwrap()
}

/// What the run did before the `complete` decision.
fn history(s: &Snapshot) -> Vec<ActionRecord> {
    let id = |name: &str| {
        s.elements
            .iter()
            .find(|e| e.name == name && !e.actions.is_empty())
            .unwrap()
            .id
            .clone()
    };
    let steps = [
        ("fill", Action::type_text(id("Email"), "email"), "Email"),
        (
            "fill",
            Action::type_text(id("Password"), "password"),
            "Password",
        ),
        (
            "fill",
            Action::SelectOption {
                target: id("Plan"),
                input_key: "plan".into(),
            },
            "Plan",
        ),
        (
            "toggle",
            Action::click(id("I accept the terms")),
            "I accept the terms",
        ),
        ("commit", Action::click(id("Sign up")), "Sign up"),
    ];
    steps
        .into_iter()
        .enumerate()
        .map(|(i, (tag, action, name))| {
            let mut decision = Decision::act(action.clone());
            decision.raw = Some(json!({"reflex": {"step": tag}}));
            ActionRecord {
                step: i as u32 + 1,
                decision,
                action: ExecutableAction {
                    action,
                    target_guard: None,
                    secondary_target_guard: None,
                    value: None,
                },
                target_name: Some(name.into()),
                target_source: None,
                target_bounds: None,
                before_revision: format!("r{i}"),
                after_revision: format!("r{}", i + 1),
                state_changed: true,
                after_observed: true,
                elapsed_ms: 0,
                settle: SettleReport {
                    end: SettleEnd::Quiet,
                    elapsed_ms: 0,
                    samples: 1,
                },
                landed_elsewhere: None,
                physical_input: false,
                downloads: Vec::new(),
            }
        })
        .collect()
}

struct Case {
    subtask: Subtask,
    snapshot: Arc<Snapshot>,
    history: Vec<ActionRecord>,
}

impl Case {
    fn new(situation: &str, n: usize) -> Case {
        let (subtask, snapshot) = match situation {
            "fill" => (signup(), page(n, false, false)),
            "wait" => (signup(), page(n, true, false)),
            "complete" => (signup(), page(n, true, true)),
            _ => (missing(), page(n, false, false)),
        };
        let history = if matches!(situation, "wait" | "complete") {
            history(&snapshot)
        } else {
            Vec::new()
        };
        Case {
            subtask,
            snapshot: Arc::new(snapshot),
            history,
        }
    }

    fn decide(&self, policy: &mut ReflexPolicy) -> Decision {
        policy.decide_now(DecideContext {
            subtask: &self.subtask,
            snapshot: &self.snapshot,
            history: &self.history,
            cycle: 1,
            verdict: None,
            recent: &[],
        })
    }
}

fn percentiles(name: &str, case: &Case) {
    const RUNS: usize = 2_000;
    let mut policy = ReflexPolicy::new();
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let t = Instant::now();
        black_box(case.decide(&mut policy));
        times.push(t.elapsed());
    }
    times.sort_unstable();
    let at = |q: f64| times[((RUNS as f64 * q) as usize).min(RUNS - 1)];
    println!(
        "reflex/{name}: median {:?}, p95 {:?}, p99 {:?} per decision ({RUNS} decisions)",
        at(0.5),
        at(0.95),
        at(0.99)
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("reflex_decide");
    for situation in ["fill", "wait", "complete", "missing"] {
        for n in [100, 1_000, 5_000] {
            let case = Case::new(situation, n);
            // The situation decides what it should, or the figures measure something else.
            let d = case.decide(&mut ReflexPolicy::new());
            let expected = match situation {
                "fill" => "TYPE_TEXT",
                "wait" => "WAIT",
                "complete" => "SUBTASK_COMPLETE",
                _ => "NEEDS_AGENT",
            };
            let got = serde_json::to_value(&d).unwrap();
            let kind = got.get("kind").or_else(|| got.get("terminal"));
            assert_eq!(kind, Some(&json!(expected)), "{situation}/{n}: {d:?}");
            let name = format!("{situation}/{n}");
            percentiles(&name, &case);
            group.bench_with_input(BenchmarkId::new(situation, n), &case, |b, case| {
                let mut policy = ReflexPolicy::new();
                b.iter(|| black_box(case.decide(&mut policy)))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
