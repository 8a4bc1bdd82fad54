//! One task's (or MiniWoB++ episode's) detail in the HTML report: verdict, status and
//! reason, the runtime's verdict per criterion with its evidence, the page's reward or the
//! assertions, the counters, and the step trace with a
//! screenshot per step when captured.

use super::cells::steps;
use crate::miniwob::Episode;
use crate::result::TaskResult;
use std::fmt::Write;

pub(super) fn task_detail(h: &mut String, t: &TaskResult) {
    let status = t.status.map(|s| s.as_str()).unwrap_or("no status");
    let _ = write!(h, "<p>{} <code>{}</code>", verdict(t.success), esc(status));
    if let Some(term) = t.termination {
        // The wire name (`no_change_limit`), as in the runtime's own result.
        let name = serde_json::to_value(term)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let _ = write!(h, " <span class=\"muted\">({})</span>", esc(&name));
    }
    h.push_str("</p>");
    if let Some(e) = &t.episode {
        episode(h, e, t.reward);
    }
    if let Some(r) = &t.reason {
        let _ = write!(h, "<p>Reason: {}</p>", esc(r));
    }
    if let Some(e) = &t.error {
        let _ = write!(h, "<p class=\"fail\">Harness error: {}</p>", esc(e));
    }
    // The runtime's own judgement of each criterion, beside the page's (below).
    if !t.verification.is_empty() {
        h.push_str("<p>The runtime's verdicts:</p><ul>");
        for v in &t.verification {
            let _ = write!(
                h,
                "<li>{} {} — read as <em>{}</em> — <span class=\"muted\">{}</span></li>",
                if v.holds {
                    "<span class=\"pass\">✓ holds</span>"
                } else {
                    "<span class=\"fail\">✗ not met</span>"
                },
                esc(&v.criterion),
                esc(&v.check),
                esc(&v.evidence.text)
            );
        }
        h.push_str("</ul>");
    }
    if !t.assertions.is_empty() {
        h.push_str("<ul>");
        for a in &t.assertions {
            let _ = write!(
                h,
                "<li>{} {} — <span class=\"muted\">{}</span></li>",
                verdict(a.passed()),
                esc(&a.assertion.to_string()),
                esc(&a.message)
            );
        }
        h.push_str("</ul>");
    }
    let _ = write!(
        h,
        "<p class=\"muted\">{}{}, {} stale retries, {} escalations, {} model calls, run {} ms, all {} ms</p>",
        steps(t.steps),
        t.reference_steps
            .map(|r| format!(" (reference {r})"))
            .unwrap_or_default(),
        t.stale_retries,
        t.escalations,
        t.model_calls,
        t.run_ms,
        t.wall_ms
    );
    if let Some(shot) = &t.start_screenshot {
        let _ = write!(
            h,
            "<p>Start:</p><img class=\"shot\" alt=\"{} at the start\" src=\"{}\">",
            esc(t.id.as_str()),
            esc(&shot.0)
        );
    }
    trace(h, t);
}

fn episode(h: &mut String, e: &Episode, raw: f64) {
    let _ = write!(
        h,
        "<p>Utterance: <q>{}</q> <span class=\"muted\">(task {}, seed {})</span></p>",
        esc(&e.utterance),
        esc(e.task.as_str()),
        e.seed
    );
    let _ = write!(
        h,
        "<p>Page reward: raw {raw:.2}, time-decayed {:.2}, episode {}",
        e.decayed_reward,
        if e.done { "done" } else { "not done" }
    );
    if let Some(r) = &e.reward_reason {
        let _ = write!(h, " — {}", esc(r));
    }
    h.push_str("</p>");
    let mut planned = Vec::new();
    if !e.input_keys.is_empty() {
        planned.push(format!("inputs {}", e.input_keys.join(", ")));
    }
    if !e.verification.is_empty() {
        planned.push(format!("criteria: {}", e.verification.join(" · ")));
    }
    if !planned.is_empty() {
        let _ = write!(
            h,
            "<p class=\"muted\">Planned {}</p>",
            esc(&planned.join("; "))
        );
    }
}

fn trace(h: &mut String, t: &TaskResult) {
    if t.trace.is_empty() {
        return;
    }
    h.push_str("<table><tr><th>#</th><th>action</th><th>target</th><th>changed</th><th>ms</th><th>by</th></tr>");
    for s in &t.trace {
        let by = s.decided_by.map(|d| d.as_str()).unwrap_or_default();
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.step,
            esc(&s.action.to_string()),
            esc(s.target.as_deref().unwrap_or("")),
            if s.state_changed { "yes" } else { "no" },
            s.elapsed_ms,
            esc(by)
        );
        if let Some(shot) = &s.screenshot {
            let _ = write!(
                h,
                "<tr><td colspan=\"6\"><img class=\"shot\" alt=\"after step {}\" src=\"{}\"></td></tr>",
                s.step,
                esc(&shot.0)
            );
        }
    }
    h.push_str("</table>");
}

pub(super) fn verdict(ok: bool) -> &'static str {
    if ok {
        "<span class=\"pass\">✓ pass</span>"
    } else {
        "<span class=\"fail\">✗ fail</span>"
    }
}

/// Escapes text for HTML content and attribute values.
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
