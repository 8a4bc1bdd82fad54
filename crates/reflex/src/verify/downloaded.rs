//! "The monthly report is downloaded": a file the run downloaded. Only the run's own
//! records show it — each step carries the downloads the backend saved during it — so a
//! file downloaded before the run, or by no action of it, never counts.

use super::super::stem::{content_stems, has_all};
use super::super::text::normalize;
use arc_core::ActionRecord;

/// The run saved a download whose name, or the control whose press downloaded it, says
/// every content word of `words` (normalized; empty: any download).
pub(super) fn downloaded(h: &[ActionRecord], words: &str) -> Result<(), String> {
    let stems = content_stems(words);
    let says = |text: &str| stems.is_empty() || has_all(&normalize(text), &stems);
    let mut saved = h
        .iter()
        .flat_map(|r| r.downloads.iter().map(move |d| (r, d)));
    let found = saved.any(|(r, d)| {
        says(&d.name)
            || (r.action.kind() != arc_core::ActionKind::Wait
                && r.target_name.as_deref().is_some_and(says))
    });
    if found {
        return Ok(());
    }
    let any: Vec<&str> = h
        .iter()
        .flat_map(|r| r.downloads.iter().map(|d| d.name.as_str()))
        .collect();
    Err(if any.is_empty() {
        "the run downloaded no file".to_owned()
    } else {
        format!("the run downloaded {any:?}, none of them {words:?}")
    })
}
