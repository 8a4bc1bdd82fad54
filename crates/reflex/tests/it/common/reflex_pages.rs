//! Pages for the reflex tests: builders for elements shaped like the fixture site, and a
//! page as a state machine the real executor drives.
#![allow(dead_code)]

use arc_core::{
    Action, ActionKind as K, Bounds, DecideContext, Decision, Element, ExecutableAction,
    ExecutionResult, Executor, InputType, Role, RuntimeConfig, SettleConfig, Snapshot, Source,
    StepOutcome, Subtask, TerminalKind,
};
use arc_reflex::ReflexPolicy;
use arc_sim::StateMachineBackend;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub fn el(id: &str, role: Role, name: &str, actions: &[K]) -> Element {
    let mut e = Element::new(id, role, name);
    e.actions = actions.iter().copied().collect();
    e.source = Source::Sim;
    e.parent_id = Some("e1".into());
    e
}

pub fn doc(title: &str) -> Element {
    let mut e = el("e1", Role::Document, title, &[]);
    e.parent_id = None;
    e
}

pub fn text(id: &str, role: Role, name: &str) -> Element {
    el(id, role, name, &[])
}

pub fn field(id: &str, name: &str) -> Element {
    el(
        id,
        Role::TextField,
        name,
        &[K::Click, K::TypeText, K::SetValue],
    )
}

pub fn button(id: &str, name: &str) -> Element {
    el(id, Role::Button, name, &[K::Click])
}

pub fn checkbox(id: &str, name: &str, checked: bool) -> Element {
    let mut e = el(id, Role::CheckBox, name, &[K::Click]);
    e.selected = Some(checked);
    e
}

pub fn under(mut e: Element, parent: &str) -> Element {
    e.parent_id = Some(parent.into());
    e
}

pub fn at(mut e: Element, x: f64, y: f64, w: f64, h: f64) -> Element {
    e.bounds = Some(Bounds {
        x,
        y,
        width: w,
        height: h,
    });
    e
}

/// `e` with the `name` attribute a form submits it under.
pub fn form_name(mut e: Element, name: &str) -> Element {
    e.facts.form_name = Some(name.into());
    e
}

pub fn placeholder(mut e: Element, text: &str) -> Element {
    e.facts.placeholder = Some(text.into());
    e
}

pub fn input_type(mut e: Element, t: InputType) -> Element {
    e.facts.input_type = Some(t);
    e
}

pub fn value(mut e: Element, v: &str) -> Element {
    e.value = Some(v.into());
    e
}

pub fn subtask(v: Value) -> Subtask {
    Subtask::from_value(v).expect("a valid subtask")
}

/// One decision on one snapshot with no history.
pub fn decide(task: &Subtask, els: Vec<Element>) -> Decision {
    let snapshot = Arc::new(Snapshot::new("sim", "page", els));
    ReflexPolicy::new().decide_now(DecideContext {
        subtask: task,
        snapshot: &snapshot,
        history: &[],
        cycle: 1,
        verdict: None,
        recent: &[],
    })
}

/// The run completed; the reason shows when it did not.
#[track_caller]
pub fn assert_complete(result: &ExecutionResult) {
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
}

pub fn terminal(d: &Decision) -> Option<TerminalKind> {
    match d.choice {
        arc_core::Choice::Terminal(t) => Some(t),
        _ => None,
    }
}

type Hook = Box<dyn Fn(&mut Page, &ExecutableAction) + Send + Sync>;

/// A page: its elements, the URL, a log of what reached it, and a hook for page logic.
pub struct Page {
    pub els: Vec<Element>,
    pub url: String,
    pub log: Vec<String>,
    pub hook: Arc<Hook>,
    pub observed: Arc<AtomicU32>,
    /// An element that shows up once the page has been observed this many times.
    pub late: Option<(u32, Element)>,
}

impl Page {
    pub fn new(
        els: Vec<Element>,
        hook: impl Fn(&mut Page, &ExecutableAction) + Send + Sync + 'static,
    ) -> Page {
        Page {
            els,
            url: "https://app.invalid/start".into(),
            log: Vec::new(),
            hook: Arc::new(Box::new(hook)),
            observed: Arc::new(AtomicU32::new(0)),
            late: None,
        }
    }

