//! The client's side of the envelope: a typed request to send and the reply to read,
//! so a Rust client (the CLI's `bench host`) speaks the protocol without re-spelling it.

use super::envelope::Method;
use super::error::HostError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// `{"request_id"?, "method", "params"}`, as a client sends it.
#[derive(Debug, Serialize)]
pub struct Request<'a, P: Serialize> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<&'a str>,
    pub method: Method,
    pub params: &'a P,
}

/// One message from the host, as a client reads it: a response (`ok` with `result` or
/// `error`) or a streamed `event`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reply {
    #[serde(default)]
    pub request_id: Option<String>,
    #[serde(default)]
    pub ok: Option<bool>,
    #[serde(default)]
    pub result: Option<Box<RawValue>>,
    #[serde(default)]
    pub error: Option<HostError>,
    #[serde(default)]
    pub event: Option<Box<RawValue>>,
}

/// Why a reply did not give the result a client asked for.
#[derive(Debug, thiserror::Error)]
pub enum ReplyError {
    #[error("the host refused it: {0}")]
    Host(HostError),
    #[error("the reply is not the protocol's: {0}")]
    Malformed(String),
}

impl Reply {
    pub fn parse(bytes: &[u8]) -> Result<Reply, ReplyError> {
        serde_json::from_slice(bytes).map_err(|e| ReplyError::Malformed(e.to_string()))
    }

    /// Whether this is a streamed event rather than the response.
    pub fn is_event(&self) -> bool {
        self.event.is_some()
    }

    /// The typed result of a successful response, or the host's error.
    pub fn into_result<T: DeserializeOwned>(self) -> Result<T, ReplyError> {
        match (self.ok, self.result, self.error) {
            (Some(true), Some(raw), None) => serde_json::from_str(raw.get())
                .map_err(|e| ReplyError::Malformed(format!("result: {e}"))),
            (Some(false), None, Some(error)) => Err(ReplyError::Host(error)),
            _ => Err(ReplyError::Malformed(
                "neither a result nor an error".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ErrorCode, Pong, RequestId, Response};

    #[test]
    fn a_reply_reads_what_the_host_writes() {
        let bytes = Response::ok(RequestId::parse("r1").ok(), &Pong { pong: true }).to_bytes();
        let reply = Reply::parse(&bytes).unwrap();
        assert_eq!(reply.request_id.as_deref(), Some("r1"));
        assert!(reply.into_result::<Pong>().unwrap().pong);
        let bytes = Response::err(None, HostError::new(ErrorCode::HelloRequired, "hi")).to_bytes();
        match Reply::parse(&bytes).unwrap().into_result::<Pong>() {
            Err(ReplyError::Host(e)) => assert_eq!(e.code, ErrorCode::HelloRequired),
            other => panic!("{other:?}"),
        }
        assert!(Reply::parse(br#"{"ok":true,"bogus":1}"#).is_err());
    }

    #[test]
    fn a_request_is_an_envelope_the_host_parses() {
        let text = serde_json::to_vec(&Request {
            request_id: Some("r2"),
            method: Method::Ping,
            params: &crate::protocol::Empty {},
        })
        .unwrap();
        let env = crate::protocol::Envelope::parse(&text).unwrap();
        assert_eq!(env.method, Method::Ping);
        assert_eq!(env.request_id.unwrap().as_str(), "r2");
    }
}
