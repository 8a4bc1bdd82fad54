//! The registered MiniWoB++ tasks and task names. A name is only ever used to build the
//! page's URL and to label result rows: the planner, the executor and the policies never
//! see it.

use super::error::MiniwobError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The tasks the harness runs by default (issue 13, item 3: the whole package but the
/// debug pages), in the order, each with the kind its report table groups it by.
pub const REGISTERED: [(&str, TaskKind); 113] = [
    ("click-test", TaskKind::ClickForm),
    ("click-test-2", TaskKind::ClickForm),
    ("click-button", TaskKind::ClickForm),
    ("click-button-sequence", TaskKind::ClickForm),
    ("click-link", TaskKind::ClickForm),
    ("click-dialog", TaskKind::ClickForm),
    ("click-dialog-2", TaskKind::ClickForm),
    ("click-tab", TaskKind::ClickForm),
    ("click-tab-2", TaskKind::ClickForm),
    ("click-tab-2-hard", TaskKind::ClickForm),
    ("click-collapsible", TaskKind::ClickForm),
    ("click-collapsible-2", TaskKind::ClickForm),
    ("click-option", TaskKind::ClickForm),
    ("click-checkboxes", TaskKind::ClickForm),
    ("click-checkboxes-soft", TaskKind::ReasoningVisual),
    ("click-widget", TaskKind::ClickForm),
    ("navigate-tree", TaskKind::ClickForm),
    ("choose-list", TaskKind::ClickForm),
    ("click-scroll-list", TaskKind::ClickForm),
    ("enter-text", TaskKind::ClickForm),
    ("enter-text-2", TaskKind::ClickForm),
    ("enter-password", TaskKind::ClickForm),
    ("login-user", TaskKind::ClickForm),
    ("login-user-popup", TaskKind::ClickForm),
    ("focus-text", TaskKind::ClickForm),
    ("focus-text-2", TaskKind::ClickForm),
    ("form-sequence-2", TaskKind::ClickForm),
    ("multi-layouts", TaskKind::ClickForm),
    ("multi-orderings", TaskKind::ClickForm),
    ("copy-paste", TaskKind::Widget),
    ("find-word", TaskKind::Reading),
    ("read-table", TaskKind::Reading),
    ("read-table-2", TaskKind::Reading),
    ("text-transform", TaskKind::Reading),
    ("use-autocomplete", TaskKind::Widget),
    ("use-autocomplete-nodelay", TaskKind::Widget),
    ("use-spinner", TaskKind::ClickForm),
    ("enter-date", TaskKind::ClickForm),
    ("enter-time", TaskKind::Widget),
    ("choose-date", TaskKind::Widget),
    ("choose-date-easy", TaskKind::ClickForm),
    ("choose-date-medium", TaskKind::Widget),
    ("choose-date-nodelay", TaskKind::Widget),
    ("click-menu", TaskKind::ClickForm),
    ("click-menu-2", TaskKind::Widget),
    ("click-pie", TaskKind::Widget),
    ("click-pie-nodelay", TaskKind::Widget),
    ("use-slider", TaskKind::Widget),
    ("use-slider-2", TaskKind::Widget),
    ("form-sequence", TaskKind::ClickForm),
    ("scroll-text-2", TaskKind::Widget),
    ("sign-agreement", TaskKind::Widget),
    ("highlight-text", TaskKind::Widget),
    ("highlight-text-2", TaskKind::Widget),
    ("text-editor", TaskKind::Widget),
    ("email-inbox", TaskKind::Reading),
    ("email-inbox-delete", TaskKind::Reading),
    ("email-inbox-forward", TaskKind::Reading),
    ("email-inbox-important", TaskKind::Reading),
    ("email-inbox-noscroll", TaskKind::Reading),
    ("email-inbox-reply", TaskKind::Reading),
    ("email-inbox-star-reply", TaskKind::Reading),
    ("email-inbox-forward-nl", TaskKind::Reading),
    ("email-inbox-forward-nl-turk", TaskKind::Reading),
    ("email-inbox-nl-turk", TaskKind::Reading),
    ("search-engine", TaskKind::Reading),
    ("phone-book", TaskKind::Reading),
    ("social-media", TaskKind::Reading),
    ("social-media-all", TaskKind::Reading),
    ("social-media-some", TaskKind::Reading),
    ("book-flight", TaskKind::Reading),
    ("book-flight-nodelay", TaskKind::Reading),
    ("order-food", TaskKind::Reading),
    ("buy-ticket", TaskKind::Reading),
    ("odd-or-even", TaskKind::ReasoningVisual),
    ("simple-arithmetic", TaskKind::ReasoningVisual),
    ("simple-algebra", TaskKind::ReasoningVisual),
    ("generate-number", TaskKind::ReasoningVisual),
    ("guess-number", TaskKind::ReasoningVisual),
    ("terminal", TaskKind::ReasoningVisual),
    ("tic-tac-toe", TaskKind::ReasoningVisual),
    ("find-greatest", TaskKind::ReasoningVisual),
    ("stock-market", TaskKind::ReasoningVisual),
    ("click-color", TaskKind::ReasoningVisual),
    ("click-shades", TaskKind::ReasoningVisual),
    ("visual-addition", TaskKind::ReasoningVisual),
    ("click-shape", TaskKind::ReasoningVisual),
    ("count-shape", TaskKind::ReasoningVisual),
    ("identify-shape", TaskKind::ReasoningVisual),
    ("count-sides", TaskKind::ReasoningVisual),
    ("ascending-numbers", TaskKind::ReasoningVisual),
    ("grid-coordinate", TaskKind::ReasoningVisual),
    ("number-checkboxes", TaskKind::ReasoningVisual),
    ("hot-cold", TaskKind::ReasoningVisual),
    ("bisect-angle", TaskKind::ReasoningVisual),
    ("circle-center", TaskKind::ReasoningVisual),
    ("find-midpoint", TaskKind::ReasoningVisual),
    ("right-angle", TaskKind::ReasoningVisual),
    ("draw-circle", TaskKind::ReasoningVisual),
    ("draw-line", TaskKind::ReasoningVisual),
    ("drag-box", TaskKind::ReasoningVisual),
    ("drag-circle", TaskKind::ReasoningVisual),
    ("drag-cube", TaskKind::ReasoningVisual),
    ("drag-items", TaskKind::Widget),
    ("drag-items-grid", TaskKind::Widget),
    ("drag-shapes", TaskKind::ReasoningVisual),
    ("drag-shapes-2", TaskKind::ReasoningVisual),
    ("drag-single-shape", TaskKind::ReasoningVisual),
    ("drag-sort-numbers", TaskKind::Widget),
    ("resize-textarea", TaskKind::Widget),
    ("daily-calendar", TaskKind::Widget),
    ("use-colorwheel", TaskKind::Widget),
    ("use-colorwheel-2", TaskKind::Widget),
];

/// What a task asks of the runtime, for the per-kind table. A label only: the planner and
/// the policies never see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    /// Clicks, fields, checkboxes, tabs, menus: what a person does on a form.
    ClickForm,
    /// Widget mechanics the runtime should own: sliders, pickers, autocomplete, drag and
    /// drop, text selection, scrolling inside an element.
    Widget,
    /// The page must be read and a value derived from it (a model tier's work).
    Reading,
    /// Arithmetic, judgement or vision (a model tier's work).
    ReasoningVisual,
}

