//! `ChromeBackend`: this runtime's browser backend (arc-browser, headless Chromium over
//! CDP), launched or attached, under the reference's name.

use crate::convert;
use crate::parts::{put, slot, take, Part, RustBackend, Slot};
use crate::runtime::runtime;
use arc_browser::backend::{BrowserBackend, BrowserOptions};
use arc_browser::cdp::TargetId;
use arc_browser::Browser;
use arc_core::Backend;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;

fn browser_error(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(format!("browser: {e}"))
}

/// The browser in a slot (through the trait object, not the `Box` around it).
fn browser_of(part: &mut Box<dyn Part>) -> PyResult<&mut BrowserBackend> {
    Part::as_any(part.as_mut())
        .downcast_mut::<BrowserBackend>()
        .ok_or_else(|| PyRuntimeError::new_err("not a browser backend"))
}

#[pyclass(extends = RustBackend, module = "arc_cua._native")]
pub struct ChromeBackend {
    slot: Slot<dyn Part>,
    /// The Chromium we launched (None when attached to someone else's browser).
    #[pyo3(get)]
    pid: Option<u32>,
    /// `connect` opened this tab in someone else's browser: `close` closes it again.
    owns_tab: bool,
}

fn wrap(backend: BrowserBackend, owns_tab: bool) -> PyClassInitializer<ChromeBackend> {
    let pid = backend.chromium().map(|c| c.pid());
    let slot = slot(Box::new(backend) as Box<dyn Part>);
    PyClassInitializer::from(RustBackend {
        slot: slot.clone(),
        stale_cache: None,
    })
    .add_subclass(ChromeBackend {
        slot,
        pid,
        owns_tab,
    })
}

fn create(py: Python<'_>, init: PyClassInitializer<ChromeBackend>) -> PyResult<Py<ChromeBackend>> {
    Py::new(py, init)
}

#[pymethods]
impl ChromeBackend {
    /// Launches headless Chromium with a temporary profile and opens `url`.
    #[classmethod]
    /// `profile`: a directory kept across runs (created 0700, locked while in use);
    /// `storage_state`: a Playwright storage-state file (mode 0600) loaded before the
    /// first page; `downloads`: where the page's downloads are saved.
    #[pyo3(signature = (url="about:blank", *, headless=true, executable=None, window_size=(1280, 900), extra_args=Vec::new(), profile=None, storage_state=None, downloads=None))]
    #[allow(clippy::too_many_arguments)]
    fn launch(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        url: &str,
        headless: bool,
        executable: Option<PathBuf>,
        window_size: (u32, u32),
        extra_args: Vec<String>,
        profile: Option<PathBuf>,
        storage_state: Option<PathBuf>,
        downloads: Option<PathBuf>,
    ) -> PyResult<Py<ChromeBackend>> {
        let mut options = BrowserOptions::default();
        options.launch.headless = headless;
        options.launch.executable = executable;
        options.launch.window_size = window_size;
        options.launch.extra_args = extra_args;
        options.launch.profile = profile;
        options.downloads = downloads;
        if let Some(path) = storage_state {
            let state = arc_browser::StorageState::read(&path)
                .map_err(|e| PyValueError::new_err(format!("storage_state: {e}")))?;
            options.storage_state = Some(std::sync::Arc::new(state));
        }
        let url = url.to_owned();
        let backend = py
            .detach(|| runtime().block_on(BrowserBackend::start(options, &url)))
            .map_err(|e| match e {
                e @ arc_browser::BrowserError::SessionFile { .. } => {
                    PyValueError::new_err(e.to_string())
                }
                e => browser_error(e),
            })?;
        create(py, wrap(backend, false))
    }

    /// Writes the browser's cookies and localStorage to `path` (mode 0600, Playwright's
    /// storage-state format), for `launch(storage_state=...)` next time.
    fn save_storage_state(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let mut part = take(&self.slot, "this ChromeBackend")?;
        let outcome = py.detach(|| {
            let backend = browser_of(&mut part)?;
            runtime()
                .block_on(arc_browser::StorageState::save(backend.browser(), []))
                .and_then(|state| state.write(&path))
                .map_err(browser_error)
        });
        put(&self.slot, part);
        outcome
    }

