//! The Linux desktop backend: one application on the AT-SPI accessibility bus.
//!
//! Observation reads the app's tree with one `Cache.GetItems` call (a bounded walk where
//! the app has no cache) and enriches the showing nodes with pipelined calls. Input goes
//! through accessibility interfaces first (background: the user's pointer and focused
//! window stay put); XTest only where none serves, and the record says so.

pub mod apps;
pub mod backend;
pub mod capture;
mod dbus;
pub mod error;
pub mod events;
pub mod ids;
pub mod input;
mod ocr;
mod offers;
mod perceive;
mod roles;
pub mod screenshot;
pub mod tree;
pub mod window;

pub use apps::{AppInfo, AppSelector, WindowInfo};
pub use arc_vision::OcrMode;
pub use backend::{connect_bus, DesktopBackend, DesktopOptions};
pub use error::DesktopError;
pub use tree::TreeSource;
