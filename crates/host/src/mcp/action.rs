//! `act`'s flat arguments (the reference's shape: one `action` name, optional fields)
//! into the host's typed [`HostAction`]: each kind takes exactly the fields it needs, and
//! a missing one is an `invalid_params` error that names it.

use super::params::{ActArgs, ValueArg};
use crate::protocol::{ErrorCode, HostAction, HostError};
use arc_core::{ActionKind, Chord, ElementId, Key, SubmitKey};

pub(super) fn host_action(args: &ActArgs) -> Result<HostAction, HostError> {
    let element =
        || need(&args.element, "element", args.action).map(|s| ElementId::from(s.as_str()));
    let text = || need(&args.value, "value", args.action).map(ValueArg::to_text);
    if args.modifier.is_some() && args.action != ActionKind::Click {
        return Err(HostError::new(
            ErrorCode::InvalidParams,
            format!(
                "act: {} does not take `modifier` (a key held during a CLICK)",
                args.action.as_str()
            ),
        ));
    }
    Ok(match args.action {
        ActionKind::Click => HostAction::Click {
            target_id: element()?,
            click_modifier: args.modifier,
        },
        ActionKind::DoubleClick => HostAction::DoubleClick {
            target_id: element()?,
        },
        ActionKind::RightClick => HostAction::RightClick {
            target_id: element()?,
        },
        ActionKind::Hover => HostAction::Hover {
            target_id: element()?,
        },
        ActionKind::SelectText => HostAction::SelectText {
            target_id: element()?,
        },
        ActionKind::TypeText => HostAction::TypeText {
            target_id: element()?,
            text: text()?,
            key: args.key.as_deref().map(parse_submit_key).transpose()?,
        },
        ActionKind::SetValue => HostAction::SetValue {
            target_id: element()?,
            text: text()?,
        },
        ActionKind::SelectOption => HostAction::SelectOption {
            target_id: element()?,
            option: text()?,
        },
        ActionKind::PressKey => HostAction::PressKey {
            key: parse_key(need(&args.key, "key", args.action)?)?,
        },
        ActionKind::Hotkey => HostAction::Hotkey {
            hotkey: parse_chord(need(&args.hotkey, "hotkey", args.action)?)?,
        },
        ActionKind::Scroll => HostAction::Scroll {
            direction: *need(&args.direction, "direction", args.action)?,
            target_id: args.element.as_deref().map(ElementId::from),
        },
        ActionKind::DragTo => HostAction::DragTo {
            target_id: element()?,
            destination_id: ElementId::from(
                need(&args.destination, "destination", args.action)?.as_str(),
            ),
        },
        ActionKind::DragBy => HostAction::DragBy {
            target_id: element()?,
            dx: *need(&args.dx, "dx", args.action)?,
            dy: *need(&args.dy, "dy", args.action)?,
        },
        ActionKind::Wait => HostAction::Wait,
        ActionKind::Navigate => HostAction::Navigate { url: text()? },
    })
}

/// `press`'s `keys`: one named key, or a chord when it holds a `+`.
pub(super) fn press_action(keys: &str) -> Result<HostAction, HostError> {
    if keys.contains('+') && keys.trim() != "+" {
        Ok(HostAction::Hotkey {
            hotkey: parse_chord(keys)?,
        })
    } else {
        Ok(HostAction::PressKey {
            key: parse_key(keys)?,
        })
    }
}

fn need<'a, T>(field: &'a Option<T>, name: &str, action: ActionKind) -> Result<&'a T, HostError> {
    field.as_ref().ok_or_else(|| {
        HostError::new(
            ErrorCode::InvalidParams,
            format!("act: {} needs `{name}`", action.as_str()),
        )
    })
}

fn parse_key(raw: &str) -> Result<Key, HostError> {
    raw.parse().map_err(|e| {
        HostError::new(
            ErrorCode::InvalidParams,
            format!("key {:?}: {e}", arc_core::clip(raw, 32)),
        )
    })
}

/// TYPE_TEXT's `key`: ENTER or TAB.
fn parse_submit_key(raw: &str) -> Result<SubmitKey, HostError> {
    SubmitKey::try_from(parse_key(raw)?).map_err(|e| HostError::new(ErrorCode::InvalidParams, e))
}

