//! What a tool call returns: text an LLM reads cheaply (the compact view verbatim, not
//! JSON-escaped, under a few `key: value` header lines), a PNG as image content, and
//! errors as tool errors carrying the host's stable code (`structuredContent` {code,
//! message, limit}) so an agent can branch on the code.

use crate::protocol::{
    ActOutcome, ActResult, Found, HostError, Observation, RunSubtaskResult, WaitResult,
};
use rmcp::model::{CallToolResult, ContentBlock};
use std::fmt::Write;

/// The header and view of one observation: `snapshot:` is what `act` cites next.
pub(super) fn observation_text(o: &Observation) -> String {
    let mut out = format!("snapshot: {}\n", o.observation_id.0);
    if let Some(url) = &o.url {
        let _ = writeln!(out, "url: {url}");
    }
    let _ = writeln!(out, "title: {}", o.title);
    if let Some(delta) = &o.delta {
        let _ = writeln!(
            out,
            "since {}: {} added, {} removed, {} changed",
            delta.since.0,
            delta.added.len(),
            delta.removed.len(),
            delta.changed.len()
        );
    }
    out.push_str(&o.view);
    out
}

/// An observation as content blocks: the text, every element as JSON when asked, the
/// PNG when asked.
pub(super) fn observation(o: &Observation) -> Result<CallToolResult, HostError> {
    let mut content = vec![ContentBlock::text(observation_text(o))];
    if let Some(elements) = &o.elements {
        content.push(ContentBlock::text(json(elements)?));
    }
    if let Some(png) = &o.png_base64 {
        content.push(ContentBlock::image(png.clone(), "image/png"));
    }
    Ok(CallToolResult::success(content))
}

pub(super) fn act(r: &ActResult) -> Result<CallToolResult, HostError> {
    let mut text = format!("status: {}\n", outcome(r.outcome));
    if let Some(reason) = &r.reason {
        let _ = writeln!(text, "reason: {reason}");
    }
    let mut content = vec![];
    match &r.observation {
        Some(o) => {
            text.push_str(&observation_text(o));
            content.push(ContentBlock::text(text));
            if let Some(png) = &o.png_base64 {
                content.push(ContentBlock::image(png.clone(), "image/png"));
            }
        }
        None => {
            text.push_str("observe again before the next action");
            content.push(ContentBlock::text(text));
        }
    }
    Ok(CallToolResult::success(content))
}

fn outcome(o: ActOutcome) -> &'static str {
    match o {
        ActOutcome::Done => "done",
        ActOutcome::Changed => "changed",
        ActOutcome::Stale => "stale",
        ActOutcome::Refused => "refused",
    }
}

pub(super) fn found(f: &Found) -> CallToolResult {
    let mut text = format!("snapshot: {}\n", f.observation_id.0);
    if f.hits.is_empty() {
        text.push_str("no element matches");
    }
    for hit in &f.hits {
        text.push_str(hit.line.trim_start());
        if !hit.context.is_empty() {
            let _ = write!(text, "  (in {})", hit.context);
        }
        text.push('\n');
    }
    CallToolResult::success(vec![ContentBlock::text(text.trim_end().to_owned())])
}

pub(super) fn waited(w: &WaitResult) -> CallToolResult {
    let text = format!(
        "met: {}\nwaited_ms: {}\n{}",
        w.met,
        w.waited_ms,
        observation_text(&w.observation)
    );
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// The executor's result in the contract's wire JSON, and the snapshot to chain on.
pub(super) fn ran(r: &RunSubtaskResult) -> Result<CallToolResult, HostError> {
    let text = format!(
        "snapshot: {}\nresult: {}",
        r.observation_id.0,
        json(&r.result)?
    );
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

pub(super) fn text(body: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(body)])
}

/// A host error as a tool error: `code: message` for the model, the code typed for a
/// program.
pub(super) fn error(e: &HostError) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(format!(
        "{}: {}",
        e.code, e.message
    ))]);
    result.structured_content = serde_json::to_value(e).ok();
    result
}

pub(super) fn json<T: serde::Serialize>(value: &T) -> Result<String, HostError> {
    serde_json::to_string(value).map_err(|e| {
        HostError::new(
            crate::protocol::ErrorCode::BackendFailure,
            format!("cannot serialize the reply: {e}"),
        )
    })
}
