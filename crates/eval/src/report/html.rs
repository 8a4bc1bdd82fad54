//! The HTML report: one file, inline CSS, no scripts or external resources; screenshots
//! (when captured) embedded as data URIs. Readable top to bottom: the runs side by side,
//! one row per task, then each task's details per mode.

use super::cells::{find, outcome, steps, summary_rows, task_rows};
use crate::scorecard::{Scorecard, TaskCard};
use std::fmt::Write;

const STYLE: &str = "
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:78rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}h3{margin:1.2rem 0 .4rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.3rem .55rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}.pass{color:#0a6b22;font-weight:600}.fail{color:#a30d0d;font-weight:600}
details{margin:.4rem 0;border:1px solid #ddd;border-radius:4px;padding:.3rem .7rem}summary{cursor:pointer;font-weight:600}
.modes{display:grid;grid-template-columns:repeat(auto-fit,minmax(28rem,1fr));gap:1rem}
.shot{max-width:100%;border:1px solid #bbb;margin:.3rem 0}code{background:#f4f4f4;padding:0 .2rem}
.muted{color:#666}ul{margin:.3rem 0;padding-left:1.2rem}";

pub fn render_html(card: &Scorecard) -> String {
    let mut h = String::from("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    let _ = write!(
        h,
        "<title>arc-cua evaluation report</title><style>{STYLE}</style></head><body>"
    );
    h.push_str("<h1>arc-cua evaluation report</h1>");
    let labels: Vec<String> = card.runs.iter().map(|r| esc(r.mode.label())).collect();

    h.push_str("<h2>Overall</h2><table><tr><th>metric</th>");
    for l in &labels {
        let _ = write!(h, "<th>{l}</th>");
    }
    h.push_str("</tr>");
    for (label, cells) in summary_rows(&card.runs) {
        let _ = write!(h, "<tr><th>{}</th>", esc(label));
        for c in cells {
            let _ = write!(h, "<td>{}</td>", esc(&c));
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");

    h.push_str("<h2>Tasks</h2><table><tr><th>task</th><th>category</th><th>expected</th>");
    for l in &labels {
        let _ = write!(h, "<th>{l}</th>");
    }
    h.push_str("</tr>");
    let rows = task_rows(&card.runs);
    for (id, category, expected) in &rows {
        let _ = write!(
            h,
            "<tr><td><a href=\"#task-{0}\">{0}</a></td><td>{1}</td><td>{2}</td>",
            esc(id.as_str()),
            esc(category.as_str()),
            esc(&expected.to_string())
        );
        for run in &card.runs {
            match find(run, id) {
                Some(t) => {
                    let _ = write!(h, "<td>{} {}</td>", verdict(t.success), esc(&outcome(t)));
                }
                None => h.push_str("<td>–</td>"),
            }
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");

    h.push_str("<h2>Task details</h2>");
    for (id, category, expected) in &rows {
        // A task that failed in any mode is shown open: that is what a reader looks for.
        let failed = card
            .runs
            .iter()
            .any(|r| find(r, id).is_some_and(|t| !t.success));
        let _ = write!(
            h,
            "<details id=\"task-{0}\"{3}><summary>{0} <span class=\"muted\">({1}; expected {2})</span></summary><div class=\"modes\">",
            esc(id.as_str()),
            esc(category.as_str()),
            esc(&expected.to_string()),
            if failed { " open" } else { "" }
        );
        for run in &card.runs {
            if let Some(t) = find(run, id) {
                let _ = write!(h, "<div><h3>{}</h3>", esc(run.mode.label()));
                task_detail(&mut h, t);
                h.push_str("</div>");
            }
        }
        h.push_str("</div></details>");
    }
    let p = &card.pricing;
    let _ = write!(
        h,
        "<p class=\"muted\">Pricing: ${} per million input tokens, ${} per million output tokens, \
         ${} per hour of runtime. Decision latency is measured by the harness around each \
         policy call; step latency is the runtime's own (execute, settle, observe). Assertions \
         are checked in the page by the harness, never taken from the runtime's result.</p>",
        p.input_usd_per_million_tokens, p.output_usd_per_million_tokens, p.runtime_usd_per_hour
    );
    h.push_str("</body></html>\n");
    h
}

fn task_detail(h: &mut String, t: &TaskCard) {
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
    if let Some(r) = &t.reason {
        let _ = write!(h, "<p>Reason: {}</p>", esc(r));
    }
    if let Some(e) = &t.error {
        let _ = write!(h, "<p class=\"fail\">Harness error: {}</p>", esc(e));
    }
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
    let _ = write!(
        h,
        "<p class=\"muted\">{}{}, {} stale retries, {} escalations, {} model calls, {} ms</p>",
        steps(t.steps),
        t.reference_steps
            .map(|r| format!(" (reference {r})"))
            .unwrap_or_default(),
        t.stale_retries,
        t.escalations,
        t.model_calls,
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
    if t.trace.is_empty() {
        return;
    }
    h.push_str("<table><tr><th>#</th><th>action</th><th>target</th><th>changed</th><th>ms</th><th>by</th></tr>");
    for s in &t.trace {
        let by = s
            .decided_by
            .map(|d| format!("{d:?}").to_lowercase())
            .unwrap_or_default();
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            s.step,
            esc(&s.action.to_string()),
            esc(s.target.as_deref().unwrap_or("")),
            if s.state_changed { "yes" } else { "no" },
            s.elapsed_ms,
            esc(&by)
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

fn verdict(ok: bool) -> &'static str {
    if ok {
        "<span class=\"pass\">✓ pass</span>"
    } else {
        "<span class=\"fail\">✗ fail</span>"
    }
}

/// Escapes text for HTML content and attribute values.
fn esc(s: &str) -> String {
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
