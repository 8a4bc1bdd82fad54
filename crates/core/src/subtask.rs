//! The planner's bounded subtask and its JSON boundary.
//!
//! Wire-compatible with the reference `subtask_from_dict`: the same keys, the same
//! validation, unknown fields rejected; plus `allowed_risks`, `secret_inputs` and
//! `shortcuts`. Every error names the offending field.

use crate::check::Criterion;
use crate::error::{clip, clip_quoted, ContractError, ErrorCode, MAX_QUOTED_CHARS};
use crate::key::Chord;
use crate::risk::Risk;
use crate::scalar::{NumberText, Scalar};
use serde::de::{DeserializeSeed, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

pub const DEFAULT_MAX_ACTIONS: u32 = 30;

fn default_max_actions() -> u32 {
    DEFAULT_MAX_ACTIONS
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Subtask {
    /// What to do, in plain words.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub goal: String,
    /// When it is done: sentences (the reference's form) or check objects, all must hold.
    #[serde(deserialize_with = "criteria")]
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub verification: Vec<Criterion>,
    /// Literal values the goal needs, by name (typed exactly as given).
    #[serde(default, deserialize_with = "exact_inputs")]
    pub inputs: BTreeMap<String, Scalar>,
    /// Rules in plain words.
    #[serde(default)]
    pub constraints: Vec<String>,
    /// The action budget.
    #[serde(default = "default_max_actions")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub max_actions: u32,
    /// Opaque pass-through for the caller; never read by the runtime.
    #[serde(default)]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    /// Risky presses this subtask may make (delete, send, purchase, close); none by default.
    #[serde(default)]
    pub allowed_risks: BTreeSet<Risk>,
    /// Names of inputs whose values never leave the process (masked everywhere).
    #[serde(default)]
    pub secret_inputs: BTreeSet<String>,
    /// Key chords the policy may press besides the defaults (`MOD+SHIFT+K`).
    #[serde(default)]
    pub shortcuts: Vec<Chord>,
    /// Files an upload may take, as absolute paths: a file input is given one only
    /// through an input whose value is that path, so the runtime never picks a file.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(length(max = 16)))]
    pub files: Vec<String>,
}

/// The most files one subtask may list.
pub const MAX_FILES: usize = 16;

/// `verification` must be a list; a bare string is a common planner slip, named as such.
/// Each item is read on its own, so an error names its index and field.
fn criteria<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Criterion>, D::Error> {
    struct List;
    impl<'de> Visitor<'de> for List {
        type Value = Vec<Criterion>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of non-empty strings or check objects")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
            Err(E::custom(format!(
                "must be a list of criteria, not a bare string (wrap it: [{:?}])",
                clip(s, MAX_QUOTED_CHARS)
            )))
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(c) = seq.next_element::<Criterion>()? {
                out.push(c);
            }
            Ok(out)
        }
    }
    d.deserialize_any(List)
}

/// `inputs`: a duplicate key is an error naming it (not last-wins), and each number
/// keeps its exact text (see [`NumberText`]), so the literal typed is the one sent.
fn exact_inputs<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Scalar>, D::Error> {
    struct Inputs;
    impl<'de> Visitor<'de> for Inputs {
        type Value = BTreeMap<String, Scalar>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of input names to strings, finite numbers or bools")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut inputs = BTreeMap::new();
            while let Some(key) = map.next_key::<String>()? {
                let duplicate = inputs.contains_key(&key);
                // Errors raised while reading the value carry the path `inputs.<key>`.
                let value = map.next_value_seed(Literal {
                    key: &key,
                    repeated: duplicate,
                })?;
                inputs.insert(key, value);
            }
            Ok(inputs)
        }
    }
    d.deserialize_map(Inputs)
}

/// Reads one input's value as raw JSON text, refusing it if its key came before.
struct Literal<'k> {
    key: &'k str,
    repeated: bool,
}

impl<'de> DeserializeSeed<'de> for Literal<'_> {
    type Value = Scalar;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        if self.repeated {
            return Err(serde::de::Error::custom(format!(
                "duplicate input name `{}`",
                clip(self.key, MAX_QUOTED_CHARS)
            )));
        }
        literal(raw.get()).map_err(serde::de::Error::custom)
    }
}

/// One input literal from its raw JSON text.
fn literal(raw: &str) -> Result<Scalar, String> {
    match raw.as_bytes().first() {
        Some(b'"') => serde_json::from_str(raw)
            .map(Scalar::Text)
            .map_err(|e| e.to_string()),
        Some(b't') => Ok(Scalar::Bool(true)),
        Some(b'f') => Ok(Scalar::Bool(false)),
        Some(b'-' | b'0'..=b'9') => {
            NumberText::scalar(raw).ok_or_else(|| "must be a finite number".to_owned())
        }
        _ => Err(format!(
            "must be a string, a finite number or a bool, not {}",
            clip(raw, MAX_QUOTED_CHARS)
        )),
    }
}

/// A payload must be one JSON object: says what it found instead, and where.
fn object_start(text: &str) -> Result<(), ContractError> {
    let Some((at, first)) = text.char_indices().find(|(_, c)| !c.is_ascii_whitespace()) else {
        return Err(ContractError::invalid(
            "payload",
            "is empty (expected a JSON object)",
        ));
    };
    let found = match first {
        '{' => return Ok(()),
        '[' => "an array",
        '"' => "a string",
        '-' | '0'..='9' => "a number",
        't' | 'f' => "a bool",
        'n' => "null",
        _ => "something that is not JSON",
    };
    let (line, column) = position(text, at);
    Err(ContractError::invalid(
        "payload",
        format!("must be a JSON object, found {found} at line {line} column {column}"),
    ))
}