impl TaskKind {
    pub const ALL: [TaskKind; 4] = [
        TaskKind::ClickForm,
        TaskKind::Widget,
        TaskKind::Reading,
        TaskKind::ReasoningVisual,
    ];

    pub fn label(self) -> &'static str {
        match self {
            TaskKind::ClickForm => "click/form",
            TaskKind::Widget => "widget",
            TaskKind::Reading => "reading",
            TaskKind::ReasoningVisual => "reasoning/visual",
        }
    }
}

/// A task page name (`click-button`): lower-case letters, digits and hyphens, so it can
/// only ever name `miniwob/<name>.html`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TaskName(String);

impl TaskName {
    pub fn new(name: &str) -> Result<TaskName, MiniwobError> {
        let ok = !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if ok {
            Ok(TaskName(name.to_owned()))
        } else {
            Err(MiniwobError::UnknownTask(name.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The page's path relative to the html root.
    pub fn page_path(&self) -> String {
        format!("miniwob/{}.html", self.0)
    }

    /// Checks that the page exists under `root`.
    pub fn check_exists(&self, root: &Path) -> Result<(), MiniwobError> {
        if root.join(self.page_path()).is_file() {
            Ok(())
        } else {
            Err(MiniwobError::UnknownTask(self.0.clone()))
        }
    }

    /// Every registered task.
    pub fn registered() -> Vec<TaskName> {
        REGISTERED
            .iter()
            .map(|(t, _)| TaskName(t.to_string()))
            .collect()
    }

    /// The registered task's kind; a task outside the package's list is reported apart.
    pub fn kind(&self) -> Option<TaskKind> {
        REGISTERED
            .iter()
            .find(|(t, _)| *t == self.0)
            .map(|&(_, k)| k)
    }

    /// A comma-separated list (`a,b,c`), as the CLI's `--tasks` takes it.
    pub fn parse_list(list: &str) -> Result<Vec<TaskName>, MiniwobError> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(TaskName::new)
            .collect()
    }
}

impl TryFrom<String> for TaskName {
    type Error = MiniwobError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        TaskName::new(&s)
    }
}

impl From<TaskName> for String {
    fn from(t: TaskName) -> String {
        t.0
    }
}

impl fmt::Display for TaskName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_leave_the_task_directory() {
        assert!(TaskName::new("click-test-2").is_ok());
        for bad in ["", "../core/core", "a/b", "Click", "x.html", "a b"] {
            assert!(TaskName::new(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            TaskName::parse_list("click-test, enter-text,")
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn registered_tasks_are_113_distinct_names() {
        let mut names = TaskName::registered();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 113);
        assert!(names.iter().all(|n| n.kind().is_some()));
    }
}
