//! Between the Python value types (`arc_cua.models`) and arc-core's types.
//!
//! Python → Rust reads attributes directly (a snapshot of 1,000 elements is the hot
//! path of a Python backend); Rust → Python goes through arc-core's own JSON and the
//! small decoders in `arc_cua._wire`, so what Python sees is what the wire says.

use crate::scope;
use arc_core::{
    ActionKind, ActionParam, ActionRecord, ActionSet, Bounds, ContractError, Decision, Element,
    ElementFacts, ElementId, Guard, PageFacts, Role, Scalar, Snapshot, Source, Subtask,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use std::fmt::Write;

static WIRE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn module<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyModule>>,
    name: &str,
) -> PyResult<Bound<'py, PyModule>> {
    cell.get_or_try_init(py, || Ok::<_, PyErr>(py.import(name)?.unbind()))
        .map(|m| m.bind(py).clone())
}

/// `arc_cua.models.<name>`, looked up once.
pub fn model_class<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    cell.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("arc_cua.models")?.getattr(name)?.unbind())
    })
    .map(|c| c.bind(py).clone())
}

/// `arc_cua._wire.<name>(text)`.
pub fn decode<'py>(py: Python<'py>, name: &str, text: String) -> PyResult<Bound<'py, PyAny>> {
    module(py, &WIRE, "arc_cua._wire")?
        .getattr(name)?
        .call1((text,))
}

/// An instance of one of `arc_cua.errors`' classes, as a `PyErr`.
pub fn error(py: Python<'_>, class: &str, message: String) -> PyErr {
    match module(py, &ERRORS, "arc_cua.errors").and_then(|m| m.getattr(class)) {
        Ok(cls) => match cls.call1((message,)) {
            Ok(instance) => PyErr::from_value(instance),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

/// Whether `err` is an instance of `arc_cua.errors.<class>`.
pub fn is_error(py: Python<'_>, err: &PyErr, class: &str) -> bool {
    module(py, &ERRORS, "arc_cua.errors")
        .and_then(|m| m.getattr(class))
        .is_ok_and(|cls| err.is_instance(py, &cls))
}

/// arc-core's contract error as the ValueError the reference raises, naming the field.
pub fn contract_error(owner: &str, err: &ContractError) -> PyErr {
    let field = if err.field == "payload" || err.field.is_empty() {
        owner.to_owned()
    } else {
        format!("{owner}.{}", err.field)
    };
    PyValueError::new_err(format!("{field}: {}", err.message))
}

// ---- Python → JSON text -------------------------------------------------------------

/// Writes a Python value as JSON. Non-finite floats become `1e999`, which arc-core reads
/// as out of range and refuses naming the field (JSON has no spelling for them).
pub fn write_json(out: &mut String, obj: &Bound<'_, PyAny>, path: &str) -> PyResult<()> {
    if obj.is_none() {
        out.push_str("null");
    } else if let Ok(b) = obj.cast::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
    } else if obj.cast::<PyInt>().is_ok() {
        // Any size: the text is a JSON number either way.
        out.push_str(&obj.str()?.to_cow()?);
    } else if let Ok(f) = obj.cast::<PyFloat>() {
        let x = f.value();
        if x.is_finite() {
            out.push_str(&serde_json::to_string(&x).unwrap_or_else(|_| "1e999".into()));
        } else {
            out.push_str(if x < 0.0 { "-1e999" } else { "1e999" });
        }
    } else if let Ok(s) = obj.cast::<PyString>() {
        write_str(out, &s.to_cow()?);
    } else if let Ok(m) = obj.cast::<PyMapping>() {
        out.push('{');
        for (i, item) in m.items()?.iter().enumerate() {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            let Ok(key) = k.cast::<PyString>() else {
                return Err(PyValueError::new_err(format!(
                    "{path}: keys must be strings, not {}",
                    k.get_type().name()?
                )));
            };
            let key = key.to_cow()?;
            if i > 0 {
                out.push(',');
            }
            write_str(out, &key);
            out.push(':');
            write_json(out, &v, &format!("{path}.{key}"))?;
        }
        out.push('}');
    } else if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
        out.push('[');
        for (i, item) in obj.try_iter()?.enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_json(out, &item?, &format!("{path}[{i}]"))?;
        }
        out.push(']');
    } else {
        return Err(PyValueError::new_err(format!(
            "{path}: a {} cannot be sent as JSON (use strings, numbers, bools, lists and dicts)",
            obj.get_type().name()?
        )));
    }
    Ok(())
}

fn write_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

