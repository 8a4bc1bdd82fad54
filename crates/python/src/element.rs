//! `DesktopElement`, the one value type in Rust: a state machine builds ~1,000 per
//! observation, and a frozen dataclass costs ~6 µs each to construct and as much again to
//! read back. This class parses once into arc-core's `Element` (what the loop uses,
//! cloned, not re-read) and keeps the Python values it was given for its attributes.

use crate::convert;
use arc_core::{
    ActionKind, ActionSet, CompactElement, Element, ElementFacts, ElementId, Guard, Role, Scalar,
    Source,
};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyString, PyTuple};

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

static ACTION_KINDS: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();
static BOUNDS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A scalar as the Python value it stands for.
pub fn scalar_to_py<'py>(py: Python<'py>, v: &Scalar) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Scalar::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Scalar::Int(i) => i.into_pyobject(py)?.into_any(),
        Scalar::Float(x) => PyFloat::new(py, *x).into_any(),
        Scalar::Text(s) => PyString::new(py, s).into_any(),
        // A number kept as its exact text: Python's own parser reads it exactly.
        Scalar::Number(n) => convert::json_to_py(py, n.as_str().to_owned())?,
    })
}

impl DesktopElement {
    /// arc-core's element as a Python one, without a JSON round trip (a Rust backend's
    /// snapshot handed to a Python policy, a result's final snapshot).
    pub fn from_core<'py>(py: Python<'py>, e: &Element) -> PyResult<Bound<'py, DesktopElement>> {
        let kinds = ACTION_KINDS.get_or_try_init(py, || {
            let cls = py.import("arc_cua.models")?.getattr("ActionKind")?;
            ActionKind::ALL
                .iter()
                .map(|k| cls.call1((k.as_str(),)).map(Bound::unbind))
                .collect::<PyResult<Vec<_>>>()
        })?;
        let actions: Vec<&Py<PyAny>> = ActionKind::ALL
            .iter()
            .zip(kinds)
            .filter(|(k, _)| e.actions.contains(**k))
            .map(|(_, o)| o)
            .collect();
        let value = match &e.value {
            Some(v) => scalar_to_py(py, v)?,
            None => py.None().into_bound(py),
        };
        let bounds = match &e.bounds {
            Some(b) => {
                convert::model_class(py, &BOUNDS, "Bounds")?.call1((b.x, b.y, b.width, b.height))?
            }
            None => py.None().into_bound(py),
        };
        let metadata = if e.facts.is_empty() {
            None
        } else {
            let text = serde_json::to_string(&e.facts)
                .map_err(|err| pyo3::exceptions::PyValueError::new_err(err.to_string()))?;
            Some(convert::json_to_py(py, text)?.unbind())
        };
        Bound::new(
            py,
            DesktopElement {
                inner: e.clone(),
                role: PyString::new(py, e.role.as_str()).unbind(),
                value: value.unbind(),
                actions: PyTuple::new(py, actions)?.into_any().unbind(),
                bounds: bounds.unbind(),
                metadata,
            },
        )
    }
}
