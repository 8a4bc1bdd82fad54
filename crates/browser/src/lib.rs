//! Chromium for arc-cua: a launcher that never leaks processes and opens no DevTools
//! port, a thin typed CDP client with flat sessions (over the launched browser's
//! debugging pipe, or a websocket to attach), and a loopback static file server.
//!
//! ```no_run
//! use arc_browser::{Chromium, LaunchOptions, StaticServer};
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let server = StaticServer::start("fixtures/site").await?;
//! let chromium = Chromium::launch(LaunchOptions::default()).await?;
//! let browser = chromium.connect().await?;
//! let page = browser.new_page(&server.url("signup.html")).await?;
//! let title = page.evaluate("document.title").await?;
//! let tree = page
//!     .call(arc_browser::cdp::methods::accessibility::GetFullAxTree::default())
//!     .await?;
//! println!("{title} has {} AX nodes", tree.nodes.len());
//! chromium.close().await?; // or just drop it: the process group is killed
//! # Ok(()) }
//! ```
//!
//! Layers, bottom up:
//! * [`cdp::Connection`]: calls with per-call timeouts, events to subscribers; fails
//!   at once when the browser goes or a renderer crashes ([`Lost`]).
//! * [`cdp::methods`] / [`cdp::events`]: typed params, replies and events.
//! * [`Browser`] / [`PageSession`]: targets, flat sessions, navigate-and-wait, evaluate.
//! * [`Chromium`]: the process (launch with `--remote-debugging-pipe`, kill on drop).

pub mod backend;
mod base64;
mod browser;
pub mod cdp;
mod cdp_fds;
mod discovery;
mod download;
mod error;
mod launch;
mod profile;
mod reaper;
pub mod serve;
mod storage_state;
pub mod upload;

pub use backend::world::ARIA_JS;
pub use base64::DecodeError;
pub use browser::{Browser, PageSession, DEFAULT_NAVIGATION_TIMEOUT};
pub use download::MAX_DOWNLOAD_BYTES;
pub use error::{BrowserError, CdpError, Lost};
pub use launch::{Chromium, LaunchOptions, Sandbox, CHROMIUM_PATH_ENV, DEFAULT_CHROMIUM_PATH};
pub use reaper::kill_all_launched;
pub use serve::StaticServer;
pub use storage_state::{
    Cookie, NameValue, OriginStorage, SameSite, StorageState, MAX_STORAGE_STATE_BYTES,
};
