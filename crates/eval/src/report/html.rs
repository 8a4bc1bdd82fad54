//! The HTML report: one file, inline CSS, no scripts or external resources; screenshots
//! (when captured) embedded as data URIs. Readable top to bottom: the runs side by side,
//! for MiniWoB++ one row per task over its seeds, one row per task (episode), then each
//! one's details per mode, collapsible. Every string from a task or a page is escaped.

use super::cells::{
    find, group_cells, kind_cells, outcome, summary_rows, task_rows, title, GROUP_HEADERS,
    KIND_HEADERS,
};
use super::html_task::{esc, task_detail, verdict};
use crate::result::TaskResult;
use crate::scorecard::Scorecard;
use std::fmt::Write;

const STYLE: &str = "
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:78rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}h3{margin:1.2rem 0 .4rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ccc;padding:.3rem .55rem;text-align:left;vertical-align:top}
th{background:#f2f2f2}.pass{color:#0a6b22;font-weight:600}.fail{color:#a30d0d;font-weight:600}
details{margin:.4rem 0;border:1px solid #ddd;border-radius:4px;padding:.3rem .7rem}summary{cursor:pointer;font-weight:600}
.modes{display:grid;grid-template-columns:repeat(auto-fit,minmax(28rem,1fr));gap:1rem}
.shot{max-width:100%;border:1px solid #bbb;margin:.3rem 0;display:block}code{background:#f4f4f4;padding:0 .2rem}
.muted{color:#666}ul{margin:.3rem 0;padding-left:1.2rem}q{font-style:italic}";

pub fn render_html(card: &Scorecard) -> String {
    let (heading, spec) = title(card);
    let mut h = String::from("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    let _ = write!(
        h,
        "<title>{heading}</title><style>{STYLE}</style></head><body>"
    );
    let _ = write!(h, "<h1>{heading}</h1>");
    if let Some(spec) = &spec {
        let _ = write!(h, "<p class=\"muted\">{}</p>", esc(spec));
    }
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

    for run in card.runs.iter().filter(|r| !r.kinds.is_empty()) {
        let _ = write!(
            h,
            "<h2>Per kind of task — {}</h2><table><tr>",
            esc(run.mode.label())
        );
        for col in KIND_HEADERS {
            let _ = write!(h, "<th>{}</th>", esc(col));
        }
        h.push_str("</tr>");
        for k in &run.kinds {
            h.push_str("<tr>");
            for c in kind_cells(k) {
                let _ = write!(h, "<td>{}</td>", esc(&c));
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
    }

    for run in card.runs.iter().filter(|r| !r.groups.is_empty()) {
        let _ = write!(
            h,
            "<h2>Per task, over seeds — {}</h2><table><tr>",
            esc(run.mode.label())
        );
        for col in GROUP_HEADERS {
            let _ = write!(h, "<th>{}</th>", esc(col));
        }
        h.push_str("</tr>");
        for g in &run.groups {
            h.push_str("<tr>");
            for c in group_cells(run, g) {
                let _ = write!(h, "<td>{}</td>", esc(&c));
            }
            h.push_str("</tr>");
        }
        h.push_str("</table>");
    }

    let rows = task_rows(&card.runs);
    let episodes = rows.iter().any(|t| t.episode.is_some());
    h.push_str(if episodes {
        "<h2>Episodes</h2><table><tr><th>episode</th><th>utterance</th>"
    } else {
        "<h2>Tasks</h2><table><tr><th>task</th><th>category</th><th>expected</th>"
    });
    for l in &labels {
        let _ = write!(h, "<th>{l}</th>");
    }
    h.push_str("</tr>");
    for first in &rows {
        let _ = write!(
            h,
            "<tr><td><a href=\"#task-{0}\">{0}</a></td>",
            esc(first.id.as_str())
        );
        match &first.episode {
            Some(e) => {
                let _ = write!(h, "<td>{}</td>", esc(&e.utterance));
            }
            None => {
                let _ = write!(
                    h,
                    "<td>{}</td><td>{}</td>",
                    esc(first.category.as_str()),
                    esc(&first.expected.to_string())
                );
            }
        }
        for run in &card.runs {
            match find(run, &first.id) {
                Some(t) => {
                    let _ = write!(h, "<td>{} {}</td>", verdict(t.success), esc(&outcome(t)));
                }
                None => h.push_str("<td>–</td>"),
            }
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");

    h.push_str(if episodes {
        "<h2>Episode details</h2>"
    } else {
        "<h2>Task details</h2>"
    });
    for first in &rows {
        details(&mut h, card, first);
    }
    let p = &card.pricing;
    let _ = write!(
        h,
        "<p class=\"muted\">Pricing: ${} per million input tokens, ${} per million output tokens, \
         ${} per hour of runtime. Decision latency is measured by the harness around each \
         policy call; step latency is the runtime's own (execute, settle, observe). {}</p>",
        p.input_usd_per_million_tokens,
        p.output_usd_per_million_tokens,
        p.runtime_usd_per_hour,
        if episodes {
            "Rewards are read from the page by the harness (success: raw reward &gt; 0), never \
             taken from the runtime's result; a run's time is its first observation to its \
             result."
        } else {
            "Assertions are checked in the page by the harness, never taken from the runtime's \
             result."
        }
    );
    h.push_str("</body></html>\n");
    h
}

/// One task's (episode's) details in every mode, collapsible.
fn details(h: &mut String, card: &Scorecard, first: &TaskResult) {
    let id = &first.id;
    // A task that failed in any mode is shown open: that is what a reader looks for.
    let failed = card
        .runs
        .iter()
        .any(|r| find(r, id).is_some_and(|t| !t.success));
    let open = if failed { " open" } else { "" };
    let about = match &first.episode {
        Some(e) => format!("<q>{}</q>", esc(&e.utterance)),
        None => format!(
            "({}; expected {})",
            esc(first.category.as_str()),
            esc(&first.expected.to_string())
        ),
    };
    let _ = write!(
        h,
        "<details id=\"task-{0}\"{open}><summary>{0} <span class=\"muted\">{about}</span></summary><div class=\"modes\">",
        esc(id.as_str()),
    );
    for run in &card.runs {
        if let Some(t) = find(run, id) {
            let _ = write!(h, "<div><h3>{}</h3>", esc(run.mode.label()));
            task_detail(h, t);
            h.push_str("</div>");
        }
    }
    h.push_str("</div></details>");
}
