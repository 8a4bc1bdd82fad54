//! What a tool call returns: text an LLM reads cheaply (the compact view verbatim, not
//! JSON-escaped, under a few `key: value` header lines), a PNG as image content, and
//! errors as tool errors carrying the host's stable code (`structuredContent` {code,
//! message, limit}) so an agent can branch on the code.

use crate::protocol::{
    ActOutcome, ActResult, Found, HostError, Observation, RunSubtaskResult, WaitResult,
};
use rmcp::model::{CallToolResult, ContentBlock};
use std::fmt::Write;

/// What one observe reply may cost an agent, header included (o200k tokens).
pub(super) const REPLY_TOKENS: usize = 1_200;
/// The header's share: `snapshot:` and `url:` lines (the url is clipped to fit).
const HEADER_TOKENS: usize = 48;
/// The compact view's budget inside a reply.
pub(super) const VIEW_TOKENS: usize = REPLY_TOKENS - HEADER_TOKENS;

/// The header and view of one observation: `snapshot:` is what `act` cites next. The
/// title is not repeated: the view's first line is the document and its title.
pub(super) fn observation_text(o: &Observation) -> String {
    let mut out = header(&o.observation_id.0, o.url.as_deref());
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

/// `snapshot: ID` and `url: URL` within [`HEADER_TOKENS`]: a long URL loses its tail.
fn header(snapshot: &str, url: Option<&str>) -> String {
    let snapshot = format!("snapshot: {}\n", arc_core::clip(snapshot, 64));
    let Some(url) = url else { return snapshot };
    let mut keep = url.chars().count();
    loop {
        let shown: String = url.chars().take(keep).collect();
        let ellipsis = if keep < url.chars().count() {
            "…"
        } else {
            ""
        };
        let out = format!("{snapshot}url: {shown}{ellipsis}\n");
        if keep == 0 || arc_view::count_tokens(&out) <= HEADER_TOKENS {
            return out;
        }
        keep /= 2;
    }
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
        ActOutcome::LandedElsewhere => "landed_elsewhere",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_fits_its_share_whatever_the_url() {
        let long = format!("https://example.com/{}", "a-b_c~d/".repeat(400));
        for url in ["http://127.0.0.1:8080/form.html", long.as_str()] {
            let h = header("c12-s16/o123456", Some(url));
            assert!(arc_view::count_tokens(&h) <= HEADER_TOKENS, "{h}");
            assert!(h.starts_with("snapshot: c12-s16/o123456\nurl: http"), "{h}");
        }
        assert!(header("c1-s1/o1", Some(&long)).ends_with("…\n"));
        assert_eq!(
            header("c1-s1/o1", Some("http://x/")),
            "snapshot: c1-s1/o1\nurl: http://x/\n"
        );
    }
}
