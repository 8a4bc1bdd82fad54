//! The applications on the accessibility bus and their windows, and finding the one a
//! session targets (by name or process id).

use crate::dbus::{self, CallError};
use crate::error::DesktopError;
use crate::ids::ObjRef;
use std::fmt;
use std::time::{Duration, Instant};

/// Which application a session binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppSelector {
    /// The application's accessible name (GTK: the program name), matched exactly,
    /// then case-insensitively.
    Name(String),
    Pid(u32),
    /// The application's unique bus name (a window target's id carries it).
    Bus(String),
}

impl fmt::Display for AppSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppSelector::Name(n) => write!(f, "named {n:?}"),
            AppSelector::Pid(p) => write!(f, "with pid {p}"),
            AppSelector::Bus(b) => write!(f, "on bus name {b:?}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct WindowInfo {
    /// The window's accessible object (with the app's bus name: a stable window id).
    pub obj: ObjRef,
    pub name: String,
    pub role: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AppInfo {
    pub name: String,
    /// The application's root object: its unique bus name and root path.
    pub root: ObjRef,
    pub pid: Option<u32>,
    pub windows: Vec<WindowInfo>,
}

/// Applications the registry reports at most (a bound on a misbehaving bus).
const MAX_APPS: usize = 256;
const POLL: Duration = Duration::from_millis(50);

pub async fn list(conn: &zbus::Connection) -> Result<Vec<AppInfo>, CallError> {
    let registry = ObjRef {
        bus: "org.a11y.atspi.Registry".into(),
        path: "/org/a11y/atspi/accessible/root".into(),
    };
    let roots: Vec<(String, zbus::zvariant::OwnedObjectPath)> = dbus::call(
        conn,
        &registry,
        "org.a11y.atspi.Accessible",
        "GetChildren",
        &(),
    )
    .await?;
    let mut out = Vec::new();
    for (bus, path) in roots.into_iter().take(MAX_APPS) {
        let root = ObjRef {
            bus: bus.as_str().into(),
            path: path.as_str().into(),
        };
        // An app that left between the two calls is simply not listed.
        if let Ok(app) = describe(conn, root).await {
            out.push(app);
        }
    }
    Ok(out)
}

async fn describe(conn: &zbus::Connection, root: ObjRef) -> Result<AppInfo, CallError> {
    let acc = "org.a11y.atspi.Accessible";
    let name = dbus::property(conn, &root, acc, "Name").await?;
    let name = String::try_from(name).unwrap_or_default();
    let dbus_daemon = ObjRef {
        bus: "org.freedesktop.DBus".into(),
        path: "/org/freedesktop/DBus".into(),
    };
    let pid: Option<u32> = dbus::call(
        conn,
        &dbus_daemon,
        "org.freedesktop.DBus",
        "GetConnectionUnixProcessID",
        &(&*root.bus,),
    )
    .await
    .ok();
    let kids: Vec<(String, zbus::zvariant::OwnedObjectPath)> =
        dbus::call(conn, &root, acc, "GetChildren", &()).await?;
    let mut windows = Vec::new();
    for (bus, path) in kids.into_iter().take(64) {
        let w = ObjRef {
            bus: bus.as_str().into(),
            path: path.as_str().into(),
        };
        let name = dbus::property(conn, &w, acc, "Name")
            .await
            .ok()
            .and_then(|v| String::try_from(v).ok())
            .unwrap_or_default();
        let role: String = dbus::call(conn, &w, acc, "GetRoleName", &())
            .await
            .unwrap_or_default();
        windows.push(WindowInfo { obj: w, name, role });
    }
    Ok(AppInfo {
        name,
        root,
        pid,
        windows,
    })
}

/// Waits up to `wait` for the application to appear with at least one window (an app
/// just launched registers a moment later).
pub async fn find(
    conn: &zbus::Connection,
    selector: &AppSelector,
    wait: Duration,
) -> Result<AppInfo, DesktopError> {
    let started = Instant::now();
    loop {
        let apps = list(conn).await?;
        let hit = match selector {
            AppSelector::Pid(p) => apps.iter().find(|a| a.pid == Some(*p)),
            AppSelector::Bus(b) => apps.iter().find(|a| &*a.root.bus == b.as_str()),
            AppSelector::Name(n) => apps
                .iter()
                .find(|a| &a.name == n)
                .or_else(|| apps.iter().find(|a| a.name.eq_ignore_ascii_case(n))),
        };
        if let Some(app) = hit.filter(|a| !a.windows.is_empty()) {
            return Ok(app.clone());
        }
        if started.elapsed() >= wait {
            return Err(DesktopError::AppNotFound {
                selector: selector.to_string(),
                waited_ms: wait.as_millis() as u64,
                available: apps.iter().map(|a| a.name.clone()).collect(),
            });
        }
        tokio::time::sleep(POLL).await;
    }
}
