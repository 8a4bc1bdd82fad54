//! JSON Schema for the types with a hand-written wire form (feature `schema`): a criterion
//! is a sentence or a check, an input a string, number or bool, a role and a chord strings.
//! The rest derives from the types themselves, so the published schema cannot drift.

use crate::check::{Check, Criterion};
use crate::key::Chord;
use crate::role::Role;
use crate::scalar::Scalar;
use crate::subtask::Subtask;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use std::borrow::Cow;

impl JsonSchema for Criterion {
    fn schema_name() -> Cow<'static, str> {
        "Criterion".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A sentence a person would write (\"The page shows Saved\"), or a check object stated exactly.",
            "anyOf": [
                {"type": "string", "minLength": 1},
                g.subschema_for::<Check>(),
            ]
        })
    }
}

impl JsonSchema for Scalar {
    fn schema_name() -> Cow<'static, str> {
        "Scalar".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": ["string", "number", "boolean"]})
    }
}

impl JsonSchema for Role {
    fn schema_name() -> Cow<'static, str> {
        "Role".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An element's role (ARIA or AT-SPI spelling).",
            "type": "string",
            "enum": Role::KNOWN,
        })
    }
}

impl JsonSchema for Chord {
    fn schema_name() -> Cow<'static, str> {
        "Chord".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Modifiers and one key joined by +: MOD+SHIFT+K (MOD is Control here).",
            "type": "string",
            "minLength": 1,
        })
    }
}

/// The subtask's JSON Schema (draft 2020-12), as `arc-cua schema subtask` prints it.
pub fn subtask() -> Schema {
    schemars::schema_for!(Subtask)
}
