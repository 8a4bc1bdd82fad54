//! Appends records to a JSONL file: redacted first, one bounded line each, flushed per
//! record so a crash loses at most the record being written.

use super::record::TrajectoryRecord;
use super::redact::CredentialFilter;
use serde_json::Value;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The longest line written, newline included.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Strings are cut to this many bytes when a record must shrink to fit its line.
const SHRUNK_STRING_BYTES: usize = 1024;
/// ... and to this many in the stub that replaces a record that still does not fit.
const STUB_STRING_BYTES: usize = 64;

pub struct TrajectoryWriter {
    file: File,
    path: PathBuf,
    redactor: CredentialFilter,
    max_line: usize,
    records: u64,
}

impl TrajectoryWriter {
    /// Opens `path` for appending (creating it and its directories).
    pub fn create(path: impl AsRef<Path>, redactor: CredentialFilter) -> io::Result<Self> {
        let path = path.as_ref().to_path_buf();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        Ok(TrajectoryWriter {
            file,
            path,
            redactor,
            max_line: MAX_LINE_BYTES,
            records: 0,
        })
    }

    /// Changes the line bound (at least 1 KiB, so a stub always fits).
    pub fn with_max_line(mut self, bytes: usize) -> Self {
        self.max_line = bytes.max(1024);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    pub fn write(&mut self, record: &TrajectoryRecord) -> io::Result<()> {
        let line = self.encode(record)?;
        self.file.write_all(line.as_bytes())?;
        self.file.flush()?;
        self.records += 1;
        Ok(())
    }

    /// Redacts, serializes and bounds one record as a line.
    pub fn encode(&self, record: &TrajectoryRecord) -> io::Result<String> {
        let mut value = self.redacted(record)?;
        let mut line = serde_json::to_string(&value)?;
        if line.len() >= self.max_line {
            shrink(&mut value, SHRUNK_STRING_BYTES);
            line = serde_json::to_string(&value)?;
        }
        if line.len() >= self.max_line {
            // Last resort: identity and outcome only, with short strings.
            let mut stub = self.redacted(&record.stub())?;
            shrink(&mut stub, STUB_STRING_BYTES);
            line = serde_json::to_string(&stub)?;
        }
        line.push('\n');
        Ok(line)
    }

    fn redacted(&self, record: &TrajectoryRecord) -> io::Result<Value> {
        let mut value = serde_json::to_value(record)?;
        self.redactor.redact_value(&mut value);
        Ok(value)
    }
}

/// Drops the decision's raw payload, cuts long strings and marks the record truncated.
fn shrink(value: &mut Value, max: usize) {
    if let Some(decision) = value.get_mut("decision").and_then(Value::as_object_mut) {
        decision.remove("raw");
    }
    cut_strings(value, max);
    if let Some(obj) = value.as_object_mut() {
        obj.insert("truncated".into(), Value::Bool(true));
    }
}

fn cut_strings(value: &mut Value, max: usize) {
    match value {
        Value::String(s) if s.len() > max => {
            let mut end = max;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            s.truncate(end);
            s.push('…');
        }
        Value::Array(items) => items.iter_mut().for_each(|v| cut_strings(v, max)),
        Value::Object(map) => map.values_mut().for_each(|v| cut_strings(v, max)),
        _ => {}
    }
}
