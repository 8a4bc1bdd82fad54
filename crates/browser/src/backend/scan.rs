//! Viewport-scoped observation: one `Runtime.evaluate` of `__arc.scan` in the frame's
//! isolated world walks the DOM near the viewport and returns compact records, which
//! become a [`RawTree`] here.
//!
//! Why: `Accessibility.getFullAXTree` costs 1,309 ms / 62,020 nodes / 20.6 MB on the std
//! `Vec` docs page and 1,190 ms on `fixtures/site/table.html` (5,000 rows), and even
//! `DOMSnapshot.captureSnapshot` 282 ms: a step must not pay for the whole page. Roles and
//! names are approximations of Chromium's (see `js/aria.js`); the focused element and
//! open modal dialogs are always included, wherever they are.

use super::ax::is_password_type;
use super::prune::guard_of;
use super::raw::{Kind, NodeHandle, RawNode, RawTree, States};
use super::world::Worlds;
use crate::cdp::{ExecutionContextId, FrameId, LoaderId};
use crate::{BrowserError, CdpError, PageSession};
use arc_core::{Bounds, Guard, Role};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What one scan walks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScanOptions {
    /// How far beyond each viewport edge to walk, as a fraction of the viewport (0.5: half
    /// a viewport above and below), so a short scroll finds its target already observed.
    pub margin: f64,
    /// At most this many records (the focused element and modal dialogs come on top).
    pub max: usize,
    /// Measure text runs (one `Range` rect each); without, text nodes have no bounds.
    #[serde(rename = "textBounds")]
    pub text_bounds: bool,
    /// Walk the whole page, not just near the viewport, when it has at most this many
    /// elements: a small page is read as completely as Chromium's tree reads it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole: Option<usize>,
    /// The revision of the scan the caller holds: the page answers [`Scanned::Same`] when
    /// nothing the scan reads changed since (`js/world.js`, `unchanged`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<u64>,
}

impl ScanResult {
    /// Whether the scan saw every rendered element of the page: nothing outside the
    /// walked region, not cut at `max`, no frame it could not enter. What it left out is
    /// then only what is not rendered, which the accessibility tree leaves out too.
    pub fn whole_page(&self) -> bool {
        !self.partial && !self.truncated && self.opaque_frames == 0
    }
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            margin: 0.5,
            max: 5000,
            text_bounds: true,
            whole: None,
            since: None,
        }
    }
}

/// What one scan call returns.
#[derive(Clone, Debug)]
pub enum Scanned {
    /// Nothing the scan reads changed since this revision (the one asked about), but for
    /// the boxes running animations moved (`world.js`, `motion`).
    Same {
        revision: u64,
        moved: Vec<Moved>,
        /// Whether the page watches this answer (`world.js`, `hold`): never when
        /// animations moved boxes.
        watched: bool,
    },
    Fresh(ScanResult),
}

/// One scan of one frame (and the same-origin frames inside it).
#[derive(Clone, Debug)]
pub struct ScanResult {
    /// Index 0 is the document. Handles are [`NodeHandle::Scan`] in the scanned frame, also
    /// for nodes inside same-origin iframes (their keys live in the scanned frame's world).
    pub tree: RawTree,
    /// Elements in the walked documents (the top one and the iframes entered).
    pub elements: usize,
    /// Elements not in the tree: off the viewport (± margin), hidden, or past `max`.
    pub left_out: usize,
    /// Whether the walk stopped at `max` records.
    pub truncated: bool,
    /// Whether something rendered lay outside the walked region (off screen ± margin,
    /// rows skipped, a select's options past 500).
    pub partial: bool,
    /// Cross-origin frames the scan could not enter (shown as the iframe alone).
    pub opaque_frames: usize,
    /// Every frame the scan's world could not enter, for `frames.rs` to scan on its own.
    pub frames: Vec<OpaqueFrame>,
    /// Elements first seen that may host a closed shadow root (`roots.rs` asks DevTools).
    pub hosts: usize,
    /// The scanned frame's viewport, CSS pixels.
    pub viewport: Bounds,
    /// The frame's URL without its fragment (as `Page.getFrameTree` gives it).
    pub url: String,
    /// `<canvas>` elements in the scanned document (OCR looks only when there are some).
    pub canvases: usize,
    /// This scan's revision in its world (counts scans; [`ScanOptions::since`] cites it).
    pub revision: u64,
    /// Whether the page watches this scan: it calls its change notice on the first
    /// change after it (`world.js`, `hold`; never on a page with canvases), so the scan
    /// may be shown again unasked.
    pub watched: bool,
    /// Pictures in the walked region still on their way (an empty box that shows an image
    /// once it arrives, `world.js` `pictureOf`), not yet waited for in this document.
    pub pending_pictures: usize,
    /// Size of the JSON the page returned.
    pub json_bytes: usize,
    /// What the page's password fields hold: for the redactor only, never an element's.
    pub passwords: PasswordValues,
}

