//! Desktop windows as targets: listing the applications' top-level windows on the
//! accessibility bus, and binding a session's backend to exactly one of them.

use crate::protocol::{ErrorCode, HostError, TargetId, TargetInfo};
use arc_desktop::ids::ObjRef;
use arc_desktop::{apps, connect_bus, AppSelector, DesktopBackend, DesktopError, DesktopOptions};
use std::time::Duration;

/// Where the host reaches desktop windows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DesktopAccess {
    /// The D-Bus session bus address; `None`: `$DBUS_SESSION_BUS_ADDRESS`.
    pub session_bus: Option<String>,
    /// The X display for physical input; `None`: `$DISPLAY`.
    pub display: Option<String>,
}

/// How long `open_session` waits for a listed app to answer on the bus.
const FIND_TIMEOUT: Duration = Duration::from_secs(3);

/// Every application's top-level windows, or why the accessibility bus is out of reach.
pub(crate) async fn windows(access: &DesktopAccess) -> Result<Vec<TargetInfo>, String> {
    if access.session_bus.is_none() && std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        return Err("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset), so no accessibility bus: start the host inside the desktop session (arc-cua doctor says more)".into());
    }
    let a11y = connect_bus(access.session_bus.as_deref())
        .await
        .map_err(|e| e.to_string())?;
    let listed = apps::list(a11y.connection())
        .await
        .map_err(|e| format!("cannot list the accessibility bus's applications: {e}"))?;
    Ok(listed
        .into_iter()
        .flat_map(|app| {
            let (name, pid) = (app.name.clone(), app.pid);
            app.windows.into_iter().map(move |w| TargetInfo::Window {
                target_id: TargetId::window(&w.obj.bus, &w.obj.path),
                app: name.clone(),
                pid,
                window: w.name,
            })
        })
        .collect())
}

/// A backend bound to exactly the window `bus` + `path` names, and its listing.
pub(crate) async fn open(
    access: &DesktopAccess,
    id: &TargetId,
    bus: &str,
    path: &str,
) -> Result<(DesktopBackend, TargetInfo), HostError> {
    let window = ObjRef {
        bus: bus.into(),
        path: path.into(),
    };
    let mut options = DesktopOptions::new(AppSelector::Bus(bus.to_owned()));
    options.find_timeout = FIND_TIMEOUT;
    options.session_bus = access.session_bus.clone();
    options.display = access.display.clone();
    options.window = Some(window.clone());
    let backend = DesktopBackend::connect(options)
        .await
        .map_err(|e| match e {
            DesktopError::AppNotFound { .. } | DesktopError::NoWindow { .. } => not_found(id),
            e => HostError::new(
                ErrorCode::BackendFailure,
                format!("cannot bind window {}: {e}", id.0),
            ),
        })?;
    let app = backend.app();
    let Some(w) = app.windows.iter().find(|w| w.obj == window) else {
        return Err(not_found(id));
    };
    let info = TargetInfo::Window {
        target_id: id.clone(),
        app: app.name.clone(),
        pid: app.pid,
        window: w.name.clone(),
    };
    Ok((backend, info))
}

fn not_found(id: &TargetId) -> HostError {
    HostError::new(
        ErrorCode::TargetNotFound,
        format!(
            "no window {} on the accessibility bus (closed, or its app exited); list_targets shows the windows",
            arc_core::clip(&id.0, 120)
        ),
    )
}
