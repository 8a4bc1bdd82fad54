//! The browser flags every browser-facing command shares, flattened into each.

use arc_browser::backend::BrowserOptions;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Clone, Debug, Default)]
pub struct BrowserArgs {
    /// Chromium executable to launch (default: $ARC_CUA_CHROMIUM, then
    /// /usr/lib/chromium/chromium).
    #[arg(long, value_name = "PATH")]
    pub chromium: Option<PathBuf>,
    /// Attach to a running browser's DevTools endpoint (ws://… or http://host:port)
    /// instead of launching one; a remote browser works the same.
    #[arg(long, value_name = "URL")]
    pub cdp: Option<String>,
    /// Let NAVIGATE go to file:// URLs (http and https are always allowed).
    #[arg(long)]
    pub allow_file_urls: bool,
}

impl BrowserArgs {
    pub fn options(&self) -> BrowserOptions {
        let mut options = BrowserOptions::default();
        options.launch.executable = self.chromium.clone();
        options.cdp_endpoint = self.cdp.clone();
        options.allow_file_urls = self.allow_file_urls;
        options
    }
}
