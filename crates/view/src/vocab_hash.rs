//! The hash of the o200k vocabulary table: shared by `build.rs`, which lays the table
//! out, and `tokens.rs`, which probes it, so both agree by construction.

/// Slots of the open-addressed table: a power of two, ~38% full for ~200k tokens, so
/// probes stay short.
pub const SLOTS: usize = 1 << 19;

/// FNV-1a, 64-bit: tokens are short byte strings; this needs no seed and no crate.
pub fn slot_of(bytes: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h as usize) & (SLOTS - 1)
}
