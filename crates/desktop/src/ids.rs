//! Element ids bound to (bus name, object path) for the session: an id never rebinds to
//! another accessible object, and the same object keeps its id across observations.

use std::collections::HashMap;
use std::sync::Arc;

/// One accessible object on the bus.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjRef {
    pub bus: Arc<str>,
    pub path: Arc<str>,
}

/// Most ids a session hands out: a long run on a churning app must not grow without bound.
const MAX_IDS: usize = 200_000;

#[derive(Default)]
pub struct Ids {
    by_obj: HashMap<ObjRef, u32>,
    next: u32,
}

impl Ids {
    /// The id of `obj`, assigned on first sight (`a1`, `a2`, …).
    pub fn id(&mut self, obj: &ObjRef) -> String {
        if self.by_obj.len() >= MAX_IDS && !self.by_obj.contains_key(obj) {
            // Forget everything rather than grow: old ids then miss, i.e. read as stale.
            self.by_obj.clear();
        }
        let n = *self.by_obj.entry(obj.clone()).or_insert_with(|| {
            self.next += 1;
            self.next
        });
        format!("a{n}")
    }
}
