//! The wire types both transports and the MCP layer share: the envelope, the methods,
//! each method's typed params and result, and the errors.
//!
//! A request is `{"request_id"?, "method", "params"?}`; a response is
//! `{"request_id"?, "ok": true, "result"}` or `{"request_id"?, "ok": false, "error"}`,
//! the `request_id` echoed either way; `run_subtask` streams `{"request_id"?, "event"}`
//! lines before its response. Parsing is in two stages (envelope, then the method's
//! params) so an error in the params still echoes the request id and names the field.

mod action;
mod client;
mod envelope;
mod error;
mod types;

pub(crate) use action::LITERAL_KEY;
pub use action::{ClickModifier, HostAction, PointerButton};
pub use client::{Reply, ReplyError, Request};
pub use envelope::{parse_params, Envelope, Method, RequestId, Response};
pub use error::{ErrorCode, HostError, LimitName};
pub use types::*;

/// The protocol version `hello` negotiates.
pub const PROTOCOL_VERSION: u32 = 1;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    fn act(params: &str) -> Result<ActParams, HostError> {
        let raw = RawValue::from_string(params.to_owned()).unwrap();
        parse_params(Method::Act, Some(&raw))
    }

    const AUTH: &str =
        r#""session":{"session_id":"c1-s1","capability":"cap-x"},"observation_id":"c1-s1/o1""#;

    #[test]
    fn an_action_is_typed_and_closed() {
        let ok = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"TYPE_TEXT","target_id":"e3","text":"hi"}}}}"#
        ))
        .unwrap();
        assert_eq!(
            ok.action,
            HostAction::TypeText {
                target_id: "e3".into(),
                text: "hi".into(),
                key: None,
            }
        );
        // A key after typing, a key held on a click: the core's words, nothing else.
        let enter = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"TYPE_TEXT","target_id":"e3","text":"hi","key":"ENTER"}}}}"#
        ))
        .unwrap();
        assert_eq!(
            enter.action.to_core().unwrap().0,
            arc_core::Action::TypeText {
                target: "e3".into(),
                input_key: LITERAL_KEY.into(),
                submit: Some(arc_core::SubmitKey::Enter),
            }
        );
        let held = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"CLICK","target_id":"e3","click_modifier":"SHIFT"}}}}"#
        ))
        .unwrap();
        assert_eq!(
            held.action.to_core().unwrap().0.click_modifier(),
            Some(arc_core::ClickModifier::Shift)
        );
        for wrong in [
            r#""kind":"TYPE_TEXT","target_id":"e3","text":"hi","key":"ESCAPE""#,
            r#""kind":"CLICK","target_id":"e3","click_modifier":"ALT""#,
            r#""kind":"DOUBLE_CLICK","target_id":"e3","click_modifier":"MOD""#,
        ] {
            let err = act(&format!(r#"{{{AUTH},"action":{{{wrong}}}}}"#)).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{wrong}");
        }
        assert!(ok.settle, "settles by default");
        let extra = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"CLICK","target_id":"e3","x":1}}}}"#
        ))
        .unwrap_err();
        assert_eq!(extra.code, ErrorCode::InvalidParams);
        assert!(extra.message.contains("params.action"), "{}", extra.message);
        let missing = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"TYPE_TEXT","target_id":"e3"}}}}"#
        ))
        .unwrap_err();
        assert!(missing.message.contains("text"), "{}", missing.message);
        let kind = act(&format!(r#"{{{AUTH},"action":{{"kind":"EXPLODE"}}}}"#)).unwrap_err();
        assert!(kind.message.contains("EXPLODE"), "{}", kind.message);
        let auth = act(r#"{"session":{"session_id":"s","capability":"c","admin":true},"observation_id":"o","action":{"kind":"WAIT"}}"#).unwrap_err();
        assert!(auth.message.contains("params.session"), "{}", auth.message);
    }

    #[test]
    fn point_actions_are_typed_with_defaults_and_closed() {
        let click = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"CLICK_AT","x":10.5,"y":20}}}}"#
        ))
        .unwrap();
        assert_eq!(
            click.action,
            HostAction::ClickAt {
                x: 10.5,
                y: 20.0,
                button: PointerButton::Left,
                count: 1,
                modifiers: vec![],
            }
        );
        let shifted = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"CLICK_AT","x":1,"y":2,"modifiers":["shift","cmd"]}}}}"#
        ))
        .unwrap();
        assert!(matches!(
            shifted.action,
            HostAction::ClickAt { ref modifiers, .. }
                if modifiers == &[super::ClickModifier::Shift, super::ClickModifier::Meta]
        ));
        let drag = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"DRAG_PATH","points":[[1,2],[3,4]]}}}}"#
        ))
        .unwrap();
        assert_eq!(
            drag.action,
            HostAction::DragPath {
                points: vec![[1.0, 2.0], [3.0, 4.0]]
            }
        );
        let extra = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"TYPE_FOCUSED","text":"a","target_id":"e1"}}}}"#
        ))
        .unwrap_err();
        assert!(extra.message.contains("target_id"), "{}", extra.message);
        let button = act(&format!(
            r#"{{{AUTH},"action":{{"kind":"CLICK_AT","x":1,"y":1,"button":"middle"}}}}"#
        ))
        .unwrap_err();
        assert!(button.message.contains("middle"), "{}", button.message);
    }

    #[test]
    fn envelope_errors_keep_the_request_id_when_they_can() {
        let (id, e) =
            Envelope::parse(br#"{"request_id":"r-7","method":"act","bogus":1}"#).unwrap_err();
        assert_eq!(id.unwrap().as_str(), "r-7");
        assert_eq!(e.code, ErrorCode::InvalidRequest);
        let (id, e) = Envelope::parse(br#"{"request_id":"r-8","method":"nope"}"#).unwrap_err();
        assert_eq!(
            (id.unwrap().as_str(), e.code),
            ("r-8", ErrorCode::UnknownMethod)
        );
        let long = "x".repeat(129);
        let (id, e) =
            Envelope::parse(format!(r#"{{"request_id":"{long}","method":"ping"}}"#).as_bytes())
                .unwrap_err();
        assert!(id.is_none());
        assert_eq!(e.code, ErrorCode::InvalidRequest);
        let ok = Envelope::parse("\u{feff}{\"method\":\"ping\"}".as_bytes()).unwrap();
        assert_eq!(ok.method, Method::Ping);
    }
}
