//! What a user points a command at: a URL, or a local HTML file, which is served over
//! loopback (pages that fetch siblings or need an http origin then just work).

use crate::exit::{Exit, Failure};
use arc_browser::StaticServer;
use std::path::{Path, PathBuf};

/// A URL to open, keeping alive the server that serves it (if any).
pub struct Served {
    pub url: String,
    _server: Option<StaticServer>,
}

pub async fn serve(target: &str) -> Result<Served, Failure> {
    if let Some((scheme, _)) = target.split_once("://") {
        if matches!(scheme, "http" | "https" | "file") {
            return Ok(Served {
                url: target.to_owned(),
                _server: None,
            });
        }
        return Err((
            Exit::BadInput,
            format!("{target}: only http, https and file URLs, or a local file path"),
        ));
    }
    let path = PathBuf::from(target);
    if !path.is_file() {
        return Err((
            Exit::BadInput,
            format!("{target}: no such file (give a URL or an HTML file path)"),
        ));
    }
    serve_file(&path).await
}

/// Serves `path`'s directory on 127.0.0.1 under a random prefix (the file, its
/// siblings and subdirectories; no dotfiles, no listings) and returns the file's URL,
/// its name percent-encoded. A file the server would not serve (a 404 page) is an
/// environment error naming it, never a run on an error page.
pub async fn serve_file(path: &Path) -> Result<Served, Failure> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = Path::new(path.file_name().unwrap_or_default());
    let server = StaticServer::start_scoped(dir).await.map_err(|e| {
        (
            Exit::Environment,
            format!("cannot serve {}: {e}", dir.display()),
        )
    })?;
    let status = server.probe(name).await.map_err(|e| {
        (
            Exit::Environment,
            format!("cannot serve {}: {e}", path.display()),
        )
    })?;
    if !(200..300).contains(&status) {
        return Err((
            Exit::Environment,
            format!(
                "{} was not served (HTTP {status}; dotfiles and files in dot-directories are never served)",
                path.display()
            ),
        ));
    }
    Ok(Served {
        url: server.file_url(name),
        _server: Some(server),
    })
}

/// The project's fixture site: `$ARC_CUA_FIXTURES`, else the checkout this binary was
/// built from.
pub fn fixture_site() -> PathBuf {
    arc_eval::suite::fixture_site_dir()
}