/// A frame element whose document the scan's world cannot enter.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct OpaqueFrame {
    /// Its node in the scan's tree.
    pub node: usize,
    /// Where its document begins, in the scanned frame's viewport.
    pub x: f64,
    pub y: f64,
}

/// Password values a page holds, kept apart from what is shown; printed as a count.
#[derive(Clone, Default, PartialEq)]
pub struct PasswordValues(pub Vec<String>);

impl std::fmt::Debug for PasswordValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PasswordValues({})", self.0.len())
    }
}

/// The page's reply (`__arc.scan`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Reply {
    /// Viewport width, height.
    w: [f64; 2],
    /// Elements in the walked documents.
    e: usize,
    /// Elements left out.
    o: usize,
    /// Truncated at `max`.
    t: bool,
    /// Something rendered lay outside the walked region.
    #[serde(default)]
    x: bool,
    /// Cross-origin frames not entered.
    #[serde(default)]
    c: usize,
    /// Frame elements not entered: [record, x, y].
    #[serde(default)]
    of: Vec<(usize, f64, f64)>,
    /// Hosts queued for `nextHost`.
    #[serde(default)]
    sh: usize,
    /// The document's URL without the fragment.
    u: String,
    /// `<canvas>` elements in the document.
    cv: usize,
    /// The scan's revision.
    rev: u64,
    /// Watched.
    #[serde(default)]
    wt: bool,
    /// Pictures on their way.
    #[serde(default)]
    pp: usize,
    /// The values of the page's password fields (`world.js`, `passwordsOf`).
    #[serde(default)]
    pw: Vec<String>,
    r: Vec<Record>,
}

/// The page's reply when nothing changed since the revision asked about.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Same {
    same: u64,
    #[serde(default)]
    moved: Vec<Moved>,
    #[serde(default)]
    wt: bool,
}

/// A scanned node an animation has drawn elsewhere since the scan: its key and box now.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct Moved(pub u64, pub f64, pub f64, pub f64, pub f64);

impl Moved {
    pub fn key(&self) -> u64 {
        self.0
    }

    pub fn bounds(&self) -> Bounds {
        Bounds {
            x: self.1,
            y: self.2,
            width: self.3,
            height: self.4,
        }
    }
}

/// One node. Defaults are omitted by the page to keep the JSON small.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    /// Parent record index (absent for the root).
    #[serde(default)]
    p: Option<usize>,
    /// Stable key in the world (`__arc.byKey`).
    k: u64,
    /// Role string as `__arc.read` gives it ("" = generic).
    #[serde(default)]
    r: String,
    #[serde(default)]
    n: String,
    /// Text of a text node (its presence makes the record a text run).
    #[serde(default)]
    s: Option<String>,
    #[serde(default)]
    v: String,
    /// State bits, see [`flag`].
    #[serde(default)]
    f: u32,
    /// x, y, width, height in the top viewport.
    #[serde(default)]
    b: Option<[f64; 4]>,
    /// Tag name, lower case.
    #[serde(default)]
    g: String,
    /// Selector-worthy attributes (id, name, placeholder, href, test ids, input type).
    #[serde(default)]
    a: BTreeMap<String, String>,
    /// Vertical scroll of its own content: [scrollTop, its maximum].
    #[serde(default)]
    y: Option<[f64; 2]>,
}

