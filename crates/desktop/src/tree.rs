//! The raw accessible tree of one application: one `Cache.GetItems` call where the app
//! has a cache, else a walk bounded by node count and time.

use crate::dbus::{self, CallError};
use crate::ids::ObjRef;
use atspi::{InterfaceSet, StateSet};
use futures_util::future::join_all;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Nodes a walk visits at most, and how long it may take: a huge or stuck app yields a
/// partial tree (`truncated`), never a hang.
pub const MAX_WALK_NODES: usize = 5_000;
pub const MAX_WALK_TIME: Duration = Duration::from_secs(3);
/// Nodes a cache reply may hold before the snapshot is refused as absurd.
pub const MAX_CACHE_NODES: usize = 100_000;

/// How the tree was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeSource {
    /// Prefer `Cache.GetItems`, walk when the app has no cache.
    Auto,
    /// Always walk (tests of the walk; apps whose cache is known to be wrong).
    Walk,
}

#[derive(Clone, Debug)]
pub struct RawNode {
    pub obj: ObjRef,
    pub parent: Option<usize>,
    pub index_in_parent: i32,
    pub role: atspi::Role,
    pub name: String,
    pub states: StateSet,
    pub ifaces: InterfaceSet,
    pub children: Vec<usize>,
}

pub struct RawTree {
    /// Depth-first, in child order: reading order.
    pub nodes: Vec<RawNode>,
    /// Top-level nodes (the app's windows and dialogs).
    pub roots: Vec<usize>,
    pub truncated: bool,
    pub from_cache: bool,
    /// Children of large uncached containers left out because they were off screen.
    pub left_out: usize,
}

type ItemRef = (String, zbus::zvariant::OwnedObjectPath);
/// `a((so)(so)(so)iiassusau)`: object, app, parent, index, child count, interfaces,
/// name, role, description, states (at-spi2-atk's order; the atspi crate's field names
/// call the name "short name").
type CacheItem = (
    ItemRef,
    ItemRef,
    ItemRef,
    i32,
    i32,
    Vec<String>,
    String,
    u32,
    String,
    Vec<u32>,
);

pub async fn read(
    conn: &zbus::Connection,
    app: &ObjRef,
    source: TreeSource,
) -> Result<RawTree, CallError> {
    let started = Instant::now();
    if source == TreeSource::Auto {
        let cache = ObjRef {
            bus: app.bus.clone(),
            path: "/org/a11y/atspi/cache".into(),
        };
        let got =
            dbus::call::<_, Vec<CacheItem>>(conn, &cache, "org.a11y.atspi.Cache", "GetItems", &())
                .await;
        match got {
            Ok(items) if items.len() > MAX_CACHE_NODES => {
                return Err(CallError::Failed {
                    method: "GetItems",
                    path: app.path.to_string(),
                    detail: format!("{} nodes exceed the {MAX_CACHE_NODES} limit", items.len()),
                })
            }
            Ok(items) => {
                let (mut flat, counts) = from_cache(app, items);
                let (truncated, left_out) = fill_uncached(conn, &mut flat, &counts, started).await;
                let mut tree = order(flat, |n| n.parent.is_none(), true);
                tree.truncated = truncated;
                tree.left_out = left_out;
                return Ok(tree);
            }
            // The app itself is gone (not merely cacheless): say so.
            Err(e @ CallError::Gone(..)) if e.to_string().contains("ServiceUnknown") => {
                return Err(e)
            }
            Err(_) => {} // no cache: walk
        }
    }
    let seeds = children(conn, app).await?;
    let mut flat = Vec::new();
    let seeds = seeds
        .into_iter()
        .enumerate()
        .map(|(i, c)| (c, None, i as i32))
        .collect();
    let truncated = walk(conn, seeds, &mut flat, started).await;
    let mut tree = order(flat, |n| n.parent.is_none(), false);
    tree.truncated = truncated;
    Ok(tree)
}

