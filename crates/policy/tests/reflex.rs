//! The reflex policy on snapshots built in code, shaped like what the browser backend
//! reports for real pages (ids, roles, names, values, states, offered actions, bounds,
//! metadata). Flows run through the real executor over a small state-machine page.

use arc_core::{
    Action, ActionKind as K, Bounds, DecideContext, Decision, Element, ExecutableAction,
    ExecutionResult, Executor, Role, RuntimeConfig, ScrollDirection, SettleConfig, Snapshot,
    Source, StepOutcome, Subtask, TerminalKind,
};
use arc_policy::ReflexPolicy;
use arc_sim::StateMachineBackend;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

// ---- building pages -------------------------------------------------------------------

fn el(id: &str, role: Role, name: &str, actions: &[K]) -> Element {
    let mut e = Element::new(id, role, name);
    e.actions = actions.iter().copied().collect();
    e.source = Source::Sim;
    e.parent_id = Some("e1".into());
    e
}

fn doc(title: &str) -> Element {
    let mut e = el("e1", Role::Document, title, &[]);
    e.parent_id = None;
    e
}

fn text(id: &str, role: Role, name: &str) -> Element {
    el(id, role, name, &[])
}

fn field(id: &str, name: &str) -> Element {
    el(
        id,
        Role::TextField,
        name,
        &[K::Click, K::TypeText, K::SetValue],
    )
}

fn button(id: &str, name: &str) -> Element {
    el(id, Role::Button, name, &[K::Click])
}

fn checkbox(id: &str, name: &str, checked: bool) -> Element {
    let mut e = el(id, Role::CheckBox, name, &[K::Click]);
    e.selected = Some(checked);
    e
}

fn under(mut e: Element, parent: &str) -> Element {
    e.parent_id = Some(parent.into());
    e
}

fn at(mut e: Element, x: f64, y: f64, w: f64, h: f64) -> Element {
    e.bounds = Some(Bounds {
        x,
        y,
        width: w,
        height: h,
    });
    e
}

fn meta(mut e: Element, key: &str, value: &str) -> Element {
    e.metadata.insert(key.into(), value.into());
    e
}

fn value(mut e: Element, v: &str) -> Element {
    e.value = Some(v.into());
    e
}

fn subtask(v: Value) -> Subtask {
    Subtask::from_value(v).expect("a valid subtask")
}

/// One decision on one snapshot with no history.
fn decide(task: &Subtask, els: Vec<Element>) -> Decision {
    let snapshot = Arc::new(Snapshot::new("sim", "page", els));
    ReflexPolicy::new().decide_now(DecideContext {
        subtask: task,
        snapshot: &snapshot,
        history: &[],
        cycle: 1,
    })
}

fn terminal(d: &Decision) -> Option<TerminalKind> {
    match d.choice {
        arc_core::Choice::Terminal(t) => Some(t),
        _ => None,
    }
}

// ---- a page as a state machine --------------------------------------------------------

type Hook = Box<dyn Fn(&mut Page, &ExecutableAction) + Send + Sync>;

/// A page: its elements, the URL, a log of what reached it, and a hook for page logic.
struct Page {
    els: Vec<Element>,
    url: String,
    log: Vec<String>,
    hook: Arc<Hook>,
    observed: Arc<AtomicU32>,
    /// An element that shows up once the page has been observed this many times.
    late: Option<(u32, Element)>,
}

