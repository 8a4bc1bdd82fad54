//! `act`'s flat arguments (the reference's shape: one `action` name, optional fields)
//! into the host's typed [`HostAction`]: each kind takes exactly the fields it needs, and
//! a missing one is an `invalid_params` error that names it.

use super::params::{ActArgs, ActionName, Direction, ValueArg};
use crate::protocol::{ErrorCode, HostAction, HostError};
use arc_core::{Chord, ElementId, Key, ScrollDirection};

pub(super) fn host_action(args: &ActArgs) -> Result<HostAction, HostError> {
    let element =
        || need(&args.element, "element", args.action).map(|s| ElementId::from(s.as_str()));
    let text = || need(&args.value, "value", args.action).map(ValueArg::to_text);
    Ok(match args.action {
        ActionName::Click => HostAction::Click {
            target_id: element()?,
        },
        ActionName::DoubleClick => HostAction::DoubleClick {
            target_id: element()?,
        },
        ActionName::RightClick => HostAction::RightClick {
            target_id: element()?,
        },
        ActionName::Hover => HostAction::Hover {
            target_id: element()?,
        },
        ActionName::TypeText => HostAction::TypeText {
            target_id: element()?,
            text: text()?,
        },
        ActionName::SetValue => HostAction::SetValue {
            target_id: element()?,
            text: text()?,
        },
        ActionName::SelectOption => HostAction::SelectOption {
            target_id: element()?,
            option: text()?,
        },
        ActionName::PressKey => HostAction::PressKey {
            key: parse_key(need(&args.key, "key", args.action)?)?,
        },
        ActionName::Hotkey => HostAction::Hotkey {
            hotkey: parse_chord(need(&args.hotkey, "hotkey", args.action)?)?,
        },
        ActionName::Scroll => HostAction::Scroll {
            direction: scroll(*need(&args.direction, "direction", args.action)?),
            target_id: args.element.as_deref().map(ElementId::from),
        },
        ActionName::DragTo => HostAction::DragTo {
            target_id: element()?,
            destination_id: ElementId::from(
                need(&args.destination, "destination", args.action)?.as_str(),
            ),
        },
        ActionName::DragBy => HostAction::DragBy {
            target_id: element()?,
            dx: *need(&args.dx, "dx", args.action)?,
            dy: *need(&args.dy, "dy", args.action)?,
        },
        ActionName::Wait => HostAction::Wait,
        ActionName::Navigate => HostAction::Navigate { url: text()? },
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

fn need<'a, T>(field: &'a Option<T>, name: &str, action: ActionName) -> Result<&'a T, HostError> {
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

fn parse_chord(raw: &str) -> Result<Chord, HostError> {
    raw.parse().map_err(|e| {
        HostError::new(
            ErrorCode::InvalidParams,
            format!("hotkey {:?}: {e}", arc_core::clip(raw, 32)),
        )
    })
}

fn scroll(d: Direction) -> ScrollDirection {
    match d {
        Direction::Up => ScrollDirection::Up,
        Direction::Down => ScrollDirection::Down,
        Direction::Left => ScrollDirection::Left,
        Direction::Right => ScrollDirection::Right,
    }
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

impl ActionName {
    pub fn as_str(self) -> &'static str {
        self.kind().as_str()
    }

    fn kind(self) -> arc_core::ActionKind {
        use arc_core::ActionKind as K;
        match self {
            ActionName::Click => K::Click,
            ActionName::DoubleClick => K::DoubleClick,
            ActionName::RightClick => K::RightClick,
            ActionName::Hover => K::Hover,
            ActionName::TypeText => K::TypeText,
            ActionName::SetValue => K::SetValue,
            ActionName::SelectOption => K::SelectOption,
            ActionName::PressKey => K::PressKey,
            ActionName::Hotkey => K::Hotkey,
            ActionName::Scroll => K::Scroll,
            ActionName::DragTo => K::DragTo,
            ActionName::DragBy => K::DragBy,
            ActionName::Wait => K::Wait,
            ActionName::Navigate => K::Navigate,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(action: ActionName) -> ActArgs {
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
            settle: None,
        }
    }

    #[test]
    fn a_missing_field_is_named() {
        let e = host_action(&args(ActionName::SetValue)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(
            e.message.contains("SET_VALUE needs `element`"),
            "{}",
            e.message
        );
        let mut a = args(ActionName::SetValue);
        a.element = Some("e4".into());
        let e = host_action(&a).unwrap_err();
        assert!(e.message.contains("needs `value`"), "{}", e.message);
    }

    #[test]
    fn every_action_name_is_a_core_kind() {
        for kind in arc_core::ActionKind::ALL {
            let name: ActionName =
                serde_json::from_value(serde_json::json!(kind.as_str())).unwrap();
            assert_eq!(name.kind(), kind);
        }
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
