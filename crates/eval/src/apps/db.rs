//! Reading an app's watched tables from its SQLite database (read-only, while the app runs):
//! each row keyed by its primary key, every value as text, ignored columns left out.

use crate::assert::rows::{Row, Tables};
use rusqlite::{types::ValueRef, Connection, OpenFlags};
use std::collections::BTreeMap;
use std::path::Path;

pub(super) fn read(
    db: &Path,
    watch: &[String],
    ignore: &BTreeMap<String, Vec<String>>,
) -> Result<Tables, String> {
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("{}: {e}", db.display()))?;
    // The app may be writing: wait for its lock rather than read a half-written state.
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(|e| e.to_string())?;
    let mut out = BTreeMap::new();
    for table in watch {
        let skip = ignore.get(table).map(Vec::as_slice).unwrap_or_default();
        out.insert(table.clone(), rows(&conn, table, skip)?);
    }
    Ok(Tables(out))
}

fn rows(conn: &Connection, table: &str, skip: &[String]) -> Result<BTreeMap<String, Row>, String> {
    let err = |e: rusqlite::Error| format!("table {table}: {e}");
    let quoted = format!("\"{}\"", table.replace('"', "\"\""));
    let mut stmt = conn
        .prepare(&format!("SELECT rowid AS \"__rowid\", * FROM {quoted}"))
        .map_err(err)?;
    let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
    let mut read = stmt.query([]).map_err(err)?;
    let mut out = BTreeMap::new();
    while let Some(r) = read.next().map_err(err)? {
        let mut key = String::new();
        let mut row = Row::new();
        for (i, name) in names.iter().enumerate() {
            let value = text(r.get_ref(i).map_err(err)?);
            if i == 0 {
                key = value.unwrap_or_default();
            } else if !skip.contains(name) {
                row.insert(name.clone(), value);
            }
        }
        out.insert(key, row);
    }
    Ok(out)
}

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(f) => Some(f.to_string()),
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Some(format!("<{} bytes>", b.len())),
    }
}