fn field(out: &mut String, first: &mut bool, name: &str) {
    if !*first {
        out.push(',');
    }
    *first = false;
    let _ = write!(out, "\"{name}\":");
}

// ---- Subtask and Decision: arc-core judges them -------------------------------------

const SUBTASK_FIELDS: [&str; 10] = [
    "goal",
    "verification",
    "inputs",
    "constraints",
    "max_actions",
    "metadata",
    "allowed_risks",
    "secret_inputs",
    "shortcuts",
    "files",
];

/// The reference keeps `shortcuts` as chord → description; arc-core reads the chords.
fn write_shortcuts(out: &mut String, v: &Bound<'_, PyAny>) -> PyResult<()> {
    match v.cast::<PyMapping>() {
        Ok(m) => write_json(out, m.keys()?.as_any(), "shortcuts"),
        Err(_) => write_json(out, v, "shortcuts"),
    }
}

/// A `Subtask` object (or anything with its attributes) as arc-core's JSON.
fn subtask_json(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut out = String::from("{");
    let mut first = true;
    for name in SUBTASK_FIELDS {
        // `files` is ours: an object made for the reference has none.
        if name == "files" && !obj.hasattr(name)? {
            continue;
        }
        let v = obj.getattr(name)?;
        field(&mut out, &mut first, name);
        if name == "shortcuts" {
            write_shortcuts(&mut out, &v)?;
        } else {
            write_json(&mut out, &v, &format!("Subtask.{name}"))?;
        }
    }
    out.push('}');
    Ok(out)
}

/// A planner's payload (a mapping) as arc-core's JSON, keys as given.
fn payload_json(payload: &Bound<'_, PyAny>) -> PyResult<String> {
    let Ok(map) = payload.cast::<PyMapping>() else {
        return Err(PyValueError::new_err(format!(
            "Subtask payload must be an object, not {}",
            payload.get_type().name()?
        )));
    };
    let mut out = String::from("{");
    let mut first = true;
    for item in map.items()?.iter() {
        let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
        let key: String = k.str()?.to_cow()?.into_owned();
        if !first {
            out.push(',');
        }
        first = false;
        write_str(&mut out, &key);
        out.push(':');
        if key == "shortcuts" {
            write_shortcuts(&mut out, &v)?;
        } else {
            write_json(&mut out, &v, &format!("Subtask.{key}"))?;
        }
    }
    out.push('}');
    Ok(out)
}

pub fn subtask(obj: &Bound<'_, PyAny>) -> PyResult<Subtask> {
    Subtask::from_json(&subtask_json(obj)?).map_err(|e| contract_error("Subtask", &e))
}

pub fn subtask_payload(payload: &Bound<'_, PyAny>) -> PyResult<Subtask> {
    Subtask::from_json(&payload_json(payload)?).map_err(|e| contract_error("Subtask", &e))
}

/// A `Decision`'s attributes around the action parameters, which are core's one table.
const DECISION_HEAD: [&str; 2] = ["kind", "terminal"];
const DECISION_TAIL: [&str; 5] = ["confidence", "margin", "latency_ms", "reason", "raw"];

/// A `Decision` object as arc-core's decision; errors name the field.
pub fn decision(obj: &Bound<'_, PyAny>) -> PyResult<Decision> {
    decision_with(obj, |_| false)
}

/// What constructing a `Decision` checks: everything [`decision`] does except the two
/// parameters the reference judges only when materializing (`materialize_action`, the
/// loop): a click modifier, and the key a TYPE_TEXT presses after its value. A
/// `Decision` holding a wrong one is built, and refused as `InvalidDecision` there.
pub fn decision_shape(obj: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = obj.py();
    let typing = obj
        .getattr(intern!(py, "kind"))?
        .str()
        .is_ok_and(|k| k.to_cow().is_ok_and(|k| k == ActionKind::TypeText.as_str()));
    decision_with(obj, |name| {
        name == ActionParam::ClickModifier.name() || (typing && name == ActionParam::Key.name())
    })
    .map(drop)
}

/// The decision with the attributes `skip` names left out.
fn decision_with(obj: &Bound<'_, PyAny>, skip: impl Fn(&str) -> bool) -> PyResult<Decision> {
    let mut out = String::from("{");
    let mut first = true;
    let params = ActionParam::ALL.iter().map(|p| p.name());
    for name in DECISION_HEAD.into_iter().chain(params).chain(DECISION_TAIL) {
        let v = obj.getattr(name)?;
        if v.is_none() || skip(name) {
            continue;
        }
        if name == "raw" {
            // Opaque debugging payload: an empty map is no payload.
            if v.len().unwrap_or(0) == 0 {
                continue;
            }
        }
        field(&mut out, &mut first, name);
        write_json(&mut out, &v, &format!("Decision.{name}"))?;
    }
    out.push('}');
    Decision::from_json(&out).map_err(|e| contract_error("Decision", &e))
}