/// The cache's nodes with parent links, and each node's reported child count.
fn from_cache(app: &ObjRef, items: Vec<CacheItem>) -> (Vec<RawNode>, Vec<i32>) {
    let bus = app.bus.clone();
    let mut flat: Vec<RawNode> = Vec::with_capacity(items.len());
    let mut counts = Vec::with_capacity(items.len());
    let mut parents: Vec<Arc<str>> = Vec::with_capacity(items.len());
    let mut by_path: HashMap<Arc<str>, usize> = HashMap::with_capacity(items.len());
    for (obj, _app, parent, index, n, ifaces, name, role, _description, states) in items {
        if obj.1.as_str() == &*app.path {
            continue; // the application itself: its children are the roots
        }
        let path: Arc<str> = obj.1.as_str().into();
        by_path.insert(path.clone(), flat.len());
        parents.push(parent.1.as_str().into());
        counts.push(n);
        flat.push(RawNode {
            obj: ObjRef {
                bus: bus.clone(),
                path,
            },
            parent: None,
            index_in_parent: index,
            role: role_from_u32(role),
            name,
            states: states_from(&states),
            ifaces: ifaces_from(&ifaces),
            children: Vec::new(),
        });
    }
    for i in 0..flat.len() {
        if let Some(&p) = by_path.get(&parents[i]) {
            if p != i {
                flat[i].parent = Some(p);
                flat[p].children.push(i);
            }
        }
    }
    (flat, counts)
}

/// GTK's cache leaves out the children of containers that manage their descendants
/// (list boxes, tree views): walk them. A container with more than [`FULL_WALK_CHILDREN`]
/// children is read only where it is on screen (its rows' extents against the
/// scrolled area), the rest counted as left out.
async fn fill_uncached(
    conn: &zbus::Connection,
    flat: &mut Vec<RawNode>,
    counts: &[i32],
    started: Instant,
) -> (bool, usize) {
    let short: Vec<usize> = (0..counts.len())
        .filter(|&i| {
            let st = flat[i].states;
            let skipped = counts[i] > flat[i].children.len() as i32
                || (st.contains(atspi::State::ManagesDescendants) && flat[i].children.is_empty());
            skipped && st.contains(atspi::State::Showing)
        })
        .collect();
    if short.is_empty() {
        return (false, 0);
    }
    let known: std::collections::HashSet<Arc<str>> =
        flat.iter().map(|n| n.obj.path.clone()).collect();
    // Children and the visible area in one round of calls.
    let read = join_all(short.iter().map(|&i| {
        let flat = &*flat;
        async move { tokio::join!(children(conn, &flat[i].obj), clip_of(conn, flat, i)) }
    }))
    .await;
    let mut seeds = Vec::new();
    let mut left_out = 0;
    for (&i, (got, clip)) in short.iter().zip(read) {
        let got: Vec<(usize, ObjRef)> = got
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !known.contains(&c.path))
            .collect();
        let keep = if got.len() > FULL_WALK_CHILDREN {
            on_screen(conn, &flat[i].obj, &got, clip).await
        } else {
            0..got.len()
        };
        left_out += got.len() - keep.len();
        for (k, c) in got.into_iter().skip(keep.start).take(keep.len()) {
            seeds.push((c, Some(i), k as i32));
        }
    }
    (walk(conn, seeds, flat, started).await, left_out)
}

/// Containers with at most this many uncached children are walked whole.
pub const FULL_WALK_CHILDREN: usize = 64;

type Rect = (i32, i32, i32, i32);

async fn extents(conn: &zbus::Connection, obj: &ObjRef) -> Option<Rect> {
    dbus::call(
        conn,
        obj,
        "org.a11y.atspi.Component",
        "GetExtents",
        &(0u32,),
    )
    .await
    .ok()
}

/// The visible area of node `i`: its box cut by its scrolling ancestors' boxes.
async fn clip_of(conn: &zbus::Connection, flat: &[RawNode], i: usize) -> Option<Rect> {
    let mut chain = vec![i];
    let mut at = flat[i].parent;
    while let Some(p) = at {
        if matches!(
            flat[p].role,
            atspi::Role::ScrollPane | atspi::Role::Viewport
        ) {
            chain.push(p);
        }
        at = flat[p].parent;
    }
    let boxes = join_all(chain.iter().map(|&n| extents(conn, &flat[n].obj))).await;
    boxes.into_iter().flatten().reduce(|a, b| {
        let x = a.0.max(b.0);
        let y = a.1.max(b.1);
        let r = (a.0 + a.2).min(b.0 + b.2);
        let btm = (a.1 + a.3).min(b.1 + b.3);
        (x, y, (r - x).max(0), (btm - y).max(0))
    })
}

