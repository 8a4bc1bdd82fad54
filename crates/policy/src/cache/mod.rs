//! The selector cache tier: a finished subtask's decisions, stored as stable selectors
//! and replayed with zero model calls on a matching subtask; a selector that no longer
//! matches self-heals by edit distance over live labels, or the replay falls through to
//! the next tier and the entry is evicted after repeated failures.

mod recorder;
mod replay;
mod selector;
mod store;

pub use recorder::Recorder;
pub use replay::{Replay, ReplayStep};
pub use selector::{Match, Selector, HEAL_THRESHOLD};
pub use store::{CacheError, CacheKey, CachedStep, Entry, SelectorCache, EVICT_AFTER_FAILURES};
