//! The scorecard written out: JSON (the data), Markdown (a summary to paste), and one
//! self-contained HTML page (inline CSS, screenshots as data URIs) a person can open.

mod cells;
mod html;
mod html_task;
mod markdown;

pub use html::render_html;
pub use markdown::render_markdown;

use crate::error::EvalError;
use crate::result::SuiteKind;
use crate::scorecard::Scorecard;
use std::path::{Path, PathBuf};

pub const JSON_FILE: &str = "scorecard.json";
pub const MARKDOWN_FILE: &str = "scorecard.md";
pub const HTML_FILE: &str = "report.html";

/// A MiniWoB++ scorecard's files, so one directory can hold both kinds of report.
pub const MINIWOB_FILES: [&str; 3] = ["miniwob.json", "miniwob.md", "miniwob.html"];

/// The JSON, Markdown and HTML file names for a scorecard of this kind.
pub fn file_names(card: &Scorecard) -> [&'static str; 3] {
    match card.runs.first().map(|r| &r.kind) {
        Some(SuiteKind::Miniwob(_)) => MINIWOB_FILES,
        _ => [JSON_FILE, MARKDOWN_FILE, HTML_FILE],
    }
}

/// Where [`write_all`] put the three files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub json: PathBuf,
    pub markdown: PathBuf,
    pub html: PathBuf,
}

/// Writes `scorecard.json`, `scorecard.md` and `report.html` (MiniWoB++:
/// `miniwob.json`, `miniwob.md`, `miniwob.html`) into `dir` (created if missing).
pub fn write_all(scorecard: &Scorecard, dir: &Path) -> Result<Written, EvalError> {
    std::fs::create_dir_all(dir).map_err(|source| EvalError::Write {
        path: dir.to_owned(),
        source,
    })?;
    let json = serde_json::to_string_pretty(scorecard).map_err(|source| EvalError::Serialize {
        what: "the scorecard",
        source,
    })?;
    let [json_file, markdown_file, html_file] = file_names(scorecard);
    let written = Written {
        json: dir.join(json_file),
        markdown: dir.join(markdown_file),
        html: dir.join(html_file),
    };
    write(&written.json, &json)?;
    write(&written.markdown, &render_markdown(scorecard))?;
    write(&written.html, &render_html(scorecard))?;
    Ok(written)
}

/// Reads a scorecard written by [`write_all`].
pub fn read_json(path: &Path) -> Result<Scorecard, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text)
        .map_err(|e| EvalError::task(path.display().to_string(), e.to_string()))
}

fn write(path: &Path, text: &str) -> Result<(), EvalError> {
    std::fs::write(path, text).map_err(|source| EvalError::Write {
        path: path.to_owned(),
        source,
    })
}
