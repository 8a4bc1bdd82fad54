//! The desktop backend's errors: each names the bus, app, object or limit involved.

use crate::dbus::CallError;
use crate::input::xtest::XError;
use arc_core::error::BackendError;

#[derive(Debug, thiserror::Error)]
pub enum DesktopError {
    #[error("cannot reach the accessibility bus (is a D-Bus session running and at-spi2-core installed?): {0}")]
    NoBus(String),
    #[error("no application {selector} on the accessibility bus after {waited_ms} ms; running: {available:?}")]
    AppNotFound {
        selector: String,
        waited_ms: u64,
        available: Vec<String>,
    },
    #[error("application {app} has no window on the accessibility bus")]
    NoWindow { app: String },
    #[error(transparent)]
    Call(#[from] CallError),
    #[error(transparent)]
    X(#[from] XError),
}

impl From<DesktopError> for BackendError {
    fn from(e: DesktopError) -> Self {
        BackendError::failed(e)
    }
}
