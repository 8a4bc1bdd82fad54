//! The Markdown summary: the runs side by side, for MiniWoB++ one row per task over its
//! seeds, one row per task (episode), then what failed.

use super::cells::{
    find, group_cells, kind_cells, outcome, summary_rows, task_rows, title, GROUP_HEADERS,
    KIND_HEADERS,
};
use crate::scorecard::Scorecard;
use std::fmt::Write;

pub fn render_markdown(card: &Scorecard) -> String {
    let (heading, spec) = title(card);
    let mut md = format!("# {heading}\n\n");
    if let Some(spec) = spec {
        let _ = write!(md, "{}\n\n", one_line(&spec));
    }
    let labels: Vec<&str> = card.runs.iter().map(|r| r.mode.label()).collect();

    md.push_str("## Overall\n\n");
    table_head(&mut md, &["metric"], &labels);
    for (label, cells) in summary_rows(&card.runs) {
        table_row(&mut md, std::iter::once(label.to_owned()).chain(cells));
    }

    for run in card.runs.iter().filter(|r| !r.kinds.is_empty()) {
        let _ = write!(md, "\n## Per kind of task — {}\n\n", run.mode.label());
        table_head(&mut md, &KIND_HEADERS, &[]);
        for k in &run.kinds {
            table_row(&mut md, kind_cells(k).into_iter());
        }
    }

    for run in card.runs.iter().filter(|r| !r.groups.is_empty()) {
        let _ = write!(md, "\n## Per task, over seeds — {}\n\n", run.mode.label());
        table_head(&mut md, &GROUP_HEADERS, &[]);
        for g in &run.groups {
            table_row(&mut md, group_cells(run, g).into_iter());
        }
    }

    let rows = task_rows(&card.runs);
    let episodes = rows.iter().any(|t| t.episode.is_some());
    if episodes {
        md.push_str("\n## Episodes\n\n");
        table_head(&mut md, &["episode", "utterance"], &labels);
    } else {
        md.push_str("\n## Tasks\n\n");
        table_head(&mut md, &["task", "category", "expected"], &labels);
    }
    for first in rows {
        let cells = card.runs.iter().map(|r| match find(r, &first.id) {
            Some(t) => format!("{} {}", if t.success { "✅" } else { "❌" }, outcome(t)),
            None => "–".to_owned(),
        });
        let head = match &first.episode {
            Some(e) => vec![first.id.to_string(), e.utterance.clone()],
            None => vec![
                first.id.to_string(),
                first.category.to_string(),
                first.expected.to_string(),
            ],
        };
        table_row(&mut md, head.into_iter().chain(cells));
    }

    md.push_str("\n## Failures\n");
    for run in &card.runs {
        let _ = write!(md, "\n### {}\n\n", run.mode.label());
        let failed: Vec<_> = run
            .tasks
            .iter()
            .map(|c| &c.result)
            .filter(|t| !t.success)
            .collect();
        if failed.is_empty() {
            md.push_str("None.\n");
        }
        for t in failed {
            let status = t.status.map(|s| s.as_str()).unwrap_or("no status");
            match &t.episode {
                Some(e) => {
                    let (u, r) = (one_line(&e.utterance), t.reward);
                    let _ = write!(md, "- **{}** “{u}”: {status}, reward {r:.2}", t.id);
                }
                None => {
                    let _ = write!(md, "- **{}**: {status} (expected {})", t.id, t.expected);
                }
            }
            if let Some(reason) = t.reason.as_deref().or(t.error.as_deref()) {
                let _ = write!(md, " — {}", one_line(reason));
            }
            md.push('\n');
            for a in t.assertions.iter().filter(|a| !a.passed()) {
                let _ = writeln!(md, "  - ✗ {}: {}", a.assertion, one_line(&a.message));
            }
        }
    }
    let p = &card.pricing;
    let _ = write!(
        md,
        "\nPricing: ${}/M input tokens, ${}/M output tokens, ${}/h runtime. Decision latency is \
         measured around each policy call by the harness; step latency is the runtime's own \
         (execute + settle + observe).\n",
        p.input_usd_per_million_tokens, p.output_usd_per_million_tokens, p.runtime_usd_per_hour
    );
    md
}

fn table_head(md: &mut String, fixed: &[&str], runs: &[&str]) {
    let cols: Vec<String> = fixed.iter().chain(runs).map(|c| cell(c)).collect();
    let _ = writeln!(md, "| {} |", cols.join(" | "));
    let _ = writeln!(md, "|{}", "---|".repeat(cols.len()));
}

fn table_row(md: &mut String, cells: impl Iterator<Item = String>) {
    let cols: Vec<String> = cells.map(|c| cell(&c)).collect();
    let _ = writeln!(md, "| {} |", cols.join(" | "));
}

/// A table cell: pipes escaped, one line.
fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
