//! One running app: a fresh instance directory, its launcher under the apps venv's python
//! (`<launch> --dir DIR --port PORT`: set up the database, seed it, serve until killed) in
//! its own process group, killed with the group and its directory removed on drop.

use super::App;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};

/// Migrating and seeding Django's admin took 2.1 s here; a cold venv's first import more.
const READY_WITHIN: Duration = Duration::from_secs(90);

pub(super) struct Instance {
    child: Child,
    dir: PathBuf,
    pub port: u16,
}

impl Instance {
    pub async fn start(app: &App, python: &Path) -> Result<Instance, String> {
        let dir = std::env::temp_dir().join(format!(
            "arc-cua-app-{}-{}-{}",
            app.name,
            std::process::id(),
            unique()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let port = free_port()?;
        let log = std::fs::File::create(dir.join("launch.log"))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let err = log.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(python)
            .arg(app.dir.join(&app.launch))
            .arg("--dir")
            .arg(&dir)
            .arg("--port")
            .arg(port.to_string())
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start {} with {}: {e}", app.launch, python.display()))?;
        let mut instance = Instance { child, dir, port };
        instance.ready(&app.name).await?;
        Ok(instance)
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    /// Bounded: the app answers on its port, or its launcher exits, or [`READY_WITHIN`].
    async fn ready(&mut self, name: &str) -> Result<(), String> {
        let started = Instant::now();
        loop {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return Ok(());
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "{name} exited ({status}) before serving: {}",
                    self.log_tail()
                ));
            }
            if started.elapsed() > READY_WITHIN {
                return Err(format!(
                    "{name} did not serve on port {} within {READY_WITHIN:?}: {}",
                    self.port,
                    self.log_tail()
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("launch.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().rev().take(8).collect();
        lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(pid) = self.child.id() {
            // The launcher's group: a dev server may fork workers of its own.
            // SAFETY: kill(2) has no memory-safety preconditions; the group is the one
            // `process_group(0)` made for this child.
            unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
        }
        let _ = self.child.start_kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0)).map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}
