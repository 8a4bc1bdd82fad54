//! `--profile`, `--storage-state`, `--save-storage-state`: a browser session kept across
//! runs, as a Chromium profile or as a Playwright storage-state file; `--downloads`: where
//! the session's downloads are saved.

use crate::exit::{Exit, Failure};
use arc_browser::backend::BrowserOptions;
use arc_browser::{Browser, StorageState};
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Clone, Debug, Default)]
pub struct SessionArgs {
    /// Keep Chromium's profile in DIR across runs: sign-ins, cookies and storage stay.
    /// Created 0700; refused when others can reach it, or while another browser uses it.
    #[arg(long, value_name = "DIR", conflicts_with = "cdp")]
    pub profile: Option<PathBuf>,
    /// Load cookies and localStorage from FILE (Playwright's storageState format) before
    /// the first page. FILE holds credentials: it is refused unless its mode is 0600 or
    /// stricter, and its values are never logged.
    #[arg(long, value_name = "FILE")]
    pub storage_state: Option<PathBuf>,
    /// After the run, write the browser's cookies and localStorage to FILE (mode 0600,
    /// Playwright's storageState format), to pass to --storage-state next time.
    #[arg(long, value_name = "FILE")]
    pub save_storage_state: Option<PathBuf>,
    /// Save the page's downloads in DIR (created 0700; a name taken gets a number, no
    /// file is replaced). Default: a fresh arc-cua-downloads-* directory in the temp
    /// directory, made at the first download. Each is reported with its path, size and
    /// SHA-256.
    #[arg(long, value_name = "DIR")]
    pub downloads: Option<PathBuf>,
}

impl SessionArgs {
    /// `options` with the profile and the loaded storage state; a file that cannot be
    /// used is bad input, named with the reason.
    pub fn apply(&self, options: &mut BrowserOptions) -> Result<(), Failure> {
        options.launch.profile = self.profile.clone();
        options.downloads = self.downloads.clone();
        if let Some(path) = &self.storage_state {
            let state = StorageState::read(path).map_err(|e| (Exit::BadInput, e.to_string()))?;
            options.storage_state = Some(Arc::new(state));
        }
        Ok(())
    }

    /// Writes `--save-storage-state`, if asked: `browser`'s cookies and the storage of
    /// its pages' origins and of those the loaded state named.
    pub async fn save(&self, browser: &Browser, loaded: &BrowserOptions) -> Result<(), Failure> {
        let Some(path) = &self.save_storage_state else {
            return Ok(());
        };
        let origins: Vec<String> = loaded
            .storage_state
            .iter()
            .flat_map(|s| s.origins())
            .collect();
        let state = StorageState::save(browser, origins).await.map_err(|e| {
            (
                Exit::Environment,
                format!("cannot read the session to save it: {e}"),
            )
        })?;
        state
            .write(path)
            .map_err(|e| (Exit::Environment, e.to_string()))
    }
}