impl Page {
    fn new(
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

    fn get(&mut self, id: &str) -> Option<&mut Element> {
        self.els.iter_mut().find(|e| e.id.as_str() == id)
    }

    fn value_of(&self, id: &str) -> String {
        self.els
            .iter()
            .find(|e| e.id.as_str() == id)
            .and_then(|e| e.value.as_ref())
            .map(|v| v.as_text().into_owned())
            .unwrap_or_default()
    }

    fn show(&mut self, e: Element) {
        self.els.retain(|x| x.id != e.id);
        self.els.push(e);
    }

    fn remove(&mut self, ids: &[&str]) {
        self.els.retain(|e| !ids.contains(&e.id.as_str()));
    }
}

/// What a browser does on its own: typing sets values, selecting picks an option,
/// clicking a checkbox toggles it, a radio or tab is selected among its siblings.
fn native(page: &mut Page, a: &ExecutableAction) {
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

fn backend(page: Page) -> StateMachineBackend<Page> {
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
            s.context.insert("url".into(), p.url.clone().into());
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

fn config() -> RuntimeConfig {
    RuntimeConfig {
        settle: SettleConfig::immediate(),
        wait: Duration::ZERO,
        ..RuntimeConfig::default()
    }
}

/// Runs the subtask on the page; returns the result, the page and every decision made.
async fn run(page: Page, task: &Subtask) -> (ExecutionResult, Page, Vec<Decision>) {
    run_with(page, task, config()).await
}

async fn run_with(
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

fn on_click(
    id: &'static str,
    f: impl Fn(&mut Page) + Send + Sync + 'static,
) -> impl Fn(&mut Page, &ExecutableAction) + Send + Sync {
    move |p, a| {
        if a.kind() == K::Click && a.target().is_some_and(|t| t.as_str() == id) {
            f(p)
        }
    }
}

// ---- pages shaped like the fixture site ------------------------------------------------

fn contact_form() -> Vec<Element> {
    vec![
        doc("Contact form"),
        text("e2", Role::Heading, "Contact us"),
        meta(field("e4", "First name"), "name_attr", "first"),
        meta(field("e6", "Last name"), "name_attr", "last"),
        meta(field("e8", "Message"), "name_attr", "message"),
        meta(button("e9", "Submit"), "input_type", "submit"),
    ]
}

fn thank_you(p: &mut Page) {
    let msg = format!("Thank you, {} {}", p.value_of("e4"), p.value_of("e6"));
    p.show(text("e10", Role::Status, &msg));
}

#[tokio::test]
async fn fills_a_form_top_to_bottom_then_submits() {
    let task = subtask(json!({
        "goal": "Fill in the message, the last name and the first name, then submit the form",
        "inputs": {"message": "Hi", "last_name": "Lovelace", "first_name": "Ada"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let (result, page, decisions) =
        run(Page::new(contact_form(), on_click("e9", thank_you)), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "TYPE_TEXT e6", "TYPE_TEXT e8", "CLICK e9"]
    );
    assert_eq!(page.value_of("e8"), "Hi");
    // Every decision carries its confidence and margin.
    assert_eq!(decisions.len(), 5);
    for d in &decisions {
        let (c, m) = (d.confidence.unwrap(), d.margin.unwrap());
        assert!(
            (0.0..=1.0).contains(&c) && (0.0..=1.0).contains(&m),
            "{d:?}"
        );
    }
    assert_eq!(decisions[0].confidence, Some(1.0), "an exact label");
}

#[tokio::test]
async fn submits_a_filled_form_the_goal_did_not_say_to_submit() {
    let task = subtask(json!({
        "goal": "Fill in the contact form",
        "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hi"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let (result, page, decisions) =
        run(Page::new(contact_form(), on_click("e9", thank_you)), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(page.log.last().map(String::as_str), Some("CLICK e9"));
    let submit = &decisions[3];
    assert!(
        submit.confidence.unwrap() < 0.7,
        "an inferred submit is less certain: {submit:?}"
    );
}

fn signup(email: &str, plan: &str, terms: bool) -> Vec<Element> {
    let mut select = el("e6", Role::ComboBox, "Plan", &[K::Click, K::SelectOption]);
    select.value = Some(plan.into());
    select.expanded = Some(false);
    let option = |id: &str, name: &str| {
        let mut o = under(el(id, Role::Option, name, &[K::Click]), "e6");
        o.selected = Some(name == plan);
        o
    };
    let mut email_field = meta(field("e4", "Email"), "input_type", "email");
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
        meta(button("e11", "Sign up"), "input_type", "submit"),
    ]
}

fn welcome(p: &mut Page) {
    let msg = format!(
        "Welcome, {}! Your {} account is ready.",
        p.value_of("e4"),
        p.value_of("e6")
    );
    p.show(text("e13", Role::Status, &msg));
}

fn signup_task() -> Subtask {
    subtask(json!({
        "goal": "Sign up with the email address, choose the plan and accept the terms",
        "inputs": {"email": "ada@example.com", "plan": "Pro"},
        "verification": ["The page shows \"Welcome, ada@example.com! Your Pro account is ready.\""]
    }))
}

#[tokio::test]
async fn signs_up_typing_selecting_checking_then_submitting() {
    let (result, page, _) = run(
        Page::new(signup("", "Free", false), on_click("e11", welcome)),
        &signup_task(),
    )
    .await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "SELECT_OPTION e6", "CLICK e10", "CLICK e11"]
    );
}

#[tokio::test]
async fn steps_already_satisfied_are_skipped() {
    let page = Page::new(
        signup("ada@example.com", "Pro", true),
        on_click("e11", welcome),
    );
    let (result, page, _) = run(page, &signup_task()).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(page.log, ["CLICK e11"]);
}

#[tokio::test]
async fn waits_for_a_confirmation_that_comes_late() {
    // A slow server: the confirmation shows a few observations after the click.
    let page = Page::new(
        signup("", "Free", false),
        |p: &mut Page, a: &ExecutableAction| {
            if a.kind() == K::Click && a.target().is_some_and(|t| t.as_str() == "e11") {
                let now = p.observed.load(Ordering::Relaxed);
                let msg = "Welcome, ada@example.com! Your Pro account is ready.";
                p.late = Some((now + 3, text("e13", Role::Status, msg)));
            }
        },
    );
    let (result, page, _) = run(page, &signup_task()).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "SELECT_OPTION e6", "CLICK e10", "CLICK e11"]
    );
    let waits = result
        .history
        .iter()
        .filter(|r| r.action.kind() == K::Wait)
        .count();
    assert!((1..=2).contains(&waits), "{:?}", result.history);
}

// ---- grounding ------------------------------------------------------------------------

fn typed_into(d: &Decision) -> Option<(String, String)> {
    match d.action()? {
        Action::TypeText { target, input_key } => Some((target.to_string(), input_key.clone())),
        _ => None,
    }
}

#[test]
fn an_unnamed_field_takes_the_text_sibling_before_it() {
    let task = subtask(
        json!({"goal": "Enter the email address", "inputs": {"email": "a@b.c"},
        "verification": ["The page shows Done"]}),
    );
    let els = vec![
        doc("Form"),
        text("e2", Role::Group, ""),
        under(text("e3", Role::StaticText, "Email address:"), "e2"),
        under(field("e4", ""), "e2"),
        under(text("e5", Role::StaticText, "Phone:"), "e2"),
        under(field("e6", ""), "e2"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e4".into(), "email".into()))
    );
}

#[test]
fn an_unnamed_field_takes_the_text_just_before_it_in_document_order() {
    let task = subtask(
        json!({"goal": "Enter the phone number", "inputs": {"phone": "555"},
        "verification": ["The page shows Done"]}),
    );
    let els = vec![
        doc("Form"),
        text("e2", Role::Paragraph, "Phone number"),
        text("e3", Role::Group, ""),
        under(field("e4", ""), "e3"),
        text("e5", Role::Paragraph, "Fax"),
        text("e6", Role::Group, ""),
        under(field("e7", ""), "e6"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e4".into(), "phone".into()))
    );
}

#[test]
fn an_unnamed_field_takes_the_text_left_of_it_on_its_row() {
    let task = subtask(
        json!({"goal": "Fill in the city", "inputs": {"city": "Paris"},
        "verification": ["The page shows Done"]}),
    );
    // Document order puts a control between the label and the field; the layout does not.
    let els = vec![
        doc("Form"),
        at(
            text("e2", Role::StaticText, "City"),
            10.0,
            100.0,
            40.0,
            20.0,
        ),
        at(
            text("e3", Role::StaticText, "Country"),
            10.0,
            140.0,
            60.0,
            20.0,
        ),
        at(button("e4", "Help"), 400.0, 300.0, 50.0, 20.0),
        at(field("e5", ""), 80.0, 138.0, 150.0, 24.0),
        at(field("e6", ""), 60.0, 98.0, 150.0, 24.0),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e6".into(), "city".into()))
    );
}

#[test]
fn a_placeholder_or_dom_name_grounds_a_field() {
    let task = subtask(
        json!({"goal": "Search for the product", "inputs": {"search": "lamp"},
        "verification": ["The page shows Results"]}),
    );
    let els = vec![
        doc("Shop"),
        meta(field("e2", ""), "placeholder", "Search products"),
        meta(field("e3", ""), "name_attr", "newsletter_email"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e2".into(), "search".into()))
    );
    let task = subtask(
        json!({"goal": "Enter the postcode", "inputs": {"postCode": "75001"},
        "verification": ["The page shows Done"]}),
    );
    let els = vec![
        doc("Shop"),
        meta(field("e2", ""), "name_attr", "post_code"),
        field("e3", "Notes"),
    ];
    assert_eq!(
        typed_into(&decide(&task, els)),
        Some(("e2".into(), "postCode".into()))
    );
}

#[test]
fn two_fields_matching_an_input_equally_need_an_agent() {
    let task = subtask(json!({"goal": "Enter the name", "inputs": {"name": "Ada"},
        "verification": ["The page shows Done"]}));
    let els = vec![
        doc("Form"),
        text("e2", Role::Heading, "Billing"),
        text("e3", Role::Group, "Billing"),
        under(field("e4", "Name"), "e3"),
        text("e5", Role::Heading, "Shipping"),
        text("e6", Role::Group, "Shipping"),
        under(field("e7", "Name"), "e6"),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert_eq!(
        d.reason.as_deref(),
        Some("two fields match input \"name\" equally: e4 \"Name\", e7 \"Name\"")
    );
}

#[test]
fn a_quoted_target_that_does_not_exist_needs_an_agent() {
    let task = subtask(json!({"goal": "Click the \"Checkout\" button",
        "verification": ["The page shows \"Order placed\""]}));
    let els = vec![
        doc("Empty shop"),
        text("e2", Role::Heading, "Shop"),
        text("e3", Role::Paragraph, "Nothing to buy here"),
        el("e4", Role::Link, "Home", &[K::Click]),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert_eq!(d.reason.as_deref(), Some("no element matches \"Checkout\""));
}

#[test]
fn two_equal_buttons_are_a_tie_not_a_guess() {
    let task = subtask(json!({"goal": "Click the \"Delete\" button",
        "verification": ["The page shows Deleted"]}));
    let els = vec![
        doc("List"),
        button("e2", "Delete"),
        button("e3", "Delete"),
        button("e4", "Edit"),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert_eq!(
        d.reason.as_deref(),
        Some("two elements match \"Delete\" equally: e2 \"Delete\", e3 \"Delete\"")
    );
}

#[test]
fn role_words_break_a_tie_between_a_link_and_a_tab() {
    let task = subtask(
        json!({"goal": "Open the Details tab", "verification": ["The Details tab is selected"]}),
    );
    let mut tab = el("e3", Role::Tab, "Details", &[K::Click]);
    tab.selected = Some(false);
    let els = vec![
        doc("Product"),
        el("e2", Role::Link, "Details", &[K::Click]),
        tab,
    ];
    let d = decide(&task, els);
    assert_eq!(
        d.action(),
        Some(&Action::Click {
            target: "e3".into()
        })
    );
}

#[test]
fn a_typo_in_a_quoted_target_still_grounds() {
    let task = subtask(
        json!({"goal": "Press the \"Sumbit\" button", "verification": ["The page shows Sent"]}),
    );
    let els = vec![doc("Form"), button("e2", "Submit"), button("e3", "Cancel")];
    let d = decide(&task, els);
    assert_eq!(
        d.action(),
        Some(&Action::Click {
            target: "e2".into()
        })
    );
    assert!(d.confidence.unwrap() < 0.9);
}

#[test]
fn text_the_subtask_does_not_supply_is_asked_for() {
    let task = subtask(
        json!({"goal": "Type \"hello\" into the search box", "verification": ["The page shows Results"]}),
    );
    let d = decide(&task, vec![doc("Shop"), field("e2", "Search")]);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsInput), "{d:?}");
}

// ---- verification ---------------------------------------------------------------------

#[tokio::test]
async fn never_completes_while_a_criterion_is_unmet() {
    let task = subtask(json!({"goal": "Click the \"Submit\" button",
        "verification": ["The page shows Payment accepted"]}));
    let els = vec![
        doc("Order payment"),
        text("e2", Role::Heading, "Payment"),
        button("e3", "Submit"),
        text("e4", Role::Status, "Not submitted"),
    ];
    let page = Page::new(
        els,
        on_click("e3", |p| p.show(text("e4", Role::Status, "Submitted"))),
    );
    let (result, page, _) = run(page, &task).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    assert_eq!(page.log, ["CLICK e3"]);
    let kinds: Vec<K> = result.history.iter().map(|r| r.action.kind()).collect();
    assert_eq!(kinds, [K::Click, K::Wait, K::Wait]);
    assert_eq!(
        result.reason.as_deref(),
        Some("verification not met: \"The page shows Payment accepted\" (no visible text contains \"payment accepted\")")
    );
}

#[test]
fn a_criterion_it_cannot_read_never_holds() {
    let task = subtask(
        json!({"goal": "Make sure all is well", "verification": ["Everything went fine somehow"]}),
    );
    let d = decide(
        &task,
        vec![
            doc("Anything"),
            text("e2", Role::Heading, "Everything went fine somehow"),
        ],
    );
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent));
    assert!(
        d.reason.unwrap().contains("cannot read"),
        "unreadable criteria count as unmet"
    );
}

#[test]
fn criteria_are_checked_on_the_snapshot() {
    let task = |criterion: &str| {
        subtask(json!({"goal": "Make sure the form is right", "verification": [criterion]}))
    };
    let mut select = el("e5", Role::ComboBox, "Color", &[K::Click]);
    select.value = Some("Green".into());
    let els = || {
        vec![
            doc("Form"),
            value(field("e2", "Email"), "ada@example.com"),
            checkbox("e3", "I accept the terms", true),
            checkbox("e4", "Subscribe", false),
            select.clone(),
            text("e6", Role::Status, "Selected color: Green"),
        ]
    };
    let complete =
        |c: &str| terminal(&decide(&task(c), els())) == Some(TerminalKind::SubtaskComplete);
    assert!(complete("The Email field contains ada@example.com"));
    assert!(complete("\"I accept the terms\" is checked"));
    assert!(complete("The Subscribe checkbox is not checked"));
    assert!(complete("The Color dropdown shows Green"));
    assert!(complete("\"Selected color: Green\" appears"));
    assert!(complete("The status shows Selected color: Green"));
    assert!(!complete("The Email field contains bob@example.com"));
    assert!(!complete("The Subscribe checkbox is checked"));
    assert!(
        !complete("The page shows ada@example.com"),
        "typed text is not what the page says"
    );
    assert!(!complete("The Color dropdown shows Red"));
}

#[test]
fn a_secret_never_appears_in_a_reason() {
    let task = subtask(json!({
        "goal": "Log in with the password",
        "inputs": {"password": "hunter2-very-secret"},
        "secret_inputs": ["password"],
        "verification": ["The page shows hunter2-very-secret"]
    }));
    let mut pw = el(
        "e2",
        Role::PasswordField,
        "Password",
        &[K::Click, K::TypeText, K::SetValue],
    );
    pw.value = Some("•••".into());
    let d = decide(
        &task,
        vec![doc("Login"), pw.clone(), button("e3", "Log in")],
    );
    assert_eq!(typed_into(&d), Some(("e2".into(), "password".into())));
    assert!(!format!("{d:?}").contains("hunter2"), "{d:?}");
    let missing = decide(&task, vec![doc("Login"), button("e3", "Log in")]);
    let reason = missing.reason.unwrap();
    assert!(!reason.contains("hunter2"), "{reason}");
}

// ---- flows ----------------------------------------------------------------------------

fn stage(n: u32) -> Vec<Element> {
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

#[tokio::test]
async fn a_multistep_flow_advances_through_next() {
    let task = subtask(json!({
        "goal": "Enter the name, choose the shipping method and confirm the order",
        "inputs": {"name": "Ada", "shipping": "Express"},
        "verification": ["The page shows \"Order confirmed\""]
    }));
    let hook = |p: &mut Page, a: &ExecutableAction| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        let express = p
            .els
            .iter()
            .any(|e| e.id.as_str() == "e13" && e.selected == Some(true));
        match id.as_str() {
            "e8" if !p.value_of("e7").is_empty() => p.els = stage(2),
            "e14" if express => p.els = stage(3),
            "e22" => p.els = stage(4),
            _ => {}
        }
    };
    let (result, page, _) = run(Page::new(stage(1), hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(
        page.log,
        [
            "TYPE_TEXT e7",
            "CLICK e8",
            "CLICK e13",
            "CLICK e14",
            "CLICK e22"
        ]
    );
}

#[tokio::test]
async fn a_custom_combobox_is_opened_then_its_option_chosen() {
    let task = subtask(
        json!({"goal": "Choose the color", "inputs": {"color": "Blue"},
        "verification": ["The page shows \"Selected color: Blue\""]}),
    );
    let mut combo = el("e15", Role::ComboBox, "Color", &[K::Click]);
    combo.value = Some("Choose a color".into());
    combo.expanded = Some(false);
    let els = vec![
        doc("Dropdowns"),
        combo,
        text("e17", Role::Status, "Selected color: none"),
    ];
    let hook = |p: &mut Page, a: &ExecutableAction| {
        let id = a
            .target()
            .map(|t| t.as_str().to_owned())
            .unwrap_or_default();
        if id == "e15" {
            p.get("e15").unwrap().expanded = Some(true);
            p.show(text("e18", Role::ListBox, "Color"));
            for (oid, name) in [("e19", "Red"), ("e20", "Green"), ("e21", "Blue")] {
                let mut o = under(el(oid, Role::Option, name, &[K::Click]), "e18");
                o.selected = Some(false);
                p.show(o);
            }
        } else if let Some(name) = p
            .els
            .iter()
            .find(|e| e.id.as_str() == id && e.role == Role::Option)
            .map(|e| e.name.clone())
        {
            p.remove(&["e18", "e19", "e20", "e21"]);
            let c = p.get("e15").unwrap();
            c.value = Some(name.as_str().into());
            c.expanded = Some(false);
            p.show(text(
                "e17",
                Role::Status,
                &format!("Selected color: {name}"),
            ));
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(page.log, ["CLICK e15", "CLICK e21"]);
}

#[tokio::test]
async fn an_action_that_changed_nothing_is_not_repeated() {
    let task = subtask(json!({"goal": "Check \"Remember me\" and click \"Log in\"",
        "verification": ["The page shows Welcome"]}));
    let els = vec![
        doc("Login"),
        checkbox("e2", "Remember me", false),
        button("e3", "Log in"),
    ];
    // A broken checkbox: the click lands but nothing changes.
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.target().is_some_and(|t| t.as_str() == "e2") {
            p.get("e2").unwrap().selected = Some(false);
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    assert_eq!(page.log, ["CLICK e2"], "the click is not repeated");
    let reason = result.reason.unwrap();
    assert!(reason.contains("changed nothing"), "{reason}");
}

#[tokio::test]
async fn scrolls_until_the_target_is_on_screen() {
    let task = subtask(
        json!({"goal": "Scroll to the footer", "verification": ["The footer heading is visible"]}),
    );
    let els = vec![
        at(doc("Product"), 0.0, 0.0, 1280.0, 700.0),
        at(
            text("e2", Role::Heading, "Product"),
            32.0,
            32.0,
            1200.0,
            40.0,
        ),
        at(
            text("e14", Role::Heading, "Footer"),
            48.0,
            2300.0,
            1200.0,
            33.0,
        ),
        at(
            text("e15", Role::Paragraph, "You reached the footer."),
            48.0,
            2380.0,
            1200.0,
            22.0,
        ),
    ];
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.action
            == (Action::Scroll {
                direction: ScrollDirection::Down,
                target: None,
            })
        {
            for e in p.els.iter_mut().skip(1) {
                if let Some(b) = e.bounds.as_mut() {
                    b.y -= 600.0;
                }
            }
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    // 2300 → 1700 → 1100 → 500: on screen after three.
    assert_eq!(page.log, ["SCROLL", "SCROLL", "SCROLL"]);
}

#[tokio::test]
async fn presses_a_key_and_navigates_to_an_input_url() {
    let task = subtask(json!({"goal": "Type the search terms and press Enter",
        "inputs": {"search": "lamps"}, "verification": ["The page shows \"Results for lamps\""]}));
    let els = vec![
        doc("Shop"),
        el("e2", Role::TextField, "Search", &[K::Click, K::TypeText]),
    ];
    let hook = |p: &mut Page, a: &ExecutableAction| {
        if a.kind() == K::PressKey {
            let q = p.value_of("e2");
            p.show(text("e3", Role::Heading, &format!("Results for {q}")));
        }
    };
    let (result, page, _) = run(Page::new(els, hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(page.log, ["TYPE_TEXT e2", "PRESS_KEY"]);

    let task = subtask(
        json!({"goal": "Go to the docs page", "inputs": {"docs_url": "https://app.invalid/docs"},
        "verification": ["The URL contains /docs"]}),
    );
    let (result, page, _) = run(Page::new(vec![doc("Home")], |_, _| {}), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?} {:?}",
        result.reason,
        page.log
    );
    assert_eq!(page.url, "https://app.invalid/docs");
}

// ---- it never knows where it is -------------------------------------------------------

#[test]
fn the_policy_source_holds_no_page_or_task_specific_strings() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/reflex");
    let forbidden = [
        ".html",
        "fixture",
        "Checkout",
        "Payment",
        "Order confirmed",
        "Welcome",
        "example.com",
        "Express",
        "Germany",
        "Details",
        "First name",
        "Thank you",
        "Create your account",
        "accept the terms",
        "miniwob",
        "webarena",
        "osworld",
    ];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        // Unit tests may use page-like strings; the policy itself may not. (Lower-case
        // "checkout" is an ordinary verb of the vocabulary; "Checkout" a page's label.)
        let code = src.split("#[cfg(test)]").next().unwrap();
        for word in forbidden {
            assert!(!code.contains(word), "{} mentions {word:?}", path.display());
        }
    }
}

#[test]
fn a_click_the_goal_puts_after_an_unplaced_input_waits_for_it() {
    let task = subtask(json!({"goal": "Type the query and press Enter",
        "inputs": {"query": "lamps"}, "verification": ["The page shows \"Results for lamps\""]}));
    let d = decide(
        &task,
        vec![
            doc("Shop"),
            el("e2", Role::TextField, "Search", &[K::Click, K::TypeText]),
        ],
    );
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent), "{d:?}");
    assert_eq!(
        d.reason.as_deref(),
        Some("no field matches input \"query\"")
    );
}

#[tokio::test]
async fn a_form_that_clears_itself_after_submit_is_not_filled_again() {
    let task = subtask(json!({
        "goal": "Fill in the first name, last name and message and submit the form",
        "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hi"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let hook = on_click("e9", |p| {
        thank_you(p);
        for id in ["e4", "e6", "e8"] {
            p.get(id).unwrap().value = None;
        }
    });
    let (result, page, _) = run(Page::new(contact_form(), hook), &task).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
    assert_eq!(
        page.log,
        ["TYPE_TEXT e4", "TYPE_TEXT e6", "TYPE_TEXT e8", "CLICK e9"]
    );
}

#[tokio::test]
async fn a_disabled_target_is_waited_for_then_handed_back() {
    let task =
        subtask(json!({"goal": "Click \"Continue\"", "verification": ["The page shows Step 2"]}));
    let mut next = button("e2", "Continue");
    next.enabled = false;
    let (result, page, _) = run(Page::new(vec![doc("Wizard"), next], |_, _| {}), &task).await;
    assert_eq!(result.status, TerminalKind::NeedsAgent);
    assert!(page.log.is_empty(), "{:?}", page.log);
    assert_eq!(
        result.reason.as_deref(),
        Some("e2 \"Continue\" stays disabled (\"Continue\" → e2 \"Continue\")")
    );
}

#[test]
fn unchecks_expands_and_selects_what_the_goal_names() {
    let d = decide(
        &subtask(json!({"goal": "Uncheck \"Subscribe to the newsletter\"",
            "verification": ["\"Subscribe to the newsletter\" is not checked"]})),
        vec![
            doc("Settings"),
            checkbox("e2", "Remember me", true),
            checkbox("e3", "Subscribe to the newsletter", true),
        ],
    );
    assert_eq!(
        d.action(),
        Some(&Action::Click {
            target: "e3".into()
        })
    );

    let mut section = button("e2", "Advanced options");
    section.expanded = Some(false);
    let d = decide(
        &subtask(
            json!({"goal": "Expand the advanced options", "verification": ["The page shows Proxy"]}),
        ),
        vec![doc("Settings"), section.clone()],
    );
    assert_eq!(
        d.action(),
        Some(&Action::Click {
            target: "e2".into()
        })
    );
    section.expanded = Some(true);
    let d = decide(
        &subtask(
            json!({"goal": "Expand the advanced options", "verification": ["The page shows Proxy"]}),
        ),
        vec![
            doc("Settings"),
            section,
            text("e3", Role::StaticText, "Proxy"),
        ],
    );
    assert_eq!(terminal(&d), Some(TerminalKind::SubtaskComplete), "{d:?}");

    let radio = |id: &str, name: &str| {
        let mut r = under(el(id, Role::Radio, name, &[K::Click]), "e2");
        r.selected = Some(false);
        r
    };
    let d = decide(
        &subtask(json!({"goal": "Select the \"Overnight\" delivery option",
            "verification": ["\"Overnight\" is selected"]})),
        vec![
            doc("Checkout"),
            text("e2", Role::Group, "Delivery"),
            radio("e3", "Standard"),
            radio("e4", "Overnight"),
        ],
    );
    assert_eq!(
        d.action(),
        Some(&Action::Click {
            target: "e4".into()
        })
    );
}

#[test]
fn a_submit_verb_does_not_click_what_only_its_object_names() {
    let task = subtask(
        json!({"goal": "Confirm the order", "verification": ["The page shows \"Order confirmed\""]}),
    );
    let d = decide(
        &task,
        vec![
            doc("Shop"),
            el("e2", Role::Link, "Order history", &[K::Click]),
        ],
    );
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent), "{d:?}");
    assert_eq!(
        d.reason.as_deref(),
        Some("no element matches \"confirm the order\"")
    );
}

#[test]
fn a_pager_next_is_not_taken_for_a_form_stage_on_an_untouched_page() {
    let task = subtask(
        json!({"goal": "Enter the coupon and apply it", "inputs": {"coupon": "SAVE10"},
        "verification": ["The page shows \"Coupon applied\""]}),
    );
    let els = vec![
        doc("Orders"),
        text("e2", Role::Table, "Orders"),
        el("e3", Role::Link, "Next page", &[K::Click]),
        button("e4", "Apply"),
    ];
    let d = decide(&task, els);
    assert_eq!(terminal(&d), Some(TerminalKind::NeedsAgent), "{d:?}");
    assert_eq!(
        d.reason.as_deref(),
        Some("no field matches input \"coupon\"")
    );
}

#[tokio::test]
async fn a_confidence_gate_refuses_inferred_steps_but_not_grounded_ones() {
    let gated = RuntimeConfig {
        min_confidence: Some(0.7),
        ..config()
    };
    let task = subtask(json!({
        "goal": "Fill in the contact form",
        "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hi"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let page = Page::new(contact_form(), on_click("e9", thank_you));
    let (result, page, _) = run_with(page, &task, gated.clone()).await;
    assert_eq!(result.termination, arc_core::Termination::LowConfidence);
    assert_eq!(page.log, ["TYPE_TEXT e4", "TYPE_TEXT e6", "TYPE_TEXT e8"]);

    let task = subtask(json!({
        "goal": "Fill in the contact form and submit it",
        "inputs": {"first_name": "Ada", "last_name": "Lovelace", "message": "Hi"},
        "verification": ["The page shows \"Thank you, Ada Lovelace\""]
    }));
    let page = Page::new(contact_form(), on_click("e9", thank_you));
    let (result, _, _) = run_with(page, &task, gated).await;
    assert_eq!(
        result.status,
        TerminalKind::SubtaskComplete,
        "{:?}",
        result.reason
    );
}