// ---- Elements and snapshots ---------------------------------------------------------

pub fn scalar(v: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<Scalar>> {
    if v.is_none() {
        return Ok(None);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Some(Scalar::Bool(b.is_true())));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Some(Scalar::Text(s.to_cow()?.into_owned())));
    }
    if v.cast::<PyInt>().is_ok() {
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Some(Scalar::Int(i)));
        }
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        let x = f.value();
        if x.is_finite() {
            return Ok(Some(Scalar::Float(x)));
        }
    }
    Err(PyValueError::new_err(format!(
        "{what}: must be a string, a finite number, a bool or None, not {}",
        clip(&v.repr()?.to_cow()?)
    )))
}

fn clip(s: &str) -> String {
    arc_core::clip(s, arc_core::MAX_QUOTED_CHARS).into_owned()
}

pub fn action_kind(v: &Bound<'_, PyAny>, what: &str) -> PyResult<ActionKind> {
    let s = v.str()?;
    let s = s.to_cow()?;
    ActionKind::ALL
        .into_iter()
        .find(|k| k.as_str() == s)
        .ok_or_else(|| PyValueError::new_err(format!("{what}: unknown action kind {:?}", clip(&s))))
}

fn opt_string(v: Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if v.is_none() {
        Ok(None)
    } else {
        Ok(Some(v.extract()?))
    }
}

fn opt_bool(v: Bound<'_, PyAny>) -> PyResult<Option<bool>> {
    if v.is_none() {
        Ok(None)
    } else {
        Ok(Some(v.is_truthy()?))
    }
}

pub fn bounds(v: Bound<'_, PyAny>) -> PyResult<Option<Bounds>> {
    if v.is_none() {
        return Ok(None);
    }
    let py = v.py();
    Ok(Some(Bounds {
        x: v.getattr(intern!(py, "x"))?.extract()?,
        y: v.getattr(intern!(py, "y"))?.extract()?,
        width: v.getattr(intern!(py, "width"))?.extract()?,
        height: v.getattr(intern!(py, "height"))?.extract()?,
    }))
}

/// A mapping as a typed facts struct (`metadata`, `context`); empty is the default.
pub fn facts<T: Default + serde::de::DeserializeOwned>(
    v: Bound<'_, PyAny>,
    what: &str,
) -> PyResult<T> {
    if v.is_none() || v.len().unwrap_or(0) == 0 {
        return Ok(T::default());
    }
    let mut text = String::new();
    write_json(&mut text, &v, what)?;
    serde_json::from_str(&text).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

pub fn element(obj: &Bound<'_, PyAny>) -> PyResult<Element> {
    if let Ok(e) = obj.cast::<crate::element::DesktopElement>() {
        return Ok(e.get().inner.clone());
    }
    // Any object with the reference's attributes (duck-typed elements).
    let py = obj.py();
    let id: String = obj
        .getattr(intern!(py, "id"))?
        .extract()
        .map_err(|_| PyTypeError::new_err("DesktopElement.id: must be a string"))?;
    let role_obj = obj.getattr(intern!(py, "role"))?;
    let role = role_obj.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!("DesktopElement.role of {id}: must be a string"))
    })?;
    let mut actions = ActionSet::EMPTY;
    for kind in obj.getattr(intern!(py, "actions"))?.try_iter()? {
        actions.insert(action_kind(&kind?, "DesktopElement.actions")?);
    }
    let source: String = obj.getattr(intern!(py, "source"))?.extract()?;
    Ok(Element {
        id: ElementId(id),
        role: Role::parse(&role.to_cow()?),
        name: obj.getattr(intern!(py, "name"))?.extract()?,
        value: scalar(&obj.getattr(intern!(py, "value"))?, "DesktopElement.value")?,
        actions,
        enabled: obj.getattr(intern!(py, "enabled"))?.is_truthy()?,
        visible: obj.getattr(intern!(py, "visible"))?.is_truthy()?,
        focused: obj.getattr(intern!(py, "focused"))?.is_truthy()?,
        selected: opt_bool(obj.getattr(intern!(py, "selected"))?)?,
        expanded: opt_bool(obj.getattr(intern!(py, "expanded"))?)?,
        parent_id: opt_string(obj.getattr(intern!(py, "parent_id"))?)?.map(ElementId),
        bounds: bounds(obj.getattr(intern!(py, "bounds"))?)?,
        source: Source::parse(&source),
        accepts_drop: obj.getattr(intern!(py, "accepts_drop"))?.is_truthy()?,
        facts: facts::<ElementFacts>(
            obj.getattr(intern!(py, "metadata"))?,
            "DesktopElement.metadata",
        )?,
        guard: Guard(obj.getattr(intern!(py, "guard"))?.extract()?),
    })
}

