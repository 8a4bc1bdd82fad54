//! Token counting: the budget's unit is an o200k_base token (the GPT-4o / o-series
//! vocabulary), so "1,200 tokens" means what a model provider bills, not a guess.
//!
//! tiktoken's algorithm (split by the o200k pattern, then byte-pair merge each piece by
//! rank), counting only, over the vocabulary `build.rs` lays out as static tables: they
//! are read in place (file-backed pages, ~5 MB at most), where tiktoken-rs's `CoreBPE`
//! held ~48 MB on the heap per process. `tests/it/tokens.rs` checks every count
//! against tiktoken-rs.

#[path = "vocab_hash.rs"]
mod vocab_hash;

use fancy_regex::Regex;
use std::collections::BinaryHeap;
use std::sync::OnceLock;
use vocab_hash::{slot_of, SLOTS};

static ARENA: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_arena.bin"));
static OFFSETS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_offsets.bin"));
static RANKS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_ranks.bin"));
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_table.bin"));
const PATTERN: &str = include_str!(concat!(env!("OUT_DIR"), "/o200k_pattern.txt"));

type Rank = u32;

static SPLIT: OnceLock<Regex> = OnceLock::new();

fn split() -> &'static Regex {
    SPLIT.get_or_init(|| Regex::new(PATTERN).expect("the o200k split pattern compiles"))
}

/// Compiles the split pattern now rather than on the first [`count_tokens`].
pub fn warm_up() {
    split();
}

fn word(table: &[u8], i: usize) -> u32 {
    let b = &table[i * 4..i * 4 + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// The rank of the token spelled by `bytes`, if the vocabulary has one.
fn rank(bytes: &[u8]) -> Option<Rank> {
    let mut slot = slot_of(bytes);
    // The table is never full: an empty slot ends every probe well before this bound.
    for _ in 0..SLOTS {
        let entry = word(TABLE, slot);
        if entry == 0 {
            return None;
        }
        let i = (entry - 1) as usize;
        let (start, end) = (word(OFFSETS, i) as usize, word(OFFSETS, i + 1) as usize);
        if &ARENA[start..end] == bytes {
            return Some(word(RANKS, i));
        }
        slot = (slot + 1) & (SLOTS - 1);
    }
    None
}

/// The number of o200k_base tokens in `text`, special-token markers counted as plain
/// text (that is how a provider counts text a page put on screen).
pub fn count_tokens(text: &str) -> usize {
    let mut n = 0;
    let mut end = 0;
    for piece in split().find_iter(text) {
        let Ok(piece) = piece else {
            // The matcher gave up (its backtrack limit): count the rest as one token per
            // byte, an upper bound, so a budget is never exceeded.
            return n + text.len() - end;
        };
        end = piece.end();
        let bytes = piece.as_str().as_bytes();
        n += if bytes.len() < 2 || rank(bytes).is_some() {
            1
        } else {
            merged_len(bytes)
        };
    }
    n
}

#[derive(Eq, PartialEq)]
struct Merge {
    start: usize,
    rank: Rank,
}

impl Ord for Merge {
    /// The lowest rank first, then the leftmost (tiktoken's order).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .rank
            .cmp(&self.rank)
            .then_with(|| other.start.cmp(&self.start))
    }
}

impl PartialOrd for Merge {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A part of the piece: it spans `start..end` (its index is `start`), and could merge
/// with the next part into `start..next_end` at `next_rank`.
struct Part {
    prev: usize,
    end: usize,
    next_end: usize,
    next_rank: Rank,
}

/// Tokens of a piece (≥ 2 bytes) after byte-pair merging: tiktoken's heap merge (the
/// one it uses for long pieces; both of its merges give the same tokens), counted.
fn merged_len(piece: &[u8]) -> usize {
    let none = Rank::MAX;
    let mut parts = Vec::with_capacity(piece.len());
    let mut heap = BinaryHeap::with_capacity(piece.len());
    parts.push(Part {
        prev: usize::MAX,
        end: 1,
        next_end: 2,
        next_rank: none,
    });
    for i in 0..piece.len() - 1 {
        if let Some(r) = rank(&piece[i..i + 2]) {
            heap.push(Merge { start: i, rank: r });
            parts[i].next_rank = r;
        }
        parts.push(Part {
            prev: i,
            end: i + 2,
            next_end: i + 3,
            next_rank: none,
        });
    }
    let potential =
        |parts: &mut Vec<Part>, heap: &mut BinaryHeap<Merge>, start: usize, next_end: usize| {
            parts[start].next_end = next_end;
            parts[start].next_rank = none;
            if next_end <= piece.len() {
                if let Some(r) = rank(&piece[start..next_end]) {
                    heap.push(Merge { start, rank: r });
                    parts[start].next_rank = r;
                }
            }
        };
    // Every merge removes a part, so the heap empties: at most one pop per push.
    while let Some(left) = heap.pop() {
        if left.rank != parts[left.start].next_rank {
            continue; // invalidated by a neighbour's merge
        }
        let left_start = left.start;
        let right_start = parts[left_start].end;
        let right_end = parts[left_start].next_end;
        let right_next_end = parts[right_start].next_end;
        parts[left_start].end = right_end;
        potential(&mut parts, &mut heap, left_start, right_next_end);
        if right_end < parts.len() {
            parts[right_end].prev = left_start;
        }
        if left_start > 0 {
            let prev_start = parts[left_start].prev;
            potential(&mut parts, &mut heap, prev_start, right_end);
        }
        parts[right_start].next_rank = none;
    }
    let mut count = 0;
    let mut i = 0;
    while i < parts.len() {
        count += 1;
        i = parts[i].end;
    }
    count
}
