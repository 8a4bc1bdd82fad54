//! Progress on stderr for long evaluation runs: a bar on a terminal (failures printed
//! above it), one plain line per task or episode anywhere else (CI logs). Stdout is left
//! to the report.

use arc_eval::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

pub struct Reporter {
    /// None when stderr is not a terminal.
    bar: Option<ProgressBar>,
}

impl Reporter {
    pub fn new() -> Reporter {
        Reporter {
            bar: std::io::stderr().is_terminal().then(ProgressBar::hidden),
        }
    }

    /// Called by the run before its first task and after each.
    pub fn on(&mut self, p: Progress<'_>) {
        let Some(bar) = &self.bar else {
            if let Some(line) = p.line() {
                eprintln!("{line}");
            }
            return;
        };
        match p {
            Progress::Begin { mode, total } => {
                bar.set_style(style());
                bar.set_prefix(mode.as_str());
                bar.set_length(total as u64);
                bar.set_position(0);
                bar.set_message("starting the browser");
                bar.reset_elapsed();
                // Drawn only once it knows its length.
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            Progress::Finished { result, .. } => {
                let summary = arc_eval::progress::summary(result);
                if !result.success {
                    bar.println(&summary);
                }
                bar.set_message(summary);
                bar.inc(1);
            }
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn style() -> ProgressStyle {
    ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {elapsed} ETA {eta} {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}
