//! `DesktopElement`, the one value type in Rust: a state machine builds ~1,000 per
//! observation, and a frozen dataclass costs ~6 µs each to construct and as much again to
//! read back. This class parses once into arc-core's `Element` (what the loop uses,
//! cloned, not re-read) and keeps the Python values it was given for its attributes.

use crate::convert;
use arc_core::{ActionSet, CompactElement, Element, ElementFacts, ElementId, Guard, Role, Source};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

#[pyclass(frozen, module = "arc_cua", name = "DesktopElement")]
pub struct DesktopElement {
    pub inner: Element,
    role: Py<PyString>,
    value: Py<PyAny>,
    actions: Py<PyAny>,
    bounds: Py<PyAny>,
    metadata: Option<Py<PyAny>>,
}

#[pymethods]
impl DesktopElement {
    #[new]
    #[pyo3(signature = (
        id, role, name=String::new(), value=None, actions=None, enabled=true, visible=true,
        focused=false, selected=None, expanded=None, parent_id=None, bounds=None,
        source=String::from("unknown"), accepts_drop=false, metadata=None, guard=String::new()
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        id: String,
        role: Bound<'_, PyString>,
        name: String,
        value: Option<Bound<'_, PyAny>>,
        actions: Option<Bound<'_, PyAny>>,
        enabled: bool,
        visible: bool,
        focused: bool,
        selected: Option<bool>,
        expanded: Option<bool>,
        parent_id: Option<String>,
        bounds: Option<Bound<'_, PyAny>>,
        source: String,
        accepts_drop: bool,
        metadata: Option<Bound<'_, PyAny>>,
        guard: String,
    ) -> PyResult<Self> {
        let value = value.unwrap_or_else(|| py.None().into_bound(py));
        let actions = match actions {
            Some(a) => a,
            None => pyo3::types::PyTuple::empty(py).into_any(),
        };
        let mut set = ActionSet::EMPTY;
        for kind in actions.try_iter()? {
            set.insert(convert::action_kind(&kind?, "DesktopElement.actions")?);
        }
        let bounds = bounds.unwrap_or_else(|| py.None().into_bound(py));
        let facts: ElementFacts = match &metadata {
            Some(m) => convert::facts(m.clone(), "DesktopElement.metadata")?,
            None => ElementFacts::default(),
        };
        let inner = Element {
            id: ElementId(id),
            role: Role::parse(&role.to_cow()?),
            name,
            value: convert::scalar(&value, "DesktopElement.value")?,
            actions: set,
            enabled,
            visible,
            focused,
            selected,
            expanded,
            parent_id: parent_id.map(ElementId),
            bounds: convert::bounds(bounds.clone())?,
            source: Source::parse(&source),
            accepts_drop,
            facts,
            guard: Guard(guard),
        };
        Ok(DesktopElement {
            inner,
            role: role.unbind(),
            value: value.unbind(),
            actions: actions.unbind(),
            bounds: bounds.unbind(),
            metadata: metadata.map(Bound::unbind),
        })
    }

    #[getter]
    fn id(&self) -> &str {
        self.inner.id.as_str()
    }
    #[getter]
    fn role(&self, py: Python<'_>) -> Py<PyString> {
        self.role.clone_ref(py)
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }
    #[getter]
    fn value(&self, py: Python<'_>) -> Py<PyAny> {
        self.value.clone_ref(py)
    }
    #[getter]
    fn actions(&self, py: Python<'_>) -> Py<PyAny> {
        self.actions.clone_ref(py)
    }
    #[getter]
    fn enabled(&self) -> bool {
        self.inner.enabled
    }
    #[getter]
    fn visible(&self) -> bool {
        self.inner.visible
    }
    #[getter]
    fn focused(&self) -> bool {
        self.inner.focused
    }
    #[getter]
    fn selected(&self) -> Option<bool> {
        self.inner.selected
    }
    #[getter]
    fn expanded(&self) -> Option<bool> {
        self.inner.expanded
    }
    #[getter]
    fn parent_id(&self) -> Option<&str> {
        self.inner.parent_id.as_ref().map(|p| p.as_str())
    }
    #[getter]
    fn bounds(&self, py: Python<'_>) -> Py<PyAny> {
        self.bounds.clone_ref(py)
    }
    #[getter]
    fn source(&self) -> &str {
        self.inner.source.as_str()
    }
    #[getter]
    fn accepts_drop(&self) -> bool {
        self.inner.accepts_drop
    }
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.metadata {
            Some(m) => m.bind(py).clone(),
            None => PyDict::new(py).into_any(),
        }
    }
    #[getter]
    fn guard(&self) -> &str {
        &self.inner.guard.0
    }

    /// The guard arc-core's freshness check compares (the precomputed one if set).
    fn semantic_guard(&self) -> String {
        self.inner.effective_guard().0
    }

    /// The element as arc-core's compact view writes it.
    fn compact<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&CompactElement::from(&self.inner))
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        convert::json_to_py(py, text)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp, py: Python<'_>) -> Py<PyAny> {
        let Ok(other) = other.cast::<DesktopElement>() else {
            return py.NotImplemented();
        };
        let eq = self.inner == other.get().inner;
        match op {
            CompareOp::Eq => eq
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind()),
            CompareOp::Ne => (!eq)
                .into_pyobject(py)
                .map(|b| b.to_owned().into_any().unbind()),
            _ => return py.NotImplemented(),
        }
        .unwrap_or_else(|_| py.NotImplemented())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "DesktopElement(id={:?}, role={}, name={:?}, value={}, actions={}, source={:?})",
            self.inner.id.as_str(),
            self.role.bind(py).repr()?,
            self.inner.name,
            self.value.bind(py).repr()?,
            self.actions.bind(py).repr()?,
            self.inner.source.as_str(),
        ))
    }
}