pub fn snapshot(obj: &Bound<'_, PyAny>) -> PyResult<Snapshot> {
    let py = obj.py();
    let elements = obj.getattr(intern!(py, "elements"))?;
    let mut list = Vec::with_capacity(elements.len().unwrap_or(0));
    for e in elements.try_iter()? {
        list.push(element(&e?)?);
    }
    let mut snap = Snapshot::with_revision(
        obj.getattr(intern!(py, "application"))?
            .extract::<String>()?,
        obj.getattr(intern!(py, "window"))?.extract::<String>()?,
        obj.getattr(intern!(py, "revision"))?.extract::<String>()?,
        list,
    );
    snap.facts = facts::<PageFacts>(
        obj.getattr(intern!(py, "context"))?,
        "DesktopSnapshot.context",
    )?;
    snap.captured_at_ms = obj.getattr(intern!(py, "captured_at_ms"))?.extract()?;
    Ok(snap)
}

// ---- Rust → Python ------------------------------------------------------------------

fn to_json<T: serde::Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The Python snapshot the backend returned for this revision, else a converted one.
pub fn snapshot_to_py<'py>(py: Python<'py>, snap: &Snapshot) -> PyResult<Bound<'py, PyAny>> {
    if let Some(kept) = scope::snapshot(py, &snap.revision) {
        return Ok(kept);
    }
    static SNAPSHOT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cls = model_class(py, &SNAPSHOT, "DesktopSnapshot")?;
    let elements = snap
        .elements
        .iter()
        .map(|e| crate::element::DesktopElement::from_core(py, e))
        .collect::<PyResult<Vec<_>>>()?;
    let context = if snap.facts.is_empty() {
        pyo3::types::PyDict::new(py).into_any()
    } else {
        json_to_py(py, to_json(&snap.facts)?)?
    };
    cls.call1((
        &snap.application,
        &snap.window,
        &snap.revision,
        PyTuple::new(py, elements)?,
        context,
        snap.captured_at_ms,
    ))
}

pub fn action_to_py<'py>(
    py: Python<'py>,
    action: &arc_core::ExecutableAction,
) -> PyResult<Bound<'py, PyAny>> {
    decode(py, "action", to_json(action)?)
}

pub fn record_to_py<'py>(
    py: Python<'py>,
    record: &arc_core::ActionRecord,
) -> PyResult<Bound<'py, PyAny>> {
    decode(py, "record", to_json(record)?)
}

pub fn decision_to_py<'py>(py: Python<'py>, decision: &Decision) -> PyResult<Bound<'py, PyAny>> {
    decode(py, "decision", to_json(decision)?)
}

/// The reference's `ExecutionResult`, carrying arc-core's JSON for `result_to_dict`.
pub fn result_to_py<'py>(
    py: Python<'py>,
    result: &arc_core::ExecutionResult,
    subtask: &Bound<'py, PyAny>,
    final_snapshot: &Snapshot,
) -> PyResult<Bound<'py, PyAny>> {
    let text = to_json(result)?;
    let snap = snapshot_to_py(py, final_snapshot)?;
    module(py, &WIRE, "arc_cua._wire")?
        .getattr("result")?
        .call1((text, subtask, snap))
}

/// Python value of a JSON value (for `compact()`): through `json.loads`.
pub fn json_to_py<'py>(py: Python<'py>, text: String) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.getattr("loads")?.call1((text,))
}

/// A run's `ActionRecord`s as arc-core's (each keeps the JSON arc-core wrote for it).
pub fn records(history: &Bound<'_, PyAny>) -> PyResult<Vec<ActionRecord>> {
    let py = history.py();
    let mut out = Vec::new();
    for record in history.try_iter()? {
        let wire = record?.getattr(intern!(py, "_wire"))?;
        let text: Option<String> = wire.extract()?;
        let text = text.ok_or_else(|| {
            PyValueError::new_err("history: only records a DesktopExecutor returned can be passed")
        })?;
        out.push(
            serde_json::from_str(&text).map_err(|e| {
                PyValueError::new_err(format!("history: not an action record ({e})"))
            })?,
        );
    }
    Ok(out)
}
