//! Every count `count_tokens` gives is tiktoken-rs's own (`encode_ordinary`), on text a
//! page shows: words, numbers, punctuation, whitespace runs, scripts, emoji, markers of
//! special tokens, and pieces long enough for every merge path.

use arc_view::count_tokens;
use proptest::prelude::*;
use std::sync::OnceLock;

fn oracle(text: &str) -> usize {
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().unwrap())
        .encode_ordinary(text)
        .len()
}

#[test]
fn counts_are_tiktokens_on_page_text() {
    let cases = [
        "",
        "a",
        " ",
        "Sign up for a Pro account",
        "button \"Sign up\"  [e12] textbox \"Email\" = ada@example.com",
        "Total: $1,234,567.89 — 12/31/2026 at 23:59:59 (UTC+01:00)",
        "  leading\tand   trailing  \n\n\r\n  ",
        "don't WON'T they're I'M we'll you've he'd",
        "日本語のテキストと中文文本和한국어 텍스트",
        "مرحبا بالعالم — שלום עולם",
        "emoji 👩‍👩‍👧‍👦 🇫🇷 ✔︎ and combining é ñ",
        "<|endoftext|> <|endofprompt|> <|fim_prefix|>",
        "https://example.com/a/b?c=d&e=f#g",
        "camelCaseIdentifierWithNumbers123456789",
    ];
    for text in cases {
        assert_eq!(count_tokens(text), oracle(text), "{text:?}");
    }
    // Long pieces: one word of many bytes (the merge of a piece not in the vocabulary),
    // digits, punctuation and whitespace runs.
    for long in [
        "a".repeat(5_000),
        "xq".repeat(700),
        "Supercalifragilistic".repeat(40),
        "9".repeat(1_001),
        "!?".repeat(600),
        " ".repeat(2_000) + "x",
        "ééé".repeat(300),
    ] {
        assert_eq!(count_tokens(&long), oracle(&long), "{} bytes", long.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn counts_are_tiktokens_on_any_text(text in "\\PC{0,200}") {
        prop_assert_eq!(count_tokens(&text), oracle(&text));
    }

    #[test]
    fn counts_are_tiktokens_on_word_like_text(
        text in "([a-zA-Z]{1,30}|[0-9]{1,8}|[ \t\n]{1,4}|[.,;:!?'\"()\\-]{1,3}){0,60}"
    ) {
        prop_assert_eq!(count_tokens(&text), oracle(&text));
    }
}
