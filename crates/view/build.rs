//! Lays the o200k_base vocabulary out as static tables (`OUT_DIR`): a byte arena, each
//! token's offset and rank, and an open-addressed hash table of token indices. The
//! tokenizer then reads them in place. tiktoken-rs's `CoreBPE` keeps the vocabulary on
//! the heap three times (encoder, decoder, sorted list): ~48 MB resident per process,
//! which was most of a host's memory (`arc-cua bench host`, docs/EVAL.md).

#[path = "src/vocab_hash.rs"]
mod vocab_hash;

use std::collections::HashSet;
use std::path::Path;

/// Above every rank of o200k_base (ordinary ranks end at 199,997; specials follow).
const RANK_CEILING: u32 = 202_000;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/vocab_hash.rs");
    let bpe = tiktoken_rs::o200k_base().expect("the embedded o200k_base vocabulary");
    // Special tokens are not ordinary text: `encode_ordinary` never yields them.
    let special: HashSet<u32> = bpe
        .special_tokens()
        .into_iter()
        .flat_map(|s| bpe.encode_with_special_tokens(s))
        .collect();
    let mut arena = Vec::new();
    let mut offsets = vec![0u32];
    let mut ranks = Vec::new();
    let mut table = vec![0u32; vocab_hash::SLOTS];
    for rank in 0..RANK_CEILING {
        if special.contains(&rank) {
            continue;
        }
        let Ok(bytes) = bpe.decode_bytes(&[rank]) else {
            continue;
        };
        let index = ranks.len() as u32;
        let mut slot = vocab_hash::slot_of(&bytes);
        while table[slot] != 0 {
            slot = (slot + 1) & (vocab_hash::SLOTS - 1);
        }
        table[slot] = index + 1;
        arena.extend_from_slice(&bytes);
        offsets.push(arena.len() as u32);
        ranks.push(rank);
    }
    assert!(
        ranks.len() > 199_000,
        "o200k_base has ~200k tokens, got {}",
        ranks.len()
    );
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    let out = Path::new(&out);
    let words = |v: &[u32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(out.join("o200k_arena.bin"), &arena).unwrap();
    std::fs::write(out.join("o200k_offsets.bin"), words(&offsets)).unwrap();
    std::fs::write(out.join("o200k_ranks.bin"), words(&ranks)).unwrap();
    std::fs::write(out.join("o200k_table.bin"), words(&table)).unwrap();
    std::fs::write(
        out.join("o200k_pattern.txt"),
        tiktoken_rs::O200K_BASE_PAT_STR,
    )
    .unwrap();
}
