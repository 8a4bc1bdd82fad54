//! The application's own record: its database's watched tables read before and after a
//! task (`Tables`), their row-level difference (`Diff`: inserted, deleted, updated rows),
//! and the claim a task makes about it ([`RowChange`]). A task's changes must be matched
//! exactly: a change it names that did not happen fails, and so does a change it does not
//! name (a second row deleted, a field edited on the wrong record).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A row, column by column, every value as text (`NULL` as `None`).
pub type Row = BTreeMap<String, Option<String>>;

/// Columns and values a row must hold (others are free).
pub type Pattern = BTreeMap<String, Option<String>>;

/// One change a task expects in the app's database.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RowChange {
    /// A new row in `table` holding `with`.
    Inserted { table: String, with: Pattern },
    /// A row of `table` that held `with` is gone.
    Deleted { table: String, with: Pattern },
    /// The row of `table` that held `row` now holds `set`.
    Updated {
        table: String,
        row: Pattern,
        set: Pattern,
    },
}

impl RowChange {
    pub fn table(&self) -> &str {
        match self {
            RowChange::Inserted { table, .. }
            | RowChange::Deleted { table, .. }
            | RowChange::Updated { table, .. } => table,
        }
    }

    fn matches(&self, c: &Changed) -> bool {
        if self.table() != c.table {
            return false;
        }
        match (self, &c.what) {
            (RowChange::Inserted { with, .. }, What::Inserted(r)) => holds(r, with),
            (RowChange::Deleted { with, .. }, What::Deleted(r)) => holds(r, with),
            (RowChange::Updated { row, set, .. }, What::Updated { before, after }) => {
                holds(before, row) && holds(after, set)
            }
            _ => false,
        }
    }
}

impl fmt::Display for RowChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowChange::Inserted { table, with } => write!(f, "{table}: inserted {}", show(with)),
            RowChange::Deleted { table, with } => write!(f, "{table}: deleted {}", show(with)),
            RowChange::Updated { table, row, set } => {
                write!(f, "{table}: {} updated to {}", show(row), show(set))
            }
        }
    }
}

fn holds(row: &Row, pattern: &Pattern) -> bool {
    pattern.iter().all(|(k, v)| row.get(k) == Some(v))
}

fn show(p: &Pattern) -> String {
    let cells: Vec<String> = p
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_deref().unwrap_or("NULL")))
        .collect();
    format!("[{}]", cells.join(", "))
}

/// Watched tables, each a map from its primary key (as text) to its row, ignored columns
/// left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tables(pub BTreeMap<String, BTreeMap<String, Row>>);

/// One row that differs between two reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Changed {
    pub table: String,
    pub what: What,
}

#[derive(Clone, Debug, PartialEq)]
pub enum What {
    Inserted(Row),
    Deleted(Row),
    Updated { before: Row, after: Row },
}

impl fmt::Display for Changed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.table;
        match &self.what {
            What::Inserted(r) => write!(f, "{t}: inserted {}", show(r)),
            What::Deleted(r) => write!(f, "{t}: deleted {}", show(r)),
            What::Updated { before, after } => {
                let moved: Pattern = after
                    .iter()
                    .filter(|(k, v)| before.get(*k) != Some(v))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                write!(f, "{t}: {} updated to {}", show(before), show(&moved))
            }
        }
    }
}

/// Every row that differs from `before` to `after`, table by table, in key order.
pub fn diff(before: &Tables, after: &Tables) -> Vec<Changed> {
    let empty = BTreeMap::new();
    let mut out = Vec::new();
    let names: std::collections::BTreeSet<&String> =
        before.0.keys().chain(after.0.keys()).collect();
    for table in names {
        let b = before.0.get(table).unwrap_or(&empty);
        let a = after.0.get(table).unwrap_or(&empty);
        let push = |out: &mut Vec<Changed>, what| {
            out.push(Changed {
                table: table.clone(),
                what,
            })
        };
        for (key, row) in b {
            match a.get(key) {
                None => push(&mut out, What::Deleted(row.clone())),
                Some(now) if now != row => push(
                    &mut out,
                    What::Updated {
                        before: row.clone(),
                        after: now.clone(),
                    },
                ),
                Some(_) => {}
            }
        }
        for (key, row) in a {
            if !b.contains_key(key) {
                push(&mut out, What::Inserted(row.clone()));
            }
        }
    }
    out
}

/// Whether `changes` account for `diff` exactly, and what differs when they do not.
pub fn judge(changes: &[RowChange], diff: &[Changed]) -> (bool, String) {
    let mut used = vec![false; diff.len()];
    let mut missing = Vec::new();
    for want in changes {
        let found = diff
            .iter()
            .enumerate()
            .find(|(i, c)| !used[*i] && want.matches(c));
        match found {
            Some((i, _)) => used[i] = true,
            None => missing.push(want.to_string()),
        }
    }
    let extra: Vec<String> = diff
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(c, _)| c.to_string())
        .collect();
    if missing.is_empty() && extra.is_empty() {
        let message = match changes.len() {
            0 => "the database is as it was".to_owned(),
            n => format!("the database changed by exactly the {n} expected row(s)"),
        };
        return (true, message);
    }
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("not found: {}", missing.join("; ")));
    }
    if !extra.is_empty() {
        parts.push(format!("unexpected: {}", extra.join("; ")));
    }
    (false, parts.join(" — "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[(&str, &str)]) -> Row {
        cells
            .iter()
            .map(|(k, v)| (k.to_string(), Some(v.to_string())))
            .collect()
    }

    fn tables(rows: &[(&str, Row)]) -> Tables {
        let mut t = BTreeMap::new();
        for (key, r) in rows {
            t.insert(key.to_string(), r.clone());
        }
        Tables(BTreeMap::from([("people".to_owned(), t)]))
    }

    #[test]
    fn an_expected_update_holds_and_a_second_change_fails_it() {
        let ada = row(&[("id", "1"), ("name", "Ada"), ("staff", "0")]);
        let bob = row(&[("id", "2"), ("name", "Bob"), ("staff", "0")]);
        let before = tables(&[("1", ada.clone()), ("2", bob.clone())]);
        let ada_staff = row(&[("id", "1"), ("name", "Ada"), ("staff", "1")]);
        let want = [RowChange::Updated {
            table: "people".into(),
            row: row(&[("name", "Ada")]),
            set: row(&[("staff", "1")]),
        }];
        let after = tables(&[("1", ada_staff.clone()), ("2", bob.clone())]);
        assert!(judge(&want, &diff(&before, &after)).0);
        // The same edit, and Bob deleted besides: the task's record is not what was asked.
        let after = tables(&[("1", ada_staff)]);
        let (ok, why) = judge(&want, &diff(&before, &after));
        assert!(!ok);
        assert!(why.contains("unexpected: people: deleted"), "{why}");
        // Nothing happened: the expected change is missing.
        let (ok, why) = judge(&want, &diff(&before, &before));
        assert!(!ok && why.starts_with("not found"), "{why}");
    }

    #[test]
    fn a_read_only_task_holds_only_on_an_unchanged_database() {
        let before = tables(&[("1", row(&[("id", "1"), ("name", "Ada")]))]);
        assert!(judge(&[], &diff(&before, &before)).0);
        let after = tables(&[]);
        assert!(!judge(&[], &diff(&before, &after)).0);
    }
}
