//! Stage one of parsing: the envelope. Stage two, the params, goes through
//! [`parse_params`], which names the failing field.

use super::error::{ErrorCode, HostError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The longest `request_id` echoed back.
pub const MAX_REQUEST_ID_CHARS: usize = 128;

/// A client's correlation id: 1–128 characters, no control characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct RequestId(String);

impl RequestId {
    pub fn parse(raw: &str) -> Result<RequestId, HostError> {
        let n = raw.chars().count();
        if n == 0 || n > MAX_REQUEST_ID_CHARS || raw.chars().any(char::is_control) {
            return Err(HostError::new(
                ErrorCode::InvalidRequest,
                format!("request_id must be 1–{MAX_REQUEST_ID_CHARS} characters without control characters (got {n})"),
            ));
        }
        Ok(RequestId(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Every method the host serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Hello,
    Ping,
    Manifest,
    ListTargets,
    OpenSession,
    Observe,
    Find,
    Act,
    WaitFor,
    RunSubtask,
    StopSession,
    InterruptAll,
    /// The files the session's page downloaded and the host saved.
    Downloads,
}

impl Method {
    pub const ALL: [Method; 13] = [
        Method::Hello,
        Method::Ping,
        Method::Manifest,
        Method::ListTargets,
        Method::OpenSession,
        Method::Observe,
        Method::Find,
        Method::Act,
        Method::WaitFor,
        Method::RunSubtask,
        Method::StopSession,
        Method::InterruptAll,
        Method::Downloads,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Hello => "hello",
            Method::Ping => "ping",
            Method::Manifest => "manifest",
            Method::ListTargets => "list_targets",
            Method::OpenSession => "open_session",
            Method::Observe => "observe",
            Method::Find => "find",
            Method::Act => "act",
            Method::WaitFor => "wait_for",
            Method::RunSubtask => "run_subtask",
            Method::StopSession => "stop_session",
            Method::InterruptAll => "interrupt_all",
            Method::Downloads => "downloads",
        }
    }

    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEnvelope<'a> {
    #[serde(default)]
    request_id: Option<String>,
    method: String,
    #[serde(default, borrow)]
    params: Option<&'a RawValue>,
}

/// Only the id, read leniently from a request whose envelope failed, so even that
/// error echoes it when it can.
#[derive(Deserialize)]
struct IdOnly {
    #[serde(default)]
    request_id: Option<String>,
}

/// A parsed envelope: the method is known, the params are still raw.
#[derive(Debug)]
pub struct Envelope<'a> {
    pub request_id: Option<RequestId>,
    pub method: Method,
    pub params: Option<&'a RawValue>,
}

impl<'a> Envelope<'a> {
    /// Parses the envelope. On failure the error comes with whatever request id could
    /// be read, to be echoed.
    pub fn parse(bytes: &'a [u8]) -> Result<Envelope<'a>, (Option<RequestId>, HostError)> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            (
                None,
                HostError::new(
                    ErrorCode::InvalidJson,
                    format!("the request is not UTF-8: {e}"),
                ),
            )
        })?;
        // A UTF-8 BOM is not part of the JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let raw: RawEnvelope<'a> = match serde_json::from_str(text) {
            Ok(raw) => raw,
            Err(e) => {
                let id = serde_json::from_str::<IdOnly>(text)
                    .ok()
                    .and_then(|i| i.request_id)
                    .and_then(|id| RequestId::parse(&id).ok());
                let code = if e.is_syntax() || e.is_eof() {
                    ErrorCode::InvalidJson
                } else {
                    ErrorCode::InvalidRequest
                };
                let what = if code == ErrorCode::InvalidJson {
                    "the request is not JSON"
                } else {
                    "the request must be {\"request_id\"?, \"method\", \"params\"?}"
                };
                return Err((
                    id,
                    HostError::new(
                        code,
                        format!("{what}: {}", arc_core::clip_quoted(&e.to_string())),
                    ),
                ));
            }
        };
        let request_id = match raw.request_id.as_deref().map(RequestId::parse) {
            Some(Ok(id)) => Some(id),
            Some(Err(e)) => return Err((None, e)),
            None => None,
        };
        let Some(method) = Method::parse(&raw.method) else {
            let known: Vec<&str> = Method::ALL.iter().map(|m| m.as_str()).collect();
            return Err((
                request_id,
                HostError::new(
                    ErrorCode::UnknownMethod,
                    format!(
                        "unknown method {:?}; the host serves {}",
                        arc_core::clip(&raw.method, 64),
                        known.join(", ")
                    ),
                ),
            ));
        };
        Ok(Envelope {
            request_id,
            method,
            params: raw.params,
        })
    }
}

/// Stage two: the method's params (absent params read as `{}`), the error naming the
/// field that failed (`params.action.target_id: missing field`).
pub fn parse_params<T: DeserializeOwned>(
    method: Method,
    params: Option<&RawValue>,
) -> Result<T, HostError> {
    let text = params.map(RawValue::get).unwrap_or("{}");
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    if let (Ok(_), Err(e)) = (&parsed, de.end()) {
        return Err(HostError::new(
            ErrorCode::InvalidParams,
            format!(
                "{} params: trailing characters after the object ({e})",
                method.as_str()
            ),
        ));
    }
    parsed.map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." || path.is_empty() {
            "params".to_owned()
        } else {
            format!("params.{path}")
        };
        HostError::new(
            ErrorCode::InvalidParams,
            format!(
                "{} {field}: {} (see `manifest` for the method's params)",
                method.as_str(),
                arc_core::clip_quoted(&e.into_inner().to_string())
            ),
        )
    })
}

/// One outgoing message: a response (result or error) or a streamed event.
#[derive(Debug, Serialize)]
pub struct Response {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<HostError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Box<RawValue>>,
}

impl Response {
    pub fn ok(request_id: Option<RequestId>, result: &impl Serialize) -> Response {
        match serde_json::value::to_raw_value(result) {
            Ok(raw) => Response {
                request_id,
                ok: Some(true),
                result: Some(raw),
                error: None,
                event: None,
            },
            Err(e) => Response::err(
                request_id,
                HostError::new(
                    ErrorCode::BackendFailure,
                    format!("cannot encode the result: {e}"),
                ),
            ),
        }
    }

    pub fn err(request_id: Option<RequestId>, error: HostError) -> Response {
        Response {
            request_id,
            ok: Some(false),
            result: None,
            error: Some(error),
            event: None,
        }
    }

    pub fn event(request_id: Option<RequestId>, event: &impl Serialize) -> Option<Response> {
        let raw = serde_json::value::to_raw_value(event).ok()?;
        Some(Response {
            request_id,
            ok: None,
            result: None,
            error: None,
            event: Some(raw),
        })
    }

    /// The JSON text (never fails: every part is already JSON).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_else(|_| b"{\"ok\":false}".to_vec())
    }
}