    pub fn get(&mut self, id: &str) -> Option<&mut Element> {
        self.els.iter_mut().find(|e| e.id.as_str() == id)
    }

    pub fn value_of(&self, id: &str) -> String {
        self.els
            .iter()
            .find(|e| e.id.as_str() == id)
            .and_then(|e| e.value.as_ref())
            .map(|v| v.as_text().into_owned())
            .unwrap_or_default()
    }

    pub fn show(&mut self, e: Element) {
        self.els.retain(|x| x.id != e.id);
        self.els.push(e);
    }

    pub fn remove(&mut self, ids: &[&str]) {
        self.els.retain(|e| !ids.contains(&e.id.as_str()));
    }
}

/// What a browser does on its own: typing sets values, selecting picks an option,
/// clicking a checkbox toggles it, a radio or tab is selected among its siblings.
pub fn native(page: &mut Page, a: &ExecutableAction) {
    let id = a
        .target()
        .map(|t| t.as_str().to_owned())
        .unwrap_or_default();
    page.log
        .push(format!("{} {id}", a.kind()).trim().to_owned());
    let text = a.text().into_owned();
    match a.kind() {
        K::TypeText | K::SetValue => {
            if let Some(e) = page.get(&id) {
                e.value = Some(text.as_str().into());
            }
        }
        K::SelectOption => {
            if let Some(e) = page.get(&id) {
                e.value = Some(text.as_str().into());
            }
            for e in page.els.iter_mut() {
                if e.parent_id.as_ref().is_some_and(|p| p.as_str() == id) {
                    e.selected = Some(e.name == text);
                }
            }
        }
        K::Click => {
            let Some(e) = page.els.iter().find(|e| e.id.as_str() == id).cloned() else {
                return;
            };
            match e.role {
                Role::CheckBox => page.get(&id).unwrap().selected = Some(e.selected != Some(true)),
                Role::Radio | Role::Tab => {
                    for s in page
                        .els
                        .iter_mut()
                        .filter(|s| s.parent_id == e.parent_id && s.role == e.role)
                    {
                        s.selected = Some(s.id == e.id);
                    }
                }
                _ => {}
            }
        }
        K::Navigate => page.url = text,
        _ => {}
    }
}

pub fn backend(page: Page) -> StateMachineBackend<Page> {
    StateMachineBackend::new(
        page,
        |p: &Page| {
            let n = p.observed.fetch_add(1, Ordering::Relaxed);
            let mut els = p.els.clone();
            if let Some((at, e)) = &p.late {
                if n >= *at {
                    els.push(e.clone());
                }
            }
            let mut s = Snapshot::new("sim", "page", els);
            s.facts.url = Some(p.url.clone());
            s.viewport = Some(Bounds {
                x: 0.0,
                y: 0.0,
                width: 1280.0,
                height: 700.0,
            });
            // The context is part of what a person sees change.
            s.revision = format!("{}-{}", s.revision, p.url);
            s
        },
        |p: &mut Page, a: &ExecutableAction| {
            native(p, a);
            let hook = p.hook.clone();
            hook(p, a);
            Ok(())
        },
    )
}

/// No waiting: these pages change only when acted on or observed, and the tests judge the
/// reflex's own decisions (the loop's second look after a give-up is core's to test).
pub fn config() -> RuntimeConfig {
    RuntimeConfig {
        settle: SettleConfig::immediate(),
        wait: Duration::ZERO,
        late_reaction: Duration::ZERO,
        ..RuntimeConfig::default()
    }
}

/// Runs the subtask on the page; returns the result, the page and every decision made.
pub async fn run(page: Page, task: &Subtask) -> (ExecutionResult, Page, Vec<Decision>) {
    run_with(page, task, config()).await
}

