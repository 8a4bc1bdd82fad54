//! The planner's bounded subtask and its JSON boundary.
//!
//! Wire-compatible with the reference `subtask_from_dict`: the same keys, the same
//! validation, unknown fields rejected; plus `allowed_risks`, `secret_inputs` and
//! `shortcuts`. Every error names the offending field.

use crate::error::{ContractError, ErrorCode};
use crate::key::Chord;
use crate::risk::Risk;
use crate::scalar::Scalar;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub const DEFAULT_MAX_ACTIONS: u32 = 30;

fn default_max_actions() -> u32 {
    DEFAULT_MAX_ACTIONS
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subtask {
    pub goal: String,
    #[serde(deserialize_with = "criteria")]
    pub verification: Vec<String>,
    #[serde(default)]
    pub inputs: BTreeMap<String, Scalar>,
    #[serde(default)]
    pub constraints: Vec<String>,
    #[serde(default = "default_max_actions")]
    pub max_actions: u32,
    /// Opaque pass-through for the caller; never read by the runtime.
    #[serde(default)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    pub allowed_risks: BTreeSet<Risk>,
    #[serde(default)]
    pub secret_inputs: BTreeSet<String>,
    #[serde(default)]
    pub shortcuts: Vec<Chord>,
}

/// `verification` must be a list; a bare string is a common planner slip, named as such.
fn criteria<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Criteria {
        List(Vec<String>),
        Bare(String),
    }
    match Criteria::deserialize(d) {
        Ok(Criteria::List(v)) => Ok(v),
        Ok(Criteria::Bare(s)) => Err(serde::de::Error::custom(format!(
            "must be a list of criteria, not a bare string (wrap it: [{s:?}])"
        ))),
        Err(_) => Err(serde::de::Error::custom(
            "must be a list of non-empty strings",
        )),
    }
}

impl Subtask {
    /// A subtask with one goal and one criterion; everything else default.
    pub fn new(goal: impl Into<String>, verification: impl Into<String>) -> Self {
        Subtask {
            goal: goal.into(),
            verification: vec![verification.into()],
            inputs: BTreeMap::new(),
            constraints: Vec::new(),
            max_actions: DEFAULT_MAX_ACTIONS,
            metadata: serde_json::Map::new(),
            allowed_risks: BTreeSet::new(),
            secret_inputs: BTreeSet::new(),
            shortcuts: Vec::new(),
        }
    }

    pub fn with_input(mut self, key: impl Into<String>, value: impl Into<Scalar>) -> Self {
        self.inputs.insert(key.into(), value.into());
        self
    }

    /// Parses and validates a JSON payload.
    pub fn from_json(text: &str) -> Result<Subtask, ContractError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let subtask: Subtask = serde_path_to_error::deserialize(de).map_err(|err| {
            let field = err.path().to_string();
            let inner = err.into_inner();
            if inner.is_eof() || (inner.is_syntax() && field == ".") {
                return ContractError::invalid("payload", format!("not valid JSON: {inner}"));
            }
            if inner.to_string().starts_with("number out of range") {
                return ContractError::invalid(field, "must be a finite number");
            }
            let message = inner.to_string();
            // serde reports "unknown field `x`, expected one of …" at the parent path.
            if let Some(rest) = message.strip_prefix("unknown field `") {
                let name = rest.split('`').next().unwrap_or_default();
                return ContractError::new(
                    ErrorCode::UnknownField,
                    name,
                    format!("unknown field `{name}`; allowed: goal, verification, inputs, constraints, max_actions, metadata, allowed_risks, secret_inputs, shortcuts"),
                );
            }
            let field = if field == "." { "payload".to_owned() } else { field };
            ContractError::invalid(field, strip_position(&message))
        })?;
        subtask.validate()?;
        Ok(subtask)
    }

    /// Parses and validates an already-parsed JSON value.
    pub fn from_value(value: serde_json::Value) -> Result<Subtask, ContractError> {
        Subtask::from_json(&value.to_string())
    }

    /// Checks every rule of the contract that types alone do not.
    pub fn validate(&self) -> Result<(), ContractError> {
        if self.goal.trim().is_empty() {
            return Err(ContractError::invalid("goal", "must not be empty"));
        }
        if self.verification.is_empty() {
            return Err(ContractError::invalid(
                "verification",
                "needs at least one criterion",
            ));
        }
        if let Some(i) = self.verification.iter().position(|c| c.trim().is_empty()) {
            return Err(ContractError::invalid(
                format!("verification[{i}]"),
                "must not be empty",
            ));
        }
        if let Some(i) = self.constraints.iter().position(|c| c.trim().is_empty()) {
            return Err(ContractError::invalid(
                format!("constraints[{i}]"),
                "must not be empty",
            ));
        }
        if self.max_actions < 1 {
            return Err(ContractError::invalid(
                "max_actions",
                "must be an integer >= 1",
            ));
        }
        for (key, value) in &self.inputs {
            if key.is_empty() {
                return Err(ContractError::invalid(
                    "inputs",
                    "input names must not be empty",
                ));
            }
            if !value.is_finite() {
                return Err(ContractError::invalid(
                    format!("inputs.{key}"),
                    "must be a finite number",
                ));
            }
        }
        if let Some(missing) = self
            .secret_inputs
            .iter()
            .find(|k| !self.inputs.contains_key(*k))
        {
            return Err(ContractError::invalid(
                "secret_inputs",
                format!("{missing:?} is not a key of inputs"),
            ));
        }
        Ok(())
    }

    /// The literal for an input key, if the planner supplied one.
    pub fn input(&self, key: &str) -> Option<&Scalar> {
        self.inputs.get(key)
    }

    pub fn is_secret(&self, key: &str) -> bool {
        self.secret_inputs.contains(key)
    }

    /// The literal text of every secret input, for redaction.
    pub fn secret_literals(&self) -> Vec<std::borrow::Cow<'_, str>> {
        self.secret_inputs
            .iter()
            .filter_map(|k| self.inputs.get(k))
            .map(Scalar::as_text)
            .collect()
    }

    pub fn allows(&self, risk: Risk) -> bool {
        self.allowed_risks.contains(&risk)
    }
}

/// serde_json appends " at line 1 column 42"; the field path already says where.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}
