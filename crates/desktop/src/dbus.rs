//! Raw method calls on the accessibility bus: one message per call, no proxy objects,
//! so a snapshot can pipeline hundreds of them concurrently.

use crate::ids::ObjRef;
use serde::de::DeserializeOwned;
use std::time::Duration;
use zbus::zvariant::{DynamicType, OwnedValue};

/// Longest one call may take: an app stuck in its main loop must not hang a step.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(3);

#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The object or its application is gone (defunct, exited, unknown object).
    #[error("{0} is gone: {1}")]
    Gone(String, String),
    #[error("{method} on {path} timed out after {CALL_TIMEOUT:?}")]
    Timeout { method: &'static str, path: String },
    #[error("{method} on {path}: {detail}")]
    Failed {
        method: &'static str,
        path: String,
        detail: String,
    },
}

pub async fn call<B, R>(
    conn: &zbus::Connection,
    obj: &ObjRef,
    iface: &'static str,
    method: &'static str,
    body: &B,
) -> Result<R, CallError>
where
    B: serde::Serialize + DynamicType,
    R: DeserializeOwned + zbus::zvariant::Type,
{
    let path = obj.path.to_string();
    let fut = conn.call_method(Some(&*obj.bus), &*obj.path, Some(iface), method, body);
    let reply = match tokio::time::timeout(CALL_TIMEOUT, fut).await {
        Err(_) => return Err(CallError::Timeout { method, path }),
        Ok(Err(e)) => return Err(classify(method, path, e)),
        Ok(Ok(m)) => m,
    };
    reply
        .body()
        .deserialize::<R>()
        .map_err(|e| CallError::Failed {
            method,
            path,
            detail: e.to_string(),
        })
}

/// A property, read through `org.freedesktop.DBus.Properties.Get`.
pub async fn property(
    conn: &zbus::Connection,
    obj: &ObjRef,
    iface: &'static str,
    name: &'static str,
) -> Result<OwnedValue, CallError> {
    call(
        conn,
        obj,
        "org.freedesktop.DBus.Properties",
        "Get",
        &(iface, name),
    )
    .await
}

fn classify(method: &'static str, path: String, e: zbus::Error) -> CallError {
    let detail = e.to_string();
    let gone = matches!(&e, zbus::Error::MethodError(name, _, _)
        if name.as_str() == "org.freedesktop.DBus.Error.ServiceUnknown"
            || name.as_str() == "org.freedesktop.DBus.Error.UnknownObject"
            || name.as_str() == "org.freedesktop.DBus.Error.UnknownMethod"
            || name.as_str() == "org.freedesktop.DBus.Error.NoReply")
        || matches!(e, zbus::Error::InputOutput(_));
    if gone {
        CallError::Gone(path, detail)
    } else {
        CallError::Failed {
            method,
            path,
            detail,
        }
    }
}

impl CallError {
    pub fn is_gone(&self) -> bool {
        matches!(self, CallError::Gone(..))
    }
}
