//! The `Runtime` domain: evaluating JavaScript.

use serde::{Deserialize, Serialize};

use crate::cdp::{cdp_method, Empty, ExecutionContextId, RemoteObjectId};

/// `Runtime.enable`: needed for execution-context events.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Enable {}
cdp_method!(Enable, "Runtime.enable", Empty);

/// `Runtime.addBinding`: a global function `name` in every execution context named
/// `execution_context_name` (an isolated world: the page's own scripts never see it), now
/// and in those created later; each call is a `Runtime.bindingCalled` event.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AddBinding {
    pub name: String,
    pub execution_context_name: String,
}
cdp_method!(AddBinding, "Runtime.addBinding", Empty);

/// A JavaScript value or a handle to one (`Runtime.RemoteObject`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RemoteObject {
    /// `object`, `function`, `undefined`, `string`, `number`, `boolean`, `symbol`, `bigint`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `null`, `node`, `array`, `error`, ...
    pub subtype: Option<String>,
    pub class_name: Option<String>,
    /// The value for primitives, or for objects with `returnByValue: true`.
    pub value: Option<serde_json::Value>,
    /// `NaN`, `Infinity`, `-0`, bigints: values JSON cannot carry.
    pub unserializable_value: Option<String>,
    pub description: Option<String>,
    /// Set for objects returned by reference; release with the object group.
    pub object_id: Option<RemoteObjectId>,
}

/// Why an evaluation threw (`Runtime.ExceptionDetails`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExceptionDetails {
    pub exception_id: i64,
    /// Usually just "Uncaught"; the message is in `exception.description`.
    pub text: String,
    pub line_number: i64,
    pub column_number: i64,
    pub url: Option<String>,
    pub exception: Option<RemoteObject>,
    pub execution_context_id: Option<ExecutionContextId>,
}

impl ExceptionDetails {
    /// The most useful one-line description: the exception's description (message and
    /// stack) when present, else `text`.
    pub fn message(&self) -> String {
        self.exception
            .as_ref()
            .and_then(|e| {
                e.description
                    .clone()
                    .or_else(|| e.value.as_ref().map(|v| v.to_string()))
            })
            .unwrap_or_else(|| self.text.clone())
    }
}

/// `Runtime.evaluate`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Evaluate {
    pub expression: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_command_line_api: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent: Option<bool>,
    /// Default: the main world of the page's main frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_id: Option<ExecutionContextId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generate_preview: Option<bool>,
    /// Treat as a user gesture (e.g. so `window.open` is allowed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throw_on_side_effect: Option<bool>,
    /// In-page timeout in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repl_mode: Option<bool>,
}

impl Evaluate {
    /// Evaluates `expression`, awaits a returned promise and returns the value as JSON.
    pub fn by_value(expression: impl Into<String>) -> Self {
        Evaluate {
            expression: expression.into(),
            return_by_value: Some(true),
            await_promise: Some(true),
            ..Default::default()
        }
    }
}

/// The reply of `Runtime.evaluate` and `Runtime.callFunctionOn`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EvaluateReturns {
    pub result: RemoteObject,
    /// Set when the script threw; `result` is then the exception.
    pub exception_details: Option<ExceptionDetails>,
}
cdp_method!(Evaluate, "Runtime.evaluate", EvaluateReturns);

/// An argument of `Runtime.callFunctionOn`: a JSON value, an unserializable literal or
/// an object handle.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallArgument {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unserializable_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<RemoteObjectId>,
}

impl CallArgument {
    pub fn value(value: serde_json::Value) -> Self {
        CallArgument {
            value: Some(value),
            ..Default::default()
        }
    }

    pub fn object(object_id: RemoteObjectId) -> Self {
        CallArgument {
            object_id: Some(object_id),
            ..Default::default()
        }
    }
}

/// `Runtime.callFunctionOn`: calls `function_declaration` with `this` = `object_id`
/// (e.g. a DOM node from `DOM.resolveNode`). Give `object_id` or `execution_context_id`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFunctionOn {
    pub function_declaration: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_id: Option<RemoteObjectId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<CallArgument>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_by_value: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_gesture: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_promise: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_context_id: Option<ExecutionContextId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_group: Option<String>,
}
cdp_method!(CallFunctionOn, "Runtime.callFunctionOn", EvaluateReturns);

/// `Runtime.releaseObjectGroup`: frees every handle created in a group.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseObjectGroup {
    pub object_group: String,
}
cdp_method!(ReleaseObjectGroup, "Runtime.releaseObjectGroup", Empty);

/// An execution context (`Runtime.ExecutionContextDescription`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExecutionContextDescription {
    pub id: ExecutionContextId,
    pub origin: String,
    /// The isolated world's name, empty for the main world.
    pub name: String,
    pub unique_id: String,
    /// `{isDefault, type, frameId}`, kept untyped.
    pub aux_data: Option<serde_json::Value>,
}
