//! Reading upstream task files: one JSON object, a JSON array of them, JSONL (`.jsonl`),
//! or a directory of such files (searched recursively, in path order). Each record keeps
//! where it came from, so every later error can name it.

use super::MapError;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One upstream task as JSON, and where it was read (`a.json`, `a.json[2]`, `a.jsonl:3`).
pub(super) struct Record {
    pub origin: String,
    pub value: Value,
}

pub(super) fn read(path: &Path) -> Result<Vec<Record>, MapError> {
    if path.is_dir() {
        let mut files = Vec::new();
        collect(path, &mut files)?;
        files.sort();
        let mut records = Vec::new();
        for f in files {
            records.extend(read_file(&f)?);
        }
        Ok(records)
    } else {
        read_file(path)
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), MapError> {
    let err = |source| MapError::Read {
        path: dir.to_owned(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let path = entry.map_err(err)?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl")
        {
            out.push(path);
        }
    }
    Ok(())
}

fn read_file(path: &Path) -> Result<Vec<Record>, MapError> {
    let text = std::fs::read_to_string(path).map_err(|source| MapError::Read {
        path: path.to_owned(),
        source,
    })?;
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "jsonl") {
        let mut records = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let origin = format!("{name}:{}", i + 1);
            let value = parse(line, &name, i)?;
            records.push(Record { origin, value });
        }
        return Ok(records);
    }
    match parse(&text, &name, 0)? {
        Value::Array(items) => Ok(items
            .into_iter()
            .enumerate()
            .map(|(i, value)| Record {
                origin: format!("{name}[{i}]"),
                value,
            })
            .collect()),
        value @ Value::Object(_) => Ok(vec![Record {
            origin: name,
            value,
        }]),
        other => Err(MapError::Invalid {
            origin: name,
            message: format!(
                "expected a task object or an array of them, found {}",
                kind(&other)
            ),
        }),
    }
}

/// Parses `text`, which starts on line `first_line + 1` of `file`.
fn parse(text: &str, file: &str, first_line: usize) -> Result<Value, MapError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the error carries them as fields.
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_owned(),
            None => message,
        };
        MapError::Json {
            origin: file.to_owned(),
            line: first_line + e.line(),
            column: e.column(),
            message,
        }
    })
}

pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
