//! The MCP tools' arguments: what an agent sends, with the JSON Schema (and the
//! descriptions an LLM reads) generated from these types. Names follow the reference
//! Python server's tools wherever it has one for the same job, so a prompt carries over.
//! Unknown arguments are refused (`deny_unknown_fields` → `additionalProperties: false`).

// The point tools take the host protocol's own enums: one wire shape for both.
use crate::protocol::{ClickModifier, PointerButton};
use arc_core::{ActionKind, ScrollDirection};
use rmcp::schemars::{self, json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObserveArgs {
    /// Keep only elements whose role, name or value contains this text (case-insensitive);
    /// searches the whole page, including what the token budget leaves out.
    pub query: Option<String>,
    /// Also return a PNG of the page (image content).
    #[serde(default)]
    pub screenshot: bool,
    /// Also return every element as JSON (id, role, name, value, actions, bounds), not
    /// only the compact view.
    #[serde(default)]
    pub elements: bool,
}

/// A scalar an action takes as its value.
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ValueArg {
    Text(String),
    Number(f64),
    Bool(bool),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActArgs {
    /// The snapshot id from the latest observe (or the `fresh` snapshot of the latest act).
    pub snapshot: String,
    /// The action.
    #[schemars(schema_with = "action_kind_schema")]
    pub action: ActionKind,
    /// The element's id from that snapshot (not needed for PRESS_KEY, HOTKEY, SCROLL,
    /// NAVIGATE).
    pub element: Option<String>,
    /// The text for TYPE_TEXT and SET_VALUE, the option for SELECT_OPTION, the URL for
    /// NAVIGATE.
    pub value: Option<ValueArg>,
    /// The key for PRESS_KEY: ENTER, TAB, ESCAPE, ARROW_DOWN, BACKSPACE...; for
    /// TYPE_TEXT, ENTER or TAB pressed in the field right after the value.
    pub key: Option<String>,
    /// The chord for HOTKEY, such as MOD+A (MOD is Control here).
    pub hotkey: Option<String>,
    /// The direction for SCROLL.
    #[serde(default)]
    #[schemars(schema_with = "scroll_direction_schema")]
    pub direction: Option<ScrollDirection>,
    /// The drop target's element id for DRAG_TO.
    pub destination: Option<String>,
    /// CSS pixels to drag by for DRAG_BY (right is positive).
    pub dx: Option<f64>,
    /// CSS pixels to drag by for DRAG_BY (down is positive).
    pub dy: Option<f64>,
    /// A key CLICK holds: MOD (Control) toggles the element in a multi-selection, SHIFT
    /// extends a range to it.
    #[serde(default)]
    #[schemars(schema_with = "click_modifier_schema")]
    pub modifier: Option<arc_core::ClickModifier>,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

/// `subtask`: core's own schema (`arc-cua schema subtask`), its definitions inlined here.
fn subtask_schema(g: &mut SchemaGenerator) -> Schema {
    g.subschema_for::<arc_core::Subtask>()
}

// `act` takes core's own enums (core has no schemars): their schemas list the wire names.

/// `action`: every kind core has, by its wire name.
fn action_kind_schema(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<&str> = ActionKind::ALL.iter().map(|k| k.as_str()).collect();
    json_schema!({
        "description": "What act can do; an element offers a subset (listed per element in the view).",
        "type": "string",
        "enum": names,
    })
}

/// `direction`: core's scroll directions, as they deserialize.
fn scroll_direction_schema(_: &mut SchemaGenerator) -> Schema {
    use ScrollDirection as D;
    let names: Vec<serde_json::Value> = [D::Up, D::Down, D::Left, D::Right]
        .iter()
        .filter_map(|d| serde_json::to_value(d).ok())
        .collect();
    json_schema!({"type": "string", "enum": names})
}

/// `modifier`: core's click modifiers, as they deserialize.
fn click_modifier_schema(_: &mut SchemaGenerator) -> Schema {
    let names: Vec<serde_json::Value> = arc_core::ClickModifier::ALL
        .iter()
        .filter_map(|m| serde_json::to_value(m).ok())
        .collect();
    json_schema!({"type": "string", "enum": names})
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettleArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitArgs {
    /// Without a condition: wait until the page differs from this snapshot.
    pub snapshot: Option<String>,
    /// Wait until an element whose name or value contains this text is present.
    pub text: Option<String>,
    /// With `text`: only elements of this role count (button, link, text_field...).
    pub role: Option<String>,
    /// With `value`: the name of the element (a field's label) whose value to wait for.
    pub name: Option<String>,
    /// With `name`: wait until that element holds exactly this value.
    pub value: Option<String>,
    /// Give up after this many seconds (default 1, at most 30); the reply says whether
    /// the condition was met.
    pub timeout_s: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    /// Text the element's name or value contains (case-insensitive).
    pub query: Option<String>,
    /// The element's role: button, link, text_field, checkbox... (ARIA names work too).
    pub role: Option<String>,
    /// At most this many matches (default 20).
    pub limit: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
    /// A key (ENTER, TAB, ESCAPE, ARROW_DOWN...) or a chord (MOD+S; MOD is Control).
    pub keys: String,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSubtaskArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
    /// The subtask, in arc-cua's contract: {"goal": "...", "inputs": {"name": "value"},
    /// "verification": ["The page shows ...", {"check": "text_present", "text": "..."}],
    /// "max_actions": 10, "allowed_risks": [...]}.
    #[schemars(schema_with = "subtask_schema")]
    pub subtask: serde_json::Map<String, serde_json::Value>,
    /// Wall-clock bound on the run in seconds (default and ceiling: the host's limit).
    pub timeout_s: Option<f64>,
    /// Only decide and check the next action; the result is DRY_RUN with it as
    /// planned_action, and nothing is acted on (default false).
    pub dry_run: Option<bool>,
    /// End NEEDS_AGENT without acting on a decision scored below this confidence (0..1);
    /// unscored decisions are not gated.
    pub min_confidence: Option<f64>,
    /// As min_confidence, for the gap between a decision's best and second choice.
    pub min_margin: Option<f64>,
    /// A give-up right after an action waits this long in seconds, looks again and
    /// decides again if the page changed (default 1, 0 never, at most 30).
    pub late_reaction_s: Option<f64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClickAtArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
    /// CSS pixels from the page viewport's left edge (as in the screenshot).
    pub x: f64,
    /// CSS pixels from the page viewport's top edge.
    pub y: f64,
    /// left (default) or right.
    pub button: Option<PointerButton>,
    /// Clicks: 1 (default) to 3.
    pub count: Option<u8>,
    /// Keys held during the click: any of shift, ctrl, alt, meta (cmd).
    pub modifiers: Option<Vec<ClickModifier>>,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
    /// [x, y] viewport points, at least two: press at the first, move through the
    /// others, release at the last.
    pub points: Vec<[f64; 2]>,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScrollAtArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
    /// CSS pixels from the viewport's left edge: the content under this point scrolls.
    pub x: f64,
    /// CSS pixels from the viewport's top edge.
    pub y: f64,
    /// Pixels; positive shows what is to the left.
    pub dx: Option<f64>,
    /// Pixels; positive shows what is above, negative what is below.
    pub dy: Option<f64>,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeTextArgs {
    /// The latest snapshot id (used up: the reply carries the next one).
    pub snapshot: String,
    /// The text, typed where the focus is (a focused text field).
    pub text: String,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenArgs {
    /// The http(s) URL to load in the current tab; its origin must be granted
    /// (--allow-navigate ORIGIN or a pattern of it, or --allow-any-origin).
    pub url: String,
    /// Wait until the page has finished reacting before answering (default true).
    pub settle: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SwitchTabArgs {
    /// The tab's id, from `tabs`.
    pub tab: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowsArgs {
    /// The application's pid, from `apps`.
    pub pid: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_subtask_takes_the_subtask_schema_core_publishes() {
        let schema = serde_json::to_value(schemars::schema_for!(RunSubtaskArgs)).unwrap();
        let text = schema.to_string();
        for kind in [
            "text_present",
            "field_value",
            "element_state",
            "none_remain",
        ] {
            assert!(text.contains(kind), "{kind} missing: {text}");
        }
        let subtask = &schema["properties"]["subtask"];
        assert!(subtask.to_string().contains("Subtask"), "{subtask}");
        assert!(!text.contains("max_steps"), "max_steps is not a field");
    }
}