/// The index range of `rows` whose boxes overlap `clip`. The first is the row the
/// container reports at the clip's top-left (one call); from there rows are read in
/// batches until one is off screen. GTK reports rows scrolled out of view at `i32::MIN`.
/// Without a hit, every row's box is read (all calls in flight).
async fn on_screen(
    conn: &zbus::Connection,
    container: &ObjRef,
    rows: &[(usize, ObjRef)],
    clip: Option<Rect>,
) -> std::ops::Range<usize> {
    let Some((cx, cy, cw, ch)) = clip else {
        return 0..rows.len().min(FULL_WALK_CHILDREN);
    };
    let shown = |b: &Option<Rect>| {
        b.is_some_and(|(x, y, w, h)| {
            x != i32::MIN
                && y != i32::MIN
                && x < cx + cw
                && y < cy + ch
                && x.saturating_add(w) > cx
                && y.saturating_add(h) > cy
        })
    };
    let hit: Option<(String, zbus::zvariant::OwnedObjectPath)> = dbus::call(
        conn,
        container,
        "org.a11y.atspi.Component",
        "GetAccessibleAtPoint",
        &(cx + 1, cy + 1, 0u32),
    )
    .await
    .ok();
    let start = hit.and_then(|(_, path)| rows.iter().position(|(_, r)| &*r.path == path.as_str()));
    let Some(first) = start else {
        let boxes = join_all(rows.iter().map(|(_, r)| extents(conn, r))).await;
        let first = boxes.iter().position(shown).unwrap_or(rows.len());
        let end = boxes.iter().rposition(shown).map_or(first, |l| l + 1);
        return first..end;
    };
    const BATCH: usize = 16;
    let mut end = first;
    while end < rows.len() {
        let batch = &rows[end..(end + BATCH).min(rows.len())];
        let boxes = join_all(batch.iter().map(|(_, r)| extents(conn, r))).await;
        let seen = boxes.iter().take_while(|b| shown(b)).count();
        end += seen;
        if seen < batch.len() {
            break;
        }
    }
    first..end.max(first + 1).min(rows.len())
}

/// Re-orders `flat` depth-first (children by index in parent) from the nodes `is_root`
/// picks, dropping nodes not reachable from a root.
fn order(mut flat: Vec<RawNode>, is_root: impl Fn(&RawNode) -> bool, from_cache: bool) -> RawTree {
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); flat.len()];
    for (i, n) in flat.iter().enumerate() {
        if let Some(p) = n.parent {
            kids[p].push(i);
        }
    }
    for k in &mut kids {
        k.sort_by_key(|&c| flat[c].index_in_parent);
    }
    let mut roots_old: Vec<usize> = (0..flat.len()).filter(|&i| is_root(&flat[i])).collect();
    roots_old.sort_by_key(|&i| flat[i].index_in_parent);
    let mut new_of = vec![usize::MAX; flat.len()];
    let mut out_order = Vec::with_capacity(flat.len());
    let mut stack: Vec<usize> = roots_old.iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        if new_of[i] != usize::MAX {
            continue; // a cycle in a broken tree: visit once
        }
        new_of[i] = out_order.len();
        out_order.push(i);
        stack.extend(kids[i].iter().rev().copied());
    }
    let mut taken: Vec<Option<RawNode>> = flat.drain(..).map(Some).collect();
    let mut nodes = Vec::with_capacity(out_order.len());
    for &old in &out_order {
        let mut n = taken[old].take().expect("visited once");
        n.parent = n.parent.map(|p| new_of[p]).filter(|&p| p != usize::MAX);
        n.children = kids[old]
            .iter()
            .map(|&c| new_of[c])
            .filter(|&c| c != usize::MAX)
            .collect();
        nodes.push(n);
    }
    let roots = roots_old.iter().map(|&i| new_of[i]).collect();
    RawTree {
        nodes,
        roots,
        truncated: false,
        from_cache,
        left_out: 0,
    }
}

