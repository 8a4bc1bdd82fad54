//! Input through accessibility interfaces: none of these moves the pointer or changes
//! the focused window.

use crate::dbus::{self, CallError};
use crate::ids::ObjRef;
use zbus::zvariant::Value;

pub async fn do_action(
    conn: &zbus::Connection,
    obj: &ObjRef,
    index: i32,
) -> Result<bool, CallError> {
    dbus::call(conn, obj, "org.a11y.atspi.Action", "DoAction", &(index,)).await
}

pub async fn grab_focus(conn: &zbus::Connection, obj: &ObjRef) -> Result<bool, CallError> {
    dbus::call(conn, obj, "org.a11y.atspi.Component", "GrabFocus", &()).await
}

pub async fn select_child(
    conn: &zbus::Connection,
    parent: &ObjRef,
    index: i32,
) -> Result<bool, CallError> {
    dbus::call(
        conn,
        parent,
        "org.a11y.atspi.Selection",
        "SelectChild",
        &(index,),
    )
    .await
}

/// Replaces the text as typing over a selection would: the old text deleted, the new one
/// inserted (two edits the app sees, like a person's select-all + type).
pub async fn type_over(
    conn: &zbus::Connection,
    obj: &ObjRef,
    text: &str,
) -> Result<bool, CallError> {
    let count: i32 = dbus::property(conn, obj, "org.a11y.atspi.Text", "CharacterCount")
        .await
        .ok()
        .and_then(|v| i32::try_from(v).ok())
        .unwrap_or(-1);
    let et = "org.a11y.atspi.EditableText";
    if count != 0 {
        let end = if count < 0 { i32::MAX } else { count };
        dbus::call::<_, bool>(conn, obj, et, "DeleteText", &(0i32, end)).await?;
    }
    let len = text.chars().count() as i32;
    dbus::call(conn, obj, et, "InsertText", &(0i32, text, len)).await
}

pub async fn set_text(
    conn: &zbus::Connection,
    obj: &ObjRef,
    text: &str,
) -> Result<bool, CallError> {
    dbus::call(
        conn,
        obj,
        "org.a11y.atspi.EditableText",
        "SetTextContents",
        &(text,),
    )
    .await
}

pub async fn set_value(conn: &zbus::Connection, obj: &ObjRef, value: f64) -> Result<(), CallError> {
    dbus::call::<_, ()>(
        conn,
        obj,
        "org.freedesktop.DBus.Properties",
        "Set",
        &("org.a11y.atspi.Value", "CurrentValue", Value::from(value)),
    )
    .await
}

/// The node's state words; an error means the object is gone.
pub async fn states(conn: &zbus::Connection, obj: &ObjRef) -> Result<atspi::StateSet, CallError> {
    let words: Vec<u32> =
        dbus::call(conn, obj, "org.a11y.atspi.Accessible", "GetState", &()).await?;
    let lo = words.first().copied().unwrap_or(0) as u64;
    let hi = words.get(1).copied().unwrap_or(0) as u64;
    Ok(atspi::StateSet::from_bits(lo | (hi << 32))
        .unwrap_or_else(|e| atspi::StateSet::new(e.truncate())))
}

type Ref = (String, zbus::zvariant::OwnedObjectPath);

/// A combo box's option names in Selection order, read live (GTK: combo > menu > items).
pub async fn combo_options(
    conn: &zbus::Connection,
    combo: &ObjRef,
) -> Result<Vec<String>, CallError> {
    let acc = "org.a11y.atspi.Accessible";
    let kids: Vec<Ref> = dbus::call(conn, combo, acc, "GetChildren", &()).await?;
    let mut items: Vec<ObjRef> = Vec::new();
    for (bus, path) in kids.into_iter().take(4) {
        let child = ObjRef {
            bus: bus.as_str().into(),
            path: path.as_str().into(),
        };
        let role: u32 = dbus::call(conn, &child, acc, "GetRole", &()).await?;
        if role == atspi::Role::Menu as u32 || role == atspi::Role::List as u32 {
            let inner: Vec<Ref> = dbus::call(conn, &child, acc, "GetChildren", &()).await?;
            items.extend(inner.into_iter().take(1000).map(|(b, p)| ObjRef {
                bus: b.as_str().into(),
                path: p.as_str().into(),
            }));
        } else {
            items.push(child);
        }
    }
    let names = futures_util::future::join_all(items.iter().map(|o| async move {
        dbus::property(conn, o, acc, "Name")
            .await
            .ok()
            .and_then(|v| String::try_from(v).ok())
            .unwrap_or_default()
    }))
    .await;
    Ok(names)
}

/// What the pointer would press at `(x, y)` (screen coordinates): descends
/// `Component.GetAccessibleAtPoint` from the target's window. `true` when the descent
/// reaches the target or stops on one of its ancestors (a toolkit that does not report
/// deeper); `false` when it reaches something else (an overlay, a moved widget).
pub async fn hits(
    conn: &zbus::Connection,
    target: &ObjRef,
    ancestors: &[ObjRef],
    (x, y): (i32, i32),
) -> Result<bool, CallError> {
    let Some(mut at) = ancestors.last().cloned() else {
        return Ok(true); // a top-level window itself
    };
    for _ in 0..64 {
        if at == *target {
            return Ok(true);
        }
        let (bus, path): Ref = dbus::call(
            conn,
            &at,
            "org.a11y.atspi.Component",
            "GetAccessibleAtPoint",
            &(x, y, 0u32),
        )
        .await?;
        if bus.is_empty() || path.as_str() == "/org/a11y/atspi/null" {
            return Ok(ancestors.contains(&at));
        }
        let next = ObjRef {
            bus: bus.as_str().into(),
            path: path.as_str().into(),
        };
        if next == at {
            return Ok(ancestors.contains(&at));
        }
        at = next;
    }
    Ok(false)
}
