//! WebArena's config-file format (`config_files/test.raw.json`: an array of these), read
//! leniently: upstream files carry more fields than the evaluator reads
//! (`intent_template`, `instantiation_dict`, `string_note`, …), and older files use other
//! shapes for some of them. A part in a shape not read here is kept as JSON and flagged.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

#[derive(Debug, Deserialize)]
pub struct WebArenaTask {
    pub task_id: TaskNumber,
    #[serde(default)]
    pub sites: Vec<String>,
    pub intent: String,
    /// One URL, or several joined by `" |AND| "` (one tab each).
    pub start_url: String,
    #[serde(default)]
    pub require_login: bool,
    /// The Playwright cookie file upstream starts from; `null` when none.
    #[serde(default)]
    pub storage_state: Option<String>,
    #[serde(default)]
    pub geolocation: Option<Value>,
    pub eval: Eval,
}

/// `task_id` is a number upstream; derived benchmarks use strings.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum TaskNumber {
    Number(u64),
    Text(String),
}

impl fmt::Display for TaskNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskNumber::Number(n) => write!(f, "{n}"),
            TaskNumber::Text(s) => f.write_str(s),
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Eval {
    /// `string_match`, `url_match`, `program_html`; anything else is kept and flagged.
    pub eval_types: Vec<String>,
    #[serde(default)]
    pub reference_answers: Option<Lenient<ReferenceAnswers>>,
    /// One URL, or alternatives joined by `" |OR| "`.
    #[serde(default)]
    pub reference_url: Option<String>,
    #[serde(default)]
    pub program_html: Option<Vec<Lenient<HtmlTarget>>>,
    /// The URL rule; upstream knows only `"GOLD in PRED"` (the default).
    #[serde(default)]
    pub url_note: Option<String>,
}

/// A part in the shape read here, or its JSON verbatim.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Lenient<T> {
    Typed(T),
    Other(Value),
}

/// How the agent's answer is compared: each approach present must hold.
#[derive(Debug, Deserialize)]
pub struct ReferenceAnswers {
    #[serde(default)]
    pub exact_match: Option<Value>,
    #[serde(default)]
    pub must_include: Option<Value>,
    #[serde(default)]
    pub fuzzy_match: Option<Value>,
    /// Approaches this mapper does not know, kept.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

impl ReferenceAnswers {
    /// Every approach present, by name, in upstream order.
    pub fn approaches(&self) -> Vec<(&str, &Value)> {
        let known = [
            ("exact_match", &self.exact_match),
            ("must_include", &self.must_include),
            ("fuzzy_match", &self.fuzzy_match),
        ];
        known
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
            .chain(self.other.iter().map(|(k, v)| (k.as_str(), v)))
            .collect()
    }
}

/// One `program_html` target: open `url` (`"last"`: the page the run ended on), read
/// `locator` (a JavaScript expression; empty: the page source), compare.
#[derive(Debug, Deserialize)]
pub struct HtmlTarget {
    pub url: String,
    #[serde(default)]
    pub locator: String,
    pub required_contents: Lenient<RequiredContents>,
    #[serde(default)]
    pub prep_actions: Vec<String>,
}

/// Exactly one of the two is expected; anything else is flagged.
#[derive(Debug, Deserialize)]
pub struct RequiredContents {
    #[serde(default)]
    pub exact_match: Option<String>,
    /// Each item must be included; an item may list alternatives joined by `" |OR| "`.
    #[serde(default)]
    pub must_include: Option<Vec<String>>,
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}