pub async fn run_with(
    page: Page,
    task: &Subtask,
    config: RuntimeConfig,
) -> (ExecutionResult, Page, Vec<Decision>) {
    let mut executor = Executor::new(backend(page), ReflexPolicy::new(), config);
    let mut decisions = Vec::new();
    let result = executor
        .run_with(task, |event| {
            if let Some(d) = &event.decision {
                if !matches!(event.outcome, StepOutcome::Finished { .. }) || d.action().is_none() {
                    decisions.push(d.clone());
                }
            }
        })
        .await;
    let (mut backend, _) = executor.into_parts();
    let page = std::mem::replace(backend.state_mut(), Page::new(Vec::new(), |_, _| {}));
    (result, page, decisions)
}

pub fn on_click(
    id: &'static str,
    f: impl Fn(&mut Page) + Send + Sync + 'static,
) -> impl Fn(&mut Page, &ExecutableAction) + Send + Sync {
    move |p, a| {
        if a.kind() == K::Click && a.target().is_some_and(|t| t.as_str() == id) {
            f(p)
        }
    }
}

pub fn contact_form() -> Vec<Element> {
    vec![
        doc("Contact form"),
        text("e2", Role::Heading, "Contact us"),
        form_name(field("e4", "First name"), "first"),
        form_name(field("e6", "Last name"), "last"),
        form_name(field("e8", "Message"), "message"),
        input_type(button("e9", "Submit"), InputType::Submit),
    ]
}

pub fn thank_you(p: &mut Page) {
    let msg = format!("Thank you, {} {}", p.value_of("e4"), p.value_of("e6"));
    p.show(text("e10", Role::Status, &msg));
}

pub fn signup(email: &str, plan: &str, terms: bool) -> Vec<Element> {
    let mut select = el("e6", Role::ComboBox, "Plan", &[K::Click, K::SelectOption]);
    select.value = Some(plan.into());
    select.expanded = Some(false);
    let option = |id: &str, name: &str| {
        let mut o = under(el(id, Role::Option, name, &[K::Click]), "e6");
        o.selected = Some(name == plan);
        o
    };
    let mut email_field = input_type(field("e4", "Email"), InputType::Email);
    if !email.is_empty() {
        email_field.value = Some(email.into());
    }
    vec![
        doc("Create your account"),
        text("e2", Role::Heading, "Create your account"),
        email_field,
        select,
        option("e7", "Free"),
        option("e8", "Pro"),
        option("e9", "Team"),
        checkbox("e10", "I accept the terms", terms),
        input_type(button("e11", "Sign up"), InputType::Submit),
    ]
}

pub fn welcome(p: &mut Page) {
    let msg = format!(
        "Welcome, {}! Your {} account is ready.",
        p.value_of("e4"),
        p.value_of("e6")
    );
    p.show(text("e13", Role::Status, &msg));
}

pub fn signup_task() -> Subtask {
    subtask(json!({
        "goal": "Sign up with the email address, choose the plan and accept the terms",
        "inputs": {"email": "ada@example.com", "plan": "Pro"},
        "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]
    }))
}

pub fn typed_into(d: &Decision) -> Option<(String, String)> {
    match d.action()? {
        Action::TypeText {
            target, input_key, ..
        } => Some((target.to_string(), input_key.clone())),
        _ => None,
    }
}

pub fn stage(n: u32) -> Vec<Element> {
    let mut els = vec![
        doc("Order steps"),
        text("e2", Role::Heading, "Place an order"),
    ];
    match n {
        1 => els.extend([
            text("e4", Role::Group, "Your name"),
            under(field("e7", "Name"), "e4"),
            under(button("e8", "Next"), "e4"),
        ]),
        2 => {
            let radio = |id: &str, name: &str, on: bool| {
                let mut r = under(el(id, Role::Radio, name, &[K::Click]), "e11");
                r.selected = Some(on);
                r
            };
            els.extend([
                text("e10", Role::Group, "Delivery"),
                under(text("e11", Role::Group, "Shipping"), "e10"),
                radio("e12", "Standard", true),
                radio("e13", "Express", false),
                under(button("e14", "Next"), "e10"),
            ])
        }
        3 => els.extend([
            text("e20", Role::Group, "Review"),
            under(
                text("e21", Role::Paragraph, "Name: Ada. Shipping: Express."),
                "e20",
            ),
            under(button("e22", "Confirm"), "e20"),
        ]),
        _ => els.push(text("e30", Role::Status, "Order confirmed")),
    }
    els
}