fn parse_chord(raw: &str) -> Result<Chord, HostError> {
    raw.parse().map_err(|e| {
        HostError::new(
            ErrorCode::InvalidParams,
            format!("hotkey {:?}: {e}", arc_core::clip(raw, 32)),
        )
    })
}

impl ValueArg {
    /// The literal as the page receives it: numbers and booleans as their JSON text.
    fn to_text(&self) -> String {
        match self {
            ValueArg::Text(s) => s.clone(),
            ValueArg::Number(n) => n.to_string(),
            ValueArg::Bool(b) => b.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::schemars;

    fn args(action: ActionKind) -> ActArgs {
        ActArgs {
            snapshot: "c1-s1/o1".into(),
            action,
            element: None,
            value: None,
            key: None,
            hotkey: None,
            direction: None,
            destination: None,
            dx: None,
            dy: None,
            modifier: None,
            settle: None,
        }
    }

    #[test]
    fn click_takes_a_modifier_and_type_text_a_key_after_it() {
        let mut a = args(ActionKind::Click);
        a.element = Some("e4".into());
        a.modifier = Some(arc_core::ClickModifier::Mod);
        assert_eq!(
            host_action(&a).unwrap(),
            HostAction::Click {
                target_id: "e4".into(),
                click_modifier: Some(arc_core::ClickModifier::Mod),
            }
        );
        let mut t = args(ActionKind::TypeText);
        t.element = Some("e5".into());
        t.value = Some(ValueArg::Text("cats".into()));
        t.key = Some("enter".into());
        assert_eq!(
            host_action(&t).unwrap(),
            HostAction::TypeText {
                target_id: "e5".into(),
                text: "cats".into(),
                key: Some(SubmitKey::Enter),
            }
        );
        t.key = Some("ESCAPE".into());
        let e = host_action(&t).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(e.message.contains("ESCAPE"), "{}", e.message);
        let mut p = args(ActionKind::PressKey);
        p.key = Some("ENTER".into());
        p.modifier = Some(arc_core::ClickModifier::Shift);
        let e = host_action(&p).unwrap_err();
        assert!(
            e.message.contains("PRESS_KEY does not take `modifier`"),
            "{}",
            e.message
        );
        let schema = serde_json::to_value(schemars::schema_for!(ActArgs)).unwrap();
        assert_eq!(
            schema["properties"]["modifier"]["enum"],
            serde_json::json!(["MOD", "SHIFT"])
        );
    }

    #[test]
    fn a_missing_field_is_named() {
        let e = host_action(&args(ActionKind::SetValue)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(
            e.message.contains("SET_VALUE needs `element`"),
            "{}",
            e.message
        );
        let mut a = args(ActionKind::SetValue);
        a.element = Some("e4".into());
        let e = host_action(&a).unwrap_err();
        assert!(e.message.contains("needs `value`"), "{}", e.message);
    }

    #[test]
    fn act_takes_every_core_kind_and_direction_and_its_schema_lists_them() {
        let schema = serde_json::to_value(schemars::schema_for!(ActArgs)).unwrap();
        let listed = |field: &str| schema["properties"][field]["enum"].clone();
        let kinds: Vec<&str> = ActionKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(listed("action"), serde_json::json!(kinds));
        assert_eq!(
            listed("direction"),
            serde_json::json!(["UP", "DOWN", "LEFT", "RIGHT"])
        );
        for kind in ActionKind::ALL {
            let a: ActArgs = serde_json::from_value(
                serde_json::json!({"snapshot": "s", "action": kind.as_str(), "direction": "LEFT"}),
            )
            .unwrap();
            assert_eq!(a.action, kind);
            assert_eq!(a.direction, Some(arc_core::ScrollDirection::Left));
        }
        let mut required: Vec<String> = serde_json::from_value(schema["required"].clone()).unwrap();
        required.sort();
        assert_eq!(required, ["action", "snapshot"]);
    }

    #[test]
    fn press_takes_a_key_or_a_chord() {
        assert!(matches!(
            press_action("ENTER"),
            Ok(HostAction::PressKey { .. })
        ));
        assert!(matches!(
            press_action("MOD+A"),
            Ok(HostAction::Hotkey { .. })
        ));
        let e = press_action("NOT_A_KEY").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(e.message.contains("NOT_A_KEY"), "{}", e.message);
    }
}