/// 1-based line and column (in chars) of byte offset `at`.
fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

impl Subtask {
    /// A subtask with one goal and one criterion; everything else default.
    pub fn new(goal: impl Into<String>, verification: impl Into<String>) -> Self {
        Subtask {
            goal: goal.into(),
            verification: vec![Criterion::Text(verification.into())],
            inputs: BTreeMap::new(),
            constraints: Vec::new(),
            max_actions: DEFAULT_MAX_ACTIONS,
            metadata: serde_json::Map::new(),
            allowed_risks: BTreeSet::new(),
            secret_inputs: BTreeSet::new(),
            shortcuts: Vec::new(),
            files: Vec::new(),
        }
    }

    pub fn with_input(mut self, key: impl Into<String>, value: impl Into<Scalar>) -> Self {
        self.inputs.insert(key.into(), value.into());
        self
    }

    /// Parses and validates a JSON payload: one object and nothing after it; no key
    /// twice; every quoted fragment of input in an error clipped.
    pub fn from_json(text: &str) -> Result<Subtask, ContractError> {
        object_start(text)?;
        let de = &mut serde_json::Deserializer::from_str(text);
        let subtask: Subtask = serde_path_to_error::deserialize(&mut *de).map_err(|err| {
            let field = field_path(err.path());
            let inner = err.into_inner();
            if inner.is_eof() || (inner.is_syntax() && field == ".") {
                return ContractError::invalid(
                    "payload",
                    format!("not valid JSON: {}", clip_quoted(&inner.to_string())),
                );
            }
            if inner.to_string().starts_with("number out of range") {
                return ContractError::invalid(field, "must be a finite number");
            }
            let message = inner.to_string();
            // serde reports "unknown field `x`, expected one of …" at the parent path.
            if let Some(rest) = message.strip_prefix("unknown field `") {
                let name = clip(rest.split('`').next().unwrap_or_default(), MAX_QUOTED_CHARS);
                return ContractError::new(
                    ErrorCode::UnknownField,
                    name.as_ref(),
                    format!("Unknown subtask fields: `{name}`; allowed: goal, verification, inputs, constraints, max_actions, metadata, allowed_risks, secret_inputs, shortcuts"),
                );
            }
            let field = if field == "." { "payload".to_owned() } else { field };
            // "unknown variant `launch`, expected one of …", said as the reference does.
            if field.starts_with("allowed_risks") && message.starts_with("unknown variant") {
                let name = message.split('`').nth(1).unwrap_or_default();
                return ContractError::invalid(
                    field,
                    format!(
                        "Unknown allowed_risks: {:?}; use {}",
                        clip(name, MAX_QUOTED_CHARS),
                        Risk::ALL.map(Risk::as_str).join(", ")
                    ),
                );
            }
            ContractError::invalid(field, clip_quoted(&strip_position(&message)))
        })?;
        // Trailing garbage (`{…} x`, a second object) is refused, not ignored.
        de.end()
            .map_err(|e| ContractError::invalid("payload", format!("{e} after the object")))?;
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
        for (i, c) in self.verification.iter().enumerate() {
            match c {
                Criterion::Text(t) if t.trim().is_empty() => {
                    return Err(ContractError::invalid(
                        format!("verification[{i}]"),
                        "must not be empty",
                    ))
                }
                Criterion::Text(_) => {}
                Criterion::Check(check) => check.validate().map_err(|(field, why)| {
                    ContractError::invalid(format!("verification[{i}].{field}"), why)
                })?,
            }
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
                    format!("inputs.{}", clip(key, MAX_QUOTED_CHARS)),
                    "must be a finite number",
                ));
            }
        }
        if self.files.len() > MAX_FILES {
            return Err(ContractError::invalid(
                "files",
                format!("lists {} files; at most {MAX_FILES}", self.files.len()),
            ));
        }
        for (i, path) in self.files.iter().enumerate() {
            let field = || format!("files[{i}]");
            if !path.starts_with('/') || path.contains('\0') {
                return Err(ContractError::invalid(
                    field(),
                    format!(
                        "must be an absolute path, not {:?}",
                        clip(path, MAX_QUOTED_CHARS)
                    ),
                ));
            }
            if self.files[..i].contains(path) {
                return Err(ContractError::invalid(field(), "lists the same file twice"));
            }
        }
        if let Some(missing) = self
            .secret_inputs
            .iter()
            .find(|k| !self.inputs.contains_key(*k))
        {
            return Err(ContractError::invalid(
                "secret_inputs",
                format!(
                    "names keys that are not inputs: {:?}",
                    clip(missing, MAX_QUOTED_CHARS)
                ),
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

    /// Whether `path` is one of the files the subtask lists.
    pub fn lists_file(&self, path: &str) -> bool {
        self.files.iter().any(|f| f == path)
    }

    pub fn allows(&self, risk: Risk) -> bool {
        self.allowed_risks.contains(&risk)
    }
}

/// serde_path_to_error's path (`inputs.card`, `shortcuts[1]`, `.` for the root) with
/// every key clipped: a key is input too.
fn field_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&clip(key, MAX_QUOTED_CHARS));
            }
            Segment::Unknown => out.push_str(if out.is_empty() { "?" } else { ".?" }),
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// serde_json appends " at line 1 column 42"; the field path already says where.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}
