//! The one normalization of a label, so the risk gate, the grounding and the cache read a
//! name alike: NFKC (fullwidth and compatibility forms fold to plain letters), format
//! characters (soft hyphen, zero-width space/joiner, bidi controls) dropped, lower-cased,
//! letters and digits of any script kept and every other run one space:
//! "De\u{AD}lete-account!" → "delete account". Case, punctuation and spacing never decide
//! a match; words do.
//!
//! The gate folds look-alikes on top (combining marks, confusable skeletons): folding them
//! here would merge "カス" and "ガス" for the grounding. Kept allocation-light: one decision
//! normalizes hundreds of labels.

use unicode_normalization::UnicodeNormalization;

/// Appends the words of `raw` to `out`, one space between them (see the module).
pub fn normalize_into(raw: &str, out: &mut String) {
    let start = out.len();
    let mut gap = false;
    let mut push = |c: char, out: &mut String| {
        if c.is_alphanumeric() {
            if gap && out.len() > start {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        } else {
            gap = true;
        }
    };
    if raw.is_ascii() {
        // NFKC and the format characters leave ASCII as it is.
        for c in raw.chars() {
            push(c.to_ascii_lowercase(), out);
        }
    } else {
        for c in raw.chars().filter(|&c| !is_format(c)).nfkc() {
            for l in c.to_lowercase() {
                push(l, out);
            }
        }
    }
}

pub fn normalize(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    normalize_into(raw, &mut out);
    out
}

/// A whole name or quote, normalized: a name made only of symbols ("★★", "→") keeps its
/// symbols (folded alike), space-separated where the raw text was; dropping them would
/// leave every such control named nothing, all tied. (Not for words one by one: a "›"
/// between two words is a separator.)
pub fn normalize_name_into(raw: &str, out: &mut String) {
    let start = out.len();
    normalize_into(raw, out);
    if out.len() == start {
        symbols_into(raw, out, start);
    }
}

pub fn normalize_name(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    normalize_name_into(raw, &mut out);
    out
}

/// The symbols of a name without letters or digits, runs split at whitespace, appended
/// to `out` from `start` (a shared buffer's earlier names are not this name's words).
fn symbols_into(raw: &str, out: &mut String, start: usize) {
    let folded: String = raw
        .chars()
        .filter(|&c| !is_format(c))
        .nfkc()
        .flat_map(char::to_lowercase)
        .collect();
    for run in folded.split_whitespace() {
        if out.len() > start && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push_str(run);
    }
}

/// Unicode general category Cf (format characters: invisible, they change no letter).
pub fn is_format(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("De\u{AD}lete-account!", "delete account")]
    #[case("  Sign\u{A0}up  ", "sign up")]
    #[case("Ｄｅｌｅｔｅ", "delete")]
    #[case("De\u{200B}lete", "delete")]
    #[case("Ｓave  ›  Next", "save next")]
    #[case("カス", "カス")]
    #[case("★★", "")]
    fn words(#[case] raw: &str, #[case] want: &str) {
        assert_eq!(normalize(raw), want);
    }

    #[rstest]
    #[case("★★", "★★")]
    #[case("★ \u{200B}→", "★ →")]
    #[case("Next ›", "next")]
    fn names(#[case] raw: &str, #[case] want: &str) {
        assert_eq!(normalize_name(raw), want);
    }
}
