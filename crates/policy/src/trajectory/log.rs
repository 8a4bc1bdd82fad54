//! A recorder and a writer together: hand it every loop event, get a JSONL file.

use super::recorder::{RunInfo, TrajectoryRecorder};
use super::redact::CredentialFilter;
use super::writer::TrajectoryWriter;
use arc_core::{Redactor, StepEvent, Subtask};
use std::io;
use std::path::Path;

pub struct TrajectoryLog {
    recorder: TrajectoryRecorder,
    writer: TrajectoryWriter,
    /// The first write error; later events are dropped (the run itself goes on).
    error: Option<io::Error>,
}

impl TrajectoryLog {
    /// Appends to `path`, redacting the subtask's secret inputs and credential shapes.
    pub fn create(path: impl AsRef<Path>, info: RunInfo, subtask: &Subtask) -> io::Result<Self> {
        Self::create_with(path, info, subtask, Redactor::for_subtask(subtask))
    }

    /// As [`TrajectoryLog::create`], redacting with the run's own `redactor` (a clone of
    /// the one given to the executor, so passwords it learns stay out of the file too).
    pub fn create_with(
        path: impl AsRef<Path>,
        info: RunInfo,
        subtask: &Subtask,
        redactor: Redactor,
    ) -> io::Result<Self> {
        for secret in subtask.secret_literals() {
            redactor.add(&secret);
        }
        Ok(TrajectoryLog {
            recorder: TrajectoryRecorder::new(info),
            writer: TrajectoryWriter::create(path, CredentialFilter::new(redactor))?,
            error: None,
        })
    }

    pub fn recorder_mut(&mut self) -> &mut TrajectoryRecorder {
        &mut self.recorder
    }

    /// For `Executor::run_with`: records and writes what this event completes.
    pub fn on_event(&mut self, event: &StepEvent) {
        if self.error.is_some() {
            return;
        }
        for record in self.recorder.on_event(event) {
            if let Err(e) = self.writer.write(&record) {
                self.error = Some(e);
                return;
            }
        }
    }

    /// Writes anything still pending; returns the number of records written.
    pub fn finish(mut self) -> io::Result<u64> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if let Some(record) = self.recorder.finish() {
            self.writer.write(&record)?;
        }
        Ok(self.writer.records())
    }
}
