//! The compact view renderer. The one module that names it: when the view moves to its
//! own crate, only the `use` below changes.

use crate::props;
use crate::snapshot::{build, Case};
use arc_view::{count_tokens, render, ViewOptions};

/// Budgets at which the notice itself must fit (below, an empty view may say nothing).
const NOTICE_FITS: usize = 40;

/// Never panics; never over its budget (counted here, not taken from the view); a view
/// that left out a visible element says so; one that did not shows every visible id.
pub fn check(case: &Case) -> Result<bool, String> {
    let snapshot = build(case);
    let opts = ViewOptions {
        budget_tokens: case.budget,
        indent: case.indent,
    };
    let view = props::no_panic(|| render(&snapshot, &opts))?;
    let tokens = count_tokens(&view.text);
    if tokens != view.tokens {
        return Err(format!("claims {} tokens, has {tokens}", view.tokens));
    }
    if tokens > case.budget {
        return Err(format!("{tokens} tokens over a budget of {}", case.budget));
    }
    let visible: Vec<&str> = snapshot
        .elements
        .iter()
        .filter(|e| e.visible)
        .map(|e| e.id.as_str())
        .collect();
    if view.truncated {
        if view.notice.is_none() {
            return Err("truncated without a notice".into());
        }
        if case.budget >= NOTICE_FITS && !view.text.contains("# truncated") {
            return Err(format!(
                "truncated at a budget of {} without announcing it",
                case.budget
            ));
        }
    } else {
        // One line per visible element (a name's newlines must not break the shape),
        // and every plain id shown as written (the view cleans odd ones).
        let lines = view.text.lines().count();
        if lines != visible.len() {
            return Err(format!(
                "not truncated, yet {lines} lines for {} visible elements",
                visible.len()
            ));
        }
        let plain = |id: &&&str| {
            id.len() <= 40 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        if let Some(id) = visible
            .iter()
            .filter(plain)
            .find(|id| !view.text.contains(&format!("[{id}]")))
        {
            return Err(format!(
                "not truncated, yet visible element {id:?} is missing"
            ));
        }
    }
    Ok(!view.truncated)
}