    /// The files the page downloaded and this backend saved: dicts of name, path,
    /// bytes and sha256, oldest first.
    fn downloads<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut part = take(&self.slot, "this ChromeBackend")?;
        let saved = browser_of(&mut part).map(|b| b.downloads());
        put(&self.slot, part);
        let json = serde_json::to_string(&saved?).map_err(browser_error)?;
        convert::json_to_py(py, json)
    }

    /// Opens `url` in a new tab of a running Chrome (`ws://…` or `http://host:port`).
    #[classmethod]
    #[pyo3(signature = (endpoint="http://127.0.0.1:9222", url="about:blank"))]
    fn connect(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        endpoint: &str,
        url: &str,
    ) -> PyResult<Py<ChromeBackend>> {
        let options = BrowserOptions {
            cdp_endpoint: Some(endpoint.to_owned()),
            ..BrowserOptions::default()
        };
        let url = url.to_owned();
        let backend = py
            .detach(|| runtime().block_on(BrowserBackend::start(options, &url)))
            .map_err(browser_error)?;
        create(py, wrap(backend, true))
    }

    /// Drives an existing page of a running Chrome as it is (no navigation, no reload);
    /// `target_id` names it when the browser has several.
    #[classmethod]
    #[pyo3(signature = (endpoint, target_id=None))]
    fn attach(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'_>,
        endpoint: &str,
        target_id: Option<String>,
    ) -> PyResult<Py<ChromeBackend>> {
        let endpoint = endpoint.to_owned();
        let backend = py
            .detach(|| {
                runtime().block_on(async {
                    let browser = Browser::connect(&endpoint).await?;
                    BrowserBackend::attach(
                        browser,
                        target_id.map(TargetId),
                        BrowserOptions::default(),
                    )
                    .await
                })
            })
            .map_err(browser_error)?;
        create(py, wrap(backend, false))
    }

    /// Loads `url` (for callers; not a model action).
    fn navigate(&self, py: Python<'_>, url: &str) -> PyResult<()> {
        if url.trim().is_empty() {
            return Err(PyValueError::new_err("url: must not be empty"));
        }
        let mut part = take(&self.slot, "this ChromeBackend")?;
        let url = url.to_owned();
        let outcome = py.detach(|| {
            let backend = browser_of(&mut part)?;
            runtime()
                .block_on(backend.goto(&url))
                .map_err(browser_error)
        });
        put(&self.slot, part);
        outcome
    }

    /// Evaluates a JavaScript expression in the page and returns its JSON value: for
    /// callers reading the page's own state (a test's oracle), never for the model.
    fn evaluate<'py>(&self, py: Python<'py>, expression: &str) -> PyResult<Bound<'py, PyAny>> {
        let mut part = take(&self.slot, "this ChromeBackend")?;
        let expression = expression.to_owned();
        let outcome = py.detach(|| {
            let backend = browser_of(&mut part)?;
            runtime()
                .block_on(backend.page().evaluate(&expression))
                .map_err(browser_error)
        });
        put(&self.slot, part);
        let value = outcome?;
        convert::json_to_py(py, value.to_string())
    }

    /// The page as a `DesktopSnapshot`.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut part = take(&self.slot, "this ChromeBackend")?;
        let outcome = py.detach(|| runtime().block_on(part.observe()));
        put(&self.slot, part);
        let snap = outcome.map_err(browser_error)?;
        convert::snapshot_to_py(py, &snap)
    }

    /// Closes Chromium when we launched it, the tab when `connect` opened it; an
    /// attached page is left as it is. Idempotent.
    fn close(&self, py: Python<'_>) {
        let part = self.slot.lock().ok().and_then(|mut s| s.take());
        if let Some(part) = part {
            if let Ok(backend) = Part::into_any(part).downcast::<BrowserBackend>() {
                let owns_tab = self.owns_tab;
                py.detach(|| {
                    runtime().block_on(async {
                        if owns_tab {
                            let _ = backend.page().clone().close().await;
                        }
                        backend.close().await
                    })
                });
            }
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.close(py);
    }
}
