//! The built-in simulated app: a sign-up form with an email field, a plan dropdown, a
//! terms checkbox and a submit button; the confirmation appears 300 ms after a valid
//! submit, while the app reports itself busy (as a page with a request in flight would).

use crate::machine::StateMachineBackend;
use arc_core::{
    Action, ActionKind, ActionSet, BackendError, Decision, Element, ExecutableAction,
    InvalidDecision, Role, Snapshot, Source, Subtask, TerminalKind,
};
use std::time::Duration;
use tokio::time::Instant;

/// How long the simulated server takes to confirm a sign-up.
pub const CONFIRM_DELAY: Duration = Duration::from_millis(300);

pub const PLANS: [&str; 3] = ["Free", "Pro", "Team"];

#[derive(Clone, Debug)]
pub struct SignupState {
    pub email: String,
    pub plan: &'static str,
    pub plan_open: bool,
    pub terms: bool,
    pub error: Option<String>,
    /// When a valid submit happened, and what it carried.
    pub submitted: Option<(Instant, String, &'static str)>,
    /// Every action the app received, in order, as `KIND target` (the test oracle).
    pub received: Vec<String>,
}

impl Default for SignupState {
    fn default() -> Self {
        SignupState {
            email: String::new(),
            plan: PLANS[0],
            plan_open: false,
            terms: false,
            error: None,
            submitted: None,
            received: Vec::new(),
        }
    }
}

impl SignupState {
    fn pending(&self) -> bool {
        self.submitted
            .as_ref()
            .is_some_and(|(at, ..)| at.elapsed() < CONFIRM_DELAY)
    }

    /// The confirmation text, once the delay has passed.
    pub fn confirmation(&self) -> Option<String> {
        match &self.submitted {
            Some((at, email, plan)) if at.elapsed() >= CONFIRM_DELAY => {
                Some(format!("Welcome, {email}! Your {plan} account is ready."))
            }
            _ => None,
        }
    }
}

pub struct SignupApp;

impl SignupApp {
    pub fn backend() -> StateMachineBackend<SignupState> {
        StateMachineBackend::new(SignupState::default(), snapshot, transition)
            .with_busy(SignupState::pending)
    }

    /// The subtask the demo runs.
    pub fn demo_subtask() -> Subtask {
        let mut s = Subtask::new(
            "Sign up for a Pro account with the given email address",
            "The page shows \"Welcome, ada@example.com! Your Pro account is ready.\"",
        )
        .with_input("email", "ada@example.com")
        .with_input("plan", "Pro");
        s.constraints
            .push("Do not choose a paid plan other than Pro".into());
        s.max_actions = 10;
        s
    }

    /// The decisions the demo's scripted policy replays.
    pub fn demo_script() -> Vec<Decision> {
        let id = |s: &str| arc_core::ElementId::from(s);
        vec![
            Decision::act(Action::type_text(id("email"), "email")),
            Decision::act(Action::click(id("plan"))),
            Decision::act(Action::click(id("plan-pro"))),
            Decision::act(Action::click(id("terms"))),
            Decision::act(Action::click(id("submit"))),
            Decision::terminal(TerminalKind::SubtaskComplete)
                .with_reason("the confirmation is shown"),
        ]
    }
}

fn el(id: &str, role: Role, name: &str, actions: ActionSet) -> Element {
    let mut e = Element::new(id, role, name);
    e.actions = actions;
    e.source = Source::Sim;
    e
}

fn snapshot(s: &SignupState) -> Snapshot {
    use ActionKind::*;
    let mut out = vec![el(
        "heading",
        Role::Heading,
        "Create your account",
        ActionSet::EMPTY,
    )];
    let mut email = el(
        "email",
        Role::TextField,
        "Email",
        [Click, TypeText, SetValue].into(),
    );
    email.value = Some(s.email.clone().into());
    out.push(email);
    let mut plan = el("plan", Role::ComboBox, "Plan", [Click, SelectOption].into());
    plan.value = Some(s.plan.into());
    plan.expanded = Some(s.plan_open);
    out.push(plan);
    if s.plan_open {
        let mut list = el("plan-list", Role::ListBox, "Plan", ActionSet::EMPTY);
        list.parent_id = Some("plan".into());
        out.push(list);
        for p in PLANS {
            let mut opt = el(
                &format!("plan-{}", p.to_lowercase()),
                Role::Option,
                p,
                [Click].into(),
            );
            opt.selected = Some(s.plan == p);
            opt.parent_id = Some("plan-list".into());
            out.push(opt);
        }
    }
    let mut terms = el(
        "terms",
        Role::CheckBox,
        "I accept the terms",
        [Click].into(),
    );
    terms.selected = Some(s.terms);
    out.push(terms);
    let pending = s.pending();
    let mut submit = el(
        "submit",
        Role::Button,
        if pending { "Signing up…" } else { "Sign up" },
        [Click].into(),
    );
    submit.enabled = !pending;
    out.push(submit);
    if let Some(err) = &s.error {
        out.push(el("error", Role::Alert, err, ActionSet::EMPTY));
    }
    if let Some(text) = s.confirmation() {
        out.push(el("confirmation", Role::Status, &text, ActionSet::EMPTY));
    }
    Snapshot::new("Sign-up (simulated)", "Create your account", out)
}

fn transition(s: &mut SignupState, a: &ExecutableAction) -> Result<(), BackendError> {
    let target = a.target().map(|t| t.as_str()).unwrap_or("");
    s.received
        .push(format!("{} {target}", a.kind()).trim_end().to_owned());
    match (&a.action, target) {
        (Action::TypeText { .. } | Action::SetValue { .. }, "email") => {
            s.email = a.text().into_owned()
        }
        (Action::Click { .. }, "plan") => s.plan_open = !s.plan_open,
        (Action::Click { .. }, opt) if opt.starts_with("plan-") => {
            let name = PLANS
                .iter()
                .find(|p| format!("plan-{}", p.to_lowercase()) == opt);
            s.plan = name.ok_or_else(|| BackendError::stale(a.target(), "no such option"))?;
            s.plan_open = false;
        }
        (Action::SelectOption { .. }, "plan") => {
            let want = a.text();
            s.plan = PLANS
                .iter()
                .find(|p| p.eq_ignore_ascii_case(&want))
                .ok_or_else(|| {
                    InvalidDecision::new("input_key", format!("{want:?} is not a plan ({PLANS:?})"))
                })?;
        }
        (Action::Click { .. }, "terms") => s.terms = !s.terms,
        (Action::Click { .. }, "submit") => submit(s),
        (
            Action::Click { .. } | Action::Wait | Action::PressKey { .. } | Action::Scroll { .. },
            _,
        ) => {}
        _ => {
            return Err(BackendError::Unsupported {
                kind: a.kind(),
                backend: "sim",
            })
        }
    }
    Ok(())
}

fn submit(s: &mut SignupState) {
    s.error = None;
    if !s.email.contains('@') {
        s.error = Some("Enter a valid email address".into());
    } else if !s.terms {
        s.error = Some("You must accept the terms".into());
    } else {
        s.submitted = Some((Instant::now(), s.email.clone(), s.plan));
    }
}
