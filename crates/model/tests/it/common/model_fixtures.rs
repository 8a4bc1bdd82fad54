//! Snapshots, subtasks and configs shared by the model-policy tests.
#![allow(dead_code)]

use arc_core::{
    Action, ActionKind, ActionRecord, ActionSet, DecideContext, Decision, Element,
    ExecutableAction, Policy, PolicyError, Role, Scalar, SettleEnd, SettleReport, Snapshot, Source,
    Subtask,
};
use arc_model::ModelConfig;
use std::sync::Arc;
use std::time::Duration;

pub const SECRET: &str = "hunter2-S3CRET";

fn el(id: &str, role: Role, name: &str, actions: ActionSet) -> Element {
    let mut e = Element::new(id, role, name);
    e.actions = actions;
    e.source = Source::Sim;
    e
}

/// A sign-in form with every kind of element the space must tell apart: offered,
/// disabled, hidden, non-actionable, right-click only.
pub fn form_elements(email: &str) -> Vec<Element> {
    use ActionKind::*;
    let mut email_field = el("email", Role::TextField, "Email", [Click, TypeText].into());
    email_field.value = Some(email.into());
    let mut locked = el("locked", Role::Button, "Delete account", [Click].into());
    locked.enabled = false;
    let mut ghost = el("ghost", Role::Button, "Hidden", [Click].into());
    ghost.visible = false;
    let mut remember = el("remember", Role::CheckBox, "Remember me", [Click].into());
    remember.selected = Some(false);
    vec![
        el("heading", Role::Heading, "Sign in", ActionSet::EMPTY),
        email_field,
        el(
            "password",
            Role::PasswordField,
            "Password",
            [Click, TypeText].into(),
        ),
        remember,
        locked,
        ghost,
        el("note", Role::StaticText, "Welcome back", ActionSet::EMPTY),
        el("more", Role::MenuItem, "More", [RightClick].into()),
        el("submit", Role::Button, "Sign in", [Click].into()),
    ]
}

pub fn form_snapshot() -> Arc<Snapshot> {
    Arc::new(Snapshot::new("Example", "Sign in", form_elements("")))
}

pub fn form_subtask() -> Subtask {
    let mut s = Subtask::new(
        "Sign in with the given email address and password",
        "The page shows \"Signed in\"",
    )
    .with_input("email", "ada@example.com")
    .with_input("password", SECRET);
    s.verification
        .push("The email field contains ada@example.com".into());
    s.constraints.push("Do not delete the account".into());
    s.secret_inputs.insert("password".into());
    s.max_actions = 10;
    s
}

/// The form after the secret was typed where it shows (a plain field, a toast, the
/// title), with a subtask whose criterion quotes it.
pub fn leaky_snapshot() -> Arc<Snapshot> {
    let mut elements = form_elements("ada@example.com");
    let mut shown = el(
        "shown",
        Role::TextField,
        "Password (shown)",
        [ActionKind::Click, ActionKind::TypeText].into(),
    );
    shown.value = Some(SECRET.into());
    elements.push(shown);
    elements.push(el(
        "toast",
        Role::Status,
        &format!("Saved password {SECRET}"),
        ActionSet::EMPTY,
    ));
    let mut snap = Snapshot::new("Example", format!("Sign in - {SECRET}"), elements);
    snap.facts.url = Some(format!("https://example.test/login?pw={SECRET}"));
    Arc::new(snap)
}

pub fn leaky_subtask() -> Subtask {
    let mut s = form_subtask();
    s.verification
        .push(format!("The shown password field contains {SECRET}").into());
    s
}

/// An executed TYPE_TEXT, as the executor records it.
pub fn typed(step: u32, target: &str, input_key: &str, value: &str, name: &str) -> ActionRecord {
    let action = Action::type_text(target, input_key);
    ActionRecord {
        step,
        decision: Decision::act(action.clone()),
        action: ExecutableAction {
            action,
            target_guard: None,
            secondary_target_guard: None,
            value: Some(Scalar::Text(value.into())),
        },
        target_name: Some(name.into()),
        target_source: Some(Source::Sim),
        target_bounds: None,
        before_revision: "r0".into(),
        after_revision: "r1".into(),
        state_changed: true,
        after_observed: true,
        elapsed_ms: 5,
        settle: SettleReport {
            end: SettleEnd::Quiet,
            elapsed_ms: 3,
            samples: 2,
        },
        landed_elsewhere: None,
        physical_input: false,
        downloads: Vec::new(),
    }
}

/// Short waits so failure paths finish quickly.
pub fn fast_config(base_url: &str) -> ModelConfig {
    let mut c = ModelConfig::new(base_url, "test-model").with_api_key("sk-test-key");
    c.timeout = Duration::from_secs(2);
    c.backoff = Duration::from_millis(10);
    c.retry_after_cap = Duration::from_secs(2);
    c
}

pub async fn decide<P: Policy>(
    policy: &mut P,
    subtask: &Subtask,
    snapshot: &Arc<Snapshot>,
    history: &[ActionRecord],
) -> Result<Decision, PolicyError> {
    policy
        .decide(DecideContext {
            subtask,
            snapshot,
            history,
            cycle: 1,
            verdict: None,
            recent: &[],
        })
        .await
}

/// Every test is bounded: a hang is a failure, not a stuck CI job.
pub async fn bounded<T>(fut: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), fut)
        .await
        .expect("test exceeded 30 s: something hung")
}

/// JSON that keeps object key order, so a golden file shows (and checks) the order the
/// policy sent: the order of schema properties is the order a model answers in.
#[derive(Clone, Debug, PartialEq)]
pub enum OrderedJson {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<OrderedJson>),
    Object(Vec<(String, OrderedJson)>),
}

impl OrderedJson {
    pub fn parse(text: &str) -> OrderedJson {
        serde_json::from_str(text).expect("valid JSON")
    }

    pub fn pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap() + "\n"
    }
}

impl serde::Serialize for OrderedJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            OrderedJson::Null => s.serialize_unit(),
            OrderedJson::Bool(b) => s.serialize_bool(*b),
            OrderedJson::Number(n) => n.serialize(s),
            OrderedJson::String(v) => s.serialize_str(v),
            OrderedJson::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            OrderedJson::Object(pairs) => {
                let mut map = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for OrderedJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = OrderedJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<OrderedJson, E> {
                Ok(OrderedJson::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<OrderedJson, E> {
                Ok(OrderedJson::Bool(b))
            }
            fn visit_u64<E>(self, n: u64) -> Result<OrderedJson, E> {
                Ok(OrderedJson::Number(n.into()))
            }
            fn visit_i64<E>(self, n: i64) -> Result<OrderedJson, E> {
                Ok(OrderedJson::Number(n.into()))
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<OrderedJson, E> {
                serde_json::Number::from_f64(n)
                    .map(OrderedJson::Number)
                    .ok_or_else(|| E::custom("non-finite number"))
            }
            fn visit_str<E>(self, v: &str) -> Result<OrderedJson, E> {
                Ok(OrderedJson::String(v.to_owned()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<OrderedJson, A::Error> {
                let mut items = Vec::new();
                while let Some(i) = a.next_element()? {
                    items.push(i);
                }
                Ok(OrderedJson::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<OrderedJson, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = a.next_entry()? {
                    pairs.push(pair);
                }
                Ok(OrderedJson::Object(pairs))
            }
        }
        d.deserialize_any(V)
    }
}
