//! Choosing a desktop application: `--app NAME` or `--pid PID` (the AT-SPI backend).

use crate::exit::{Exit, Failure};
use arc_desktop::{AppSelector, DesktopBackend, DesktopOptions, OcrMode};
use clap::Args;

#[derive(Args)]
pub struct DesktopArgs {
    /// A desktop application by its accessible name (GTK: the program name), on the
    /// session's accessibility bus.
    #[arg(long, value_name = "NAME", conflicts_with = "pid")]
    pub app: Option<String>,
    /// A desktop application by process id.
    #[arg(long, value_name = "PID")]
    pub pid: Option<u32>,
}

impl DesktopArgs {
    pub fn selector(&self) -> Option<AppSelector> {
        match (&self.app, self.pid) {
            (Some(name), _) => Some(AppSelector::Name(name.clone())),
            (None, Some(pid)) => Some(AppSelector::Pid(pid)),
            (None, None) => None,
        }
    }

    /// Binds the application (waiting briefly for it to appear on the bus).
    pub async fn open(&self, ocr: OcrMode) -> Result<DesktopBackend, Failure> {
        let selector = self.selector().ok_or_else(|| {
            (
                Exit::BadInput,
                "the desktop backend needs --app NAME or --pid PID".to_owned(),
            )
        })?;
        let mut options = DesktopOptions::new(selector);
        options.ocr = ocr;
        DesktopBackend::connect(options).await.map_err(|e| {
            (
                Exit::Environment,
                format!("cannot bind the desktop application: {e}"),
            )
        })
    }
}