/// The record flags, as `js/world.js` sets them.
mod flag {
    pub const DISABLED: u32 = 1;
    pub const FOCUSED: u32 = 2;
    pub const FOCUSABLE: u32 = 4;
    pub const EDITABLE: u32 = 8;
    pub const READONLY: u32 = 16;
    pub const MULTILINE: u32 = 32;
    pub const DRAGGABLE: u32 = 64;
    pub const DROP: u32 = 128;
    pub const SCROLLABLE: u32 = 256;
    pub const CLICKABLE: u32 = 512;
    pub const NATIVE_SELECT: u32 = 1024;
    pub const BLOCK: u32 = 2048;
    pub const HAS_SELECTED: u32 = 4096;
    pub const SELECTED: u32 = 8192;
    pub const HAS_EXPANDED: u32 = 16384;
    pub const EXPANDED: u32 = 32768;
    pub const SET_ONLY: u32 = 65536;
}

/// Scans `frame` (its document as of `loader`) near the viewport.
pub async fn scan(
    page: &PageSession,
    worlds: &mut Worlds,
    frame: &FrameId,
    loader: &LoaderId,
    opts: &ScanOptions,
) -> Result<ScanResult, BrowserError> {
    let opts = ScanOptions {
        since: None,
        ..opts.clone()
    };
    let json: String = worlds
        .eval(page, frame, loader, &expression(&opts)?)
        .await?;
    match decoded(&json, frame)? {
        Scanned::Fresh(scan) => Ok(scan),
        Scanned::Same { revision, .. } => Err(CdpError::Deserialize {
            method: "Runtime.evaluate (__arc.scan)".into(),
            source: serde::de::Error::custom(format!(
                "the page answered `same: {revision}` to a scan that cited no revision"
            )),
        }
        .into()),
    }
}

/// [`scan`] in the world `ctx` as it is, one call: no frame tree, no world created. Fails
/// with a lost world ([`super::world::is_lost_world`]) once the document is gone.
pub async fn scan_in(
    page: &PageSession,
    worlds: &Worlds,
    ctx: ExecutionContextId,
    frame: &FrameId,
    opts: &ScanOptions,
) -> Result<Scanned, BrowserError> {
    let json: String = worlds.eval_in(page, ctx, &expression(opts)?).await?;
    decoded(&json, frame)
}

fn expression(opts: &ScanOptions) -> Result<String, BrowserError> {
    let opts_json = serde_json::to_string(opts).map_err(|source| CdpError::Serialize {
        method: "__arc.scan".into(),
        source,
    })?;
    // A string, not a returned object: Chromium converts one string far faster than a
    // tree of small objects, and serde reads it straight into typed records.
    Ok(format!("JSON.stringify(__arc.scan({opts_json}))"))
}

fn decoded(json: &str, frame: &FrameId) -> Result<Scanned, BrowserError> {
    let read = if json.starts_with(r#"{"same":"#) {
        serde_json::from_str::<Same>(json).map(|s| Scanned::Same {
            revision: s.same,
            moved: s.moved,
            watched: s.wt,
        })
    } else {
        decode(json, frame).map(Scanned::Fresh)
    };
    read.map_err(|source| {
        CdpError::Deserialize {
            method: "Runtime.evaluate (__arc.scan)".into(),
            source,
        }
        .into()
    })
}

