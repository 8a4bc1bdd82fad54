//! JSON in, typed call, JSON out: the one place that maps a [`Method`] to a
//! [`Connection`] method. Both transports use it.

use crate::connection::Connection;
use crate::host::Host;
use crate::protocol::{
    parse_params, Empty, Envelope, ErrorCode, HelloParams, HostError, Method, RequestId, Response,
};
use serde::Serialize;
use std::sync::Arc;

pub use crate::outbox::Outbox;

/// Queues the response once the connection's reply queue has room (dropped when the peer
/// went away: nobody to tell).
async fn send(out: &Outbox, response: Response) {
    out.send(response.to_bytes()).await;
}

async fn reply<T: Serialize>(out: &Outbox, id: Option<RequestId>, result: Result<T, HostError>) {
    send(
        out,
        match result {
            Ok(r) => Response::ok(id, &r),
            Err(e) => Response::err(id, e),
        },
    )
    .await;
}

/// A message before `hello`: only `hello` is served. Returns the connection when the
/// client greeted successfully.
pub async fn greet(host: &Host, bytes: &[u8], out: &Outbox) -> Option<Arc<Connection>> {
    let envelope = match Envelope::parse(bytes) {
        Ok(e) => e,
        Err((id, e)) => {
            send(out, Response::err(id, e)).await;
            return None;
        }
    };
    let id = envelope.request_id.clone();
    if envelope.method != Method::Hello {
        send(
            out,
            Response::err(
                id,
                HostError::new(
                    ErrorCode::HelloRequired,
                    format!(
                        "{} before hello: send {{\"method\":\"hello\",\"params\":{{\"protocol_version\":1,\"client_name\":\"…\"}}}} first",
                        envelope.method.as_str()
                    ),
                ),
            ),
        )
        .await;
        return None;
    }
    let hello: HelloParams = match parse_params(Method::Hello, envelope.params) {
        Ok(h) => h,
        Err(e) => {
            send(out, Response::err(id, e)).await;
            return None;
        }
    };
    match host.connect(&hello) {
        Ok((connection, result)) => {
            send(out, Response::ok(id, &result)).await;
            Some(Arc::new(connection))
        }
        Err(e) => {
            send(out, Response::err(id, e)).await;
            None
        }
    }
}

/// One request after `hello`; its response (and a subtask's events) go to `out`.
pub async fn serve(connection: &Connection, bytes: &[u8], out: &Outbox) {
    let envelope = match Envelope::parse(bytes) {
        Ok(e) => e,
        Err((id, e)) => return send(out, Response::err(id, e)).await,
    };
    let id = envelope.request_id.clone();
    let params = envelope.params;
    let method = envelope.method;
    macro_rules! call {
        (|$p:ident| $body:expr) => {
            match parse_params(method, params) {
                Ok($p) => {
                    let result = $body;
                    reply(out, id, result).await
                }
                Err(e) => send(out, Response::err(id, e)).await,
            }
        };
    }
    match method {
        Method::Hello => {
            send(
                out,
                Response::err(
                    id,
                    HostError::new(
                        ErrorCode::AlreadyGreeted,
                        "this connection already said hello",
                    ),
                ),
            )
            .await
        }
        Method::Ping => call!(|p| {
            let _: Empty = p;
            Ok::<_, HostError>(connection.ping())
        }),
        Method::Manifest => call!(|p| {
            let _: Empty = p;
            Ok::<_, HostError>(connection.host().manifest())
        }),
        Method::ListTargets => call!(|p| {
            let _: Empty = p;
            connection.list_targets().await
        }),
        Method::OpenSession => call!(|p| connection.open_session(p).await),
        Method::Observe => call!(|p| connection.observe(p).await),
        Method::Find => call!(|p| connection.find(p).await),
        Method::Act => call!(|p| connection.act(p).await),
        Method::WaitFor => call!(|p| connection.wait_for(p).await),
        Method::RunSubtask => call!(|p| {
            let events = out.clone();
            let event_id = id.clone();
            connection
                .run_subtask(p, move |event| {
                    if let Some(r) = Response::event(event_id.clone(), event) {
                        // Events of one run are bounded by its steps; the
                        // callback cannot wait, the run's reply does.
                        events.push(r.to_bytes());
                    }
                })
                .await
        }),
        Method::StopSession => call!(|p| connection.stop_session(p).await),
        Method::Downloads => call!(|p| connection.downloads(p).await),
        Method::InterruptAll => call!(|p| {
            let _: Empty = p;
            Ok::<_, HostError>(connection.interrupt_all().await)
        }),
    }
}
