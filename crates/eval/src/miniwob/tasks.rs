//! The registered MiniWoB++ tasks and task names. A name is only ever used to build the
//! page's URL and to label result rows: the planner, the executor and the policies never
//! see it.

use super::error::MiniwobError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The tasks the harness runs by default (issue 5, item 3), in the order.
pub const REGISTERED: [&str; 34] = [
    "click-test",
    "click-test-2",
    "click-button",
    "click-button-sequence",
    "click-link",
    "click-dialog",
    "click-dialog-2",
    "click-tab",
    "click-tab-2",
    "click-collapsible",
    "click-option",
    "click-checkboxes",
    "enter-text",
    "enter-text-2",
    "enter-password",
    "login-user",
    "focus-text",
    "focus-text-2",
    "choose-list",
    "navigate-tree",
    "form-sequence-2",
    "find-word",
    "read-table",
    "copy-paste",
    "use-autocomplete",
    "use-spinner",
    "enter-date",
    "choose-date-easy",
    "click-menu",
    "email-inbox",
    "search-engine",
    "multi-layouts",
    "login-user-popup",
    "click-scroll-list",
];

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
        REGISTERED.iter().map(|t| TaskName(t.to_string())).collect()
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
    fn registered_tasks_are_34_distinct_names() {
        let mut names = TaskName::registered();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 34);
    }
}