/// The guard of one scanned node as it is now (`None`: it left its document). Any handle
/// resolves, but only a scan's own guards compare equal: the role strings are the scan's.
pub async fn reread_guard(
    page: &PageSession,
    worlds: &mut Worlds,
    handle: &NodeHandle,
    loader: &LoaderId,
) -> Result<Option<Guard>, BrowserError> {
    let Some(object) = worlds.resolve(page, handle, loader).await? else {
        return Ok(None);
    };
    let read: Option<Read> = worlds
        .call_on(
            page,
            &object,
            "function() { return __arc.read(this); }",
            vec![],
        )
        .await?;
    Ok(read.map(|r| r.guard()))
}

/// `__arc.read`: [role, name, value, disabled, selected, expanded].
#[derive(Debug, Deserialize)]
struct Read(String, String, String, bool, Option<bool>, Option<bool>);

impl Read {
    fn guard(&self) -> Guard {
        let value = Some(self.2.as_str()).filter(|v| !v.is_empty());
        guard_of(&self.0, &self.1, value, self.3, self.4, self.5)
    }
}

/// Builds the tree from the page's JSON. Records come parents first; a record naming a
/// parent at or after itself is malformed.
pub fn decode(json: &str, frame: &FrameId) -> Result<ScanResult, serde_json::Error> {
    let reply: Reply = serde_json::from_str(json)?;
    let count = reply.r.len();
    let frames = reply
        .of
        .iter()
        .map(|&(node, x, y)| match node < count {
            true => Ok(OpaqueFrame { node, x, y }),
            false => Err(serde::de::Error::custom(format!(
                "frame element {node} names no record"
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut tree = RawTree {
        nodes: Vec::with_capacity(reply.r.len()),
    };
    for (i, rec) in reply.r.into_iter().enumerate() {
        let parent = rec.p;
        match parent {
            Some(p) if p >= i => {
                return Err(serde::de::Error::custom(format!(
                    "record {i} names parent {p}, not an earlier record"
                )))
            }
            None if i > 0 => {
                return Err(serde::de::Error::custom(format!(
                    "record {i} has no parent; only the root may"
                )))
            }
            _ => {}
        }
        let node = raw_node(rec, frame);
        let at = tree.push(node);
        if let Some(p) = parent {
            tree.nodes[p].children.push(at);
        }
    }
    Ok(ScanResult {
        tree,
        elements: reply.e,
        left_out: reply.o,
        truncated: reply.t,
        partial: reply.x,
        opaque_frames: reply.c,
        frames,
        hosts: reply.sh,
        viewport: Bounds {
            x: 0.0,
            y: 0.0,
            width: reply.w[0],
            height: reply.w[1],
        },
        url: reply.u,
        canvases: reply.cv,
        revision: reply.rev,
        watched: reply.wt,
        pending_pictures: reply.pp,
        json_bytes: json.len(),
        passwords: PasswordValues(reply.pw),
    })
}

fn raw_node(rec: Record, frame: &FrameId) -> RawNode {
    let handle = Some(NodeHandle::Scan {
        frame: frame.clone(),
        key: rec.k,
    });
    let bounds = rec.b.map(|[x, y, width, height]| Bounds {
        x,
        y,
        width,
        height,
    });
    if let Some(text) = rec.s {
        let mut node = RawNode::new(Kind::Text, Role::StaticText);
        node.guard = guard_of("StaticText", &text, None, false, None, None);
        node.name = text;
        node.bounds = bounds;
        node.handle = handle;
        return node;
    }
    let mut role = if rec.r.is_empty() {
        Role::Generic
    } else {
        Role::parse(&rec.r)
    };
    if role == Role::TextField && rec.a.get("type").is_some_and(|t| is_password_type(t)) {
        role = Role::PasswordField;
    }
    let has = |bit: u32| rec.f & bit != 0;
    let tri = |known: u32, set: u32| has(known).then(|| has(set));
    let states = States {
        disabled: has(flag::DISABLED),
        focused: has(flag::FOCUSED),
        focusable: has(flag::FOCUSABLE),
        editable: has(flag::EDITABLE),
        readonly: has(flag::READONLY),
        multiline: has(flag::MULTILINE),
        selected: tri(flag::HAS_SELECTED, flag::SELECTED),
        expanded: tri(flag::HAS_EXPANDED, flag::EXPANDED),
        draggable: has(flag::DRAGGABLE),
        drop_target: has(flag::DROP),
        scrollable: has(flag::SCROLLABLE),
        clickable: has(flag::CLICKABLE),
        native_select: has(flag::NATIVE_SELECT),
        block: has(flag::BLOCK),
        set_only: has(flag::SET_ONLY),
    };
    let value = Some(rec.v).filter(|v| !v.is_empty());
    let mut node = RawNode::new(Kind::Node, role);
    node.guard = guard_of(
        &rec.r,
        &rec.n,
        value.as_deref(),
        states.disabled,
        states.selected,
        states.expanded,
    );
    node.name = rec.n;
    node.value = value;
    node.states = states;
    node.bounds = bounds;
    node.handle = handle;
    node.add_selector_facts(&rec.g, |k| rec.a.get(k));
    node.facts.scroll = rec.y.map(|[top, max]| arc_core::ScrollOffset { top, max });
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use arc_core::InputType;

    fn frame() -> FrameId {
        FrameId("F".into())
    }

    const PAGE: &str = r#"{"w":[800,600],"e":40,"o":33,"t":false,"u":"http://a/","cv":2,"rev":7,"r":[
        {"k":1,"r":"RootWebArea","n":"Sign up"},
        {"p":0,"k":2,"g":"form","r":"form","f":2048},
        {"p":1,"k":3,"g":"input","r":"textbox","n":"Email","v":"a@b.c","f":14,
         "b":[10,20,200,24.5],"a":{"id":"email","type":"email"}},
        {"p":1,"k":4,"g":"input","r":"textbox","n":"Password","v":"••••","f":12,
         "a":{"type":"password"}},
        {"p":1,"k":5,"g":"input","r":"checkbox","n":"I accept","f":4100},
        {"p":1,"k":6,"g":"button","r":"button","n":"Sign up","f":12288},
        {"p":5,"k":7,"s":"Sign up","b":[12,60,50,16]}
    ]}"#;

    #[test]
    fn records_become_a_tree_with_states_roles_and_facts() {
        let r = decode(PAGE, &frame()).unwrap();
        assert_eq!((r.elements, r.left_out, r.truncated), (40, 33, false));
        assert_eq!((r.viewport.width, r.viewport.height), (800.0, 600.0));
        assert_eq!(r.json_bytes, PAGE.len());
        assert_eq!(
            (r.url.as_str(), r.canvases, r.revision),
            ("http://a/", 2, 7)
        );
        let n = &r.tree.nodes;
        assert_eq!(n.len(), 7);
        assert_eq!(n[0].role, Role::Document);
        assert_eq!(n[0].children, vec![1]);
        assert_eq!(n[1].children, vec![2, 3, 4, 5]);
        assert!(n[1].states.block);

        let email = &n[2];
        assert_eq!(
            (email.role.clone(), email.name.as_str()),
            (Role::TextField, "Email")
        );
        assert_eq!(email.value.as_deref(), Some("a@b.c"));
        assert!(email.states.focused && email.states.focusable && email.states.editable);
        assert_eq!(email.bounds.unwrap().height, 24.5);
        assert_eq!(email.facts.dom_id.as_deref(), Some("email"));
        assert_eq!(email.facts.input_type, Some(InputType::Email));
        assert_eq!(email.facts.extra["tag"], "input");
        assert_eq!(
            email.handle,
            Some(NodeHandle::Scan {
                frame: frame(),
                key: 3
            })
        );

        assert_eq!(n[3].role, Role::PasswordField);
        assert_eq!(n[4].states.selected, Some(false));
        assert_eq!(n[5].states.selected, Some(true));
        assert_eq!(n[5].states.expanded, None);
        assert_eq!(
            (n[6].kind, n[6].role.clone()),
            (Kind::Text, Role::StaticText)
        );
        assert_eq!(n[6].name, "Sign up");
    }

    #[test]
    fn a_record_guard_is_what_a_one_node_read_gives() {
        let r = decode(PAGE, &frame()).unwrap();
        let read = |json: &str| serde_json::from_str::<Read>(json).unwrap().guard();
        let n = &r.tree.nodes;
        assert_eq!(
            read(r#"["textbox","Email","a@b.c",false,null,null]"#),
            n[2].guard
        );
        assert_eq!(
            read(r#"["checkbox","I accept","",false,false,null]"#),
            n[4].guard
        );
        assert_eq!(
            read(r#"["button","Sign up","",false,true,null]"#),
            n[5].guard
        );
        assert_eq!(
            read(r#"["StaticText","Sign up","",false,null,null]"#),
            n[6].guard
        );
        assert_eq!(
            read(r#"["RootWebArea","Sign up","",false,null,null]"#),
            n[0].guard
        );
        // A change a person would notice changes the guard.
        assert_ne!(
            read(r#"["checkbox","I accept","",false,true,null]"#),
            n[4].guard
        );
    }

    #[test]
    fn a_generic_element_has_the_empty_role_string() {
        let json = r#"{"w":[1,1],"e":2,"o":0,"t":true,"u":"","cv":0,"rev":1,"r":[
            {"k":1,"r":"RootWebArea"},{"p":0,"k":9,"g":"div","f":512}]}"#;
        let r = decode(json, &frame()).unwrap();
        assert!(r.truncated);
        let div = &r.tree.nodes[1];
        assert_eq!(div.role, Role::Generic);
        assert!(div.states.clickable);
        assert_eq!(div.guard, guard_of("", "", None, false, None, None));
    }

    #[test]
    fn malformed_replies_are_errors() {
        let forward = r#"{"w":[1,1],"e":1,"o":0,"t":false,"u":"","cv":0,"rev":1,"r":[{"k":1},{"p":1,"k":2}]}"#;
        assert!(decode(forward, &frame())
            .unwrap_err()
            .to_string()
            .contains("parent 1"));
        let orphan =
            r#"{"w":[1,1],"e":1,"o":0,"t":false,"u":"","cv":0,"rev":1,"r":[{"k":1},{"k":2}]}"#;
        assert!(decode(orphan, &frame()).is_err());
        let unknown =
            r#"{"w":[1,1],"e":1,"o":0,"t":false,"u":"","cv":0,"rev":1,"r":[{"k":1,"zz":1}]}"#;
        assert!(decode(unknown, &frame()).is_err());
    }

    #[test]
    fn an_unchanged_page_answers_with_the_revision_it_kept() {
        match decoded(r#"{"same":12}"#, &frame()).unwrap() {
            Scanned::Same { revision, .. } => assert_eq!(revision, 12),
            Scanned::Fresh(_) => panic!("decoded as a fresh scan"),
        }
        assert!(decoded(r#"{"same":12,"r":[]}"#, &frame()).is_err());
        match decoded(PAGE, &frame()).unwrap() {
            Scanned::Fresh(r) => assert_eq!(r.revision, 7),
            Scanned::Same { .. } => panic!("decoded as unchanged"),
        }
    }

    #[test]
    fn options_serialize_as_the_page_reads_them() {
        let json = serde_json::to_string(&ScanOptions::default()).unwrap();
        assert_eq!(json, r#"{"margin":0.5,"max":5000,"textBounds":true}"#);
        let since = ScanOptions {
            since: Some(3),
            ..ScanOptions::default()
        };
        let json = serde_json::to_string(&since).unwrap();
        assert_eq!(
            json,
            r#"{"margin":0.5,"max":5000,"textBounds":true,"since":3}"#
        );
    }
}
