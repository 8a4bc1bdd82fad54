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

/// Serves `path`'s directory on 127.0.0.1 and returns the file's URL.
pub async fn serve_file(path: &Path) -> Result<Served, Failure> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let server = StaticServer::start(dir).await.map_err(|e| {
        (
            Exit::Environment,
            format!("cannot serve {}: {e}", dir.display()),
        )
    })?;
    Ok(Served {
        url: server.url(name),
        _server: Some(server),
    })
}

/// The project's fixture site: `$ARC_CUA_FIXTURES`, else the checkout this binary was
/// built from.
pub fn fixture_site() -> PathBuf {
    std::env::var_os("ARC_CUA_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/site"))
}
