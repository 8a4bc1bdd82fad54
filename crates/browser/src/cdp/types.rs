//! Identifier newtypes shared by several domains. They serialize as the bare string or
//! number, so they can be passed straight back to Chromium.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.to_owned())
            }
        }
    };
}

macro_rules! int_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

string_id!(
    /// A flat-session id from `Target.attachToTarget{flatten:true}`.
    SessionId
);
string_id!(
    /// A target (tab, worker, iframe process...) id.
    TargetId
);
string_id!(
    /// A frame id (the main frame's id equals its page's target id).
    FrameId
);
string_id!(
    /// Identifies one document load of a frame.
    LoaderId
);
string_id!(
    /// A network request id.
    RequestId
);
string_id!(
    /// A handle to a JavaScript object in the page (`Runtime.RemoteObjectId`).
    RemoteObjectId
);
string_id!(
    /// An accessibility node id; unique within one `getFullAXTree` reply.
    AxNodeId
);
string_id!(
    /// A browser context (profile-like partition) id.
    BrowserContextId
);
string_id!(
    /// Returned by `Page.addScriptToEvaluateOnNewDocument`.
    ScriptIdentifier
);
int_id!(
    /// A DOM node id. Valid only after `DOM.getDocument` and until the document changes;
    /// prefer [`BackendNodeId`] for anything kept across calls.
    NodeId
);
int_id!(
    /// A stable DOM node id: lives as long as the node, no `DOM.getDocument` needed.
    BackendNodeId
);
int_id!(
    /// A JavaScript execution context (a frame's main world or an isolated world).
    ExecutionContextId
);