/// Breadth-first from `seeds` (object, parent index in `flat`, index in parent), one
/// level at a time with every call of a level in flight at once; bounded by node count
/// and time. Returns whether it stopped short.
async fn walk(
    conn: &zbus::Connection,
    mut level: Vec<(ObjRef, Option<usize>, i32)>,
    flat: &mut Vec<RawNode>,
    started: Instant,
) -> bool {
    let acc = "org.a11y.atspi.Accessible";
    while !level.is_empty() {
        if started.elapsed() > MAX_WALK_TIME {
            return true;
        }
        let room = MAX_WALK_NODES.saturating_sub(flat.len());
        let cut = level.len() > room;
        level.truncate(room);
        let read = join_all(level.iter().map(|(obj, _, _)| async move {
            tokio::join!(
                dbus::call::<_, u32>(conn, obj, acc, "GetRole", &()),
                dbus::property(conn, obj, acc, "Name"),
                dbus::call::<_, Vec<u32>>(conn, obj, acc, "GetState", &()),
                dbus::call::<_, Vec<String>>(conn, obj, acc, "GetInterfaces", &()),
                children(conn, obj),
            )
        }))
        .await;
        let mut next = Vec::new();
        for ((obj, parent, index), (role, name, states, ifaces, kids)) in
            level.into_iter().zip(read)
        {
            let Ok(role) = role else { continue }; // vanished mid-walk: leave it out
            let idx = flat.len();
            flat.push(RawNode {
                obj,
                parent,
                index_in_parent: index,
                role: role_from_u32(role),
                name: name
                    .ok()
                    .and_then(|v| String::try_from(v).ok())
                    .unwrap_or_default(),
                states: states.map(|s| states_from(&s)).unwrap_or_default(),
                ifaces: ifaces.map(|i| ifaces_from(&i)).unwrap_or_default(),
                children: Vec::new(),
            });
            if let Some(p) = parent {
                flat[p].children.push(idx);
            }
            for (i, c) in kids.unwrap_or_default().into_iter().enumerate() {
                next.push((c, Some(idx), i as i32));
            }
        }
        if cut {
            return true;
        }
        level = next;
    }
    false
}

async fn children(conn: &zbus::Connection, obj: &ObjRef) -> Result<Vec<ObjRef>, CallError> {
    let kids: Vec<ItemRef> =
        dbus::call(conn, obj, "org.a11y.atspi.Accessible", "GetChildren", &()).await?;
    Ok(kids
        .into_iter()
        .filter(|(bus, path)| !bus.is_empty() && path.as_str() != "/org/a11y/atspi/null")
        .map(|(bus, path)| ObjRef {
            bus: bus.into(),
            path: path.as_str().into(),
        })
        .collect())
}

fn role_from_u32(raw: u32) -> atspi::Role {
    atspi::Role::try_from(raw).unwrap_or(atspi::Role::Unknown)
}

fn states_from(words: &[u32]) -> StateSet {
    let lo = words.first().copied().unwrap_or(0) as u64;
    let hi = words.get(1).copied().unwrap_or(0) as u64;
    // Bits a newer AT-SPI defines and this crate does not are dropped, not fatal.
    StateSet::from_bits(lo | (hi << 32)).unwrap_or_else(|e| StateSet::new(e.truncate()))
}

fn ifaces_from(names: &[String]) -> InterfaceSet {
    names
        .iter()
        .filter_map(|n| serde_plain_interface(n))
        .collect()
}

fn serde_plain_interface(name: &str) -> Option<atspi::Interface> {
    use atspi::Interface as I;
    Some(match name {
        "org.a11y.atspi.Accessible" => I::Accessible,
        "org.a11y.atspi.Action" => I::Action,
        "org.a11y.atspi.Application" => I::Application,
        "org.a11y.atspi.Component" => I::Component,
        "org.a11y.atspi.EditableText" => I::EditableText,
        "org.a11y.atspi.Selection" => I::Selection,
        "org.a11y.atspi.Text" => I::Text,
        "org.a11y.atspi.Value" => I::Value,
        "org.a11y.atspi.Table" => I::Table,
        _ => return None,
    })
}
