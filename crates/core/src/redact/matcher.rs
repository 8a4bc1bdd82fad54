//! Finding a secret however a text encodes it. Each character of the secret may appear
//! raw, percent-escaped (either hex case), as `+` for a space, or as an HTML entity —
//! independently, because encoders disagree about which characters to escape
//! (`encodeURIComponent` leaves `'` raw, form encoding does not). Matching starts at every
//! char boundary, so no earlier text can swallow a secret's first escape.

/// The longest entity we decode, `&` and `;` included (`&#x10FFFF;`).
const MAX_ENTITY: usize = 10;

/// Work allowed per start position, in matched units per secret byte. Only texts built to
/// branch (`%25`/`&amp;` runs against a secret full of `%`/`&`) reach it; then the span
/// the secret could occupy is covered anyway: over-redacting is the safe side.
const STEPS_PER_BYTE: usize = 16;

/// Calls `found(start, end)` for every `[start, end)` of `text` that spells `needle`,
/// overlapping occurrences included.
pub(super) fn each_occurrence(text: &str, needle: &str, mut found: impl FnMut(usize, usize)) {
    let (hay, pat) = (text.as_bytes(), needle.as_bytes());
    if pat.is_empty() {
        return;
    }
    for (i, c) in text.char_indices() {
        let starts = c as u32 == pat[0] as u32 || matches!(c, '%' | '+' | '&') || hay[i] == pat[0];
        if !starts {
            continue;
        }
        let mut budget = STEPS_PER_BYTE * pat.len();
        match walk(hay, i, pat, 0, &mut budget) {
            Some(end) => found(i, snap(text, end)),
            None if budget == 0 => {
                found(i, snap(text, (i + MAX_ENTITY * pat.len()).min(text.len())))
            }
            None => {}
        }
    }
}

fn snap(text: &str, mut end: usize) -> usize {
    while !text.is_char_boundary(end) {
        end += 1;
    }
    end
}

/// Where a match of `pat[k..]` starting at `hay[p]` ends, trying each reading of the unit
/// at `p` (a depth-first search; branches only where two readings give the same byte).
fn walk(hay: &[u8], p: usize, pat: &[u8], k: usize, budget: &mut usize) -> Option<usize> {
    if k == pat.len() {
        return Some(p);
    }
    if p >= hay.len() || *budget == 0 {
        return None;
    }
    *budget -= 1;
    let want = pat[k];
    let b = hay[p];
    if b == b'%' {
        if let Some(d) = hex_pair(hay.get(p + 1..p + 3)) {
            if d == want {
                if let Some(end) = walk(hay, p + 3, pat, k + 1, budget) {
                    return Some(end);
                }
            }
        }
    }
    if b == b'+' && want == b' ' {
        return walk(hay, p + 1, pat, k + 1, budget);
    }
    if b == b'&' {
        if let Some((c, len)) = entity(&hay[p..]) {
            let mut buf = [0u8; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            if pat[k..].starts_with(bytes) {
                if let Some(end) = walk(hay, p + len, pat, k + bytes.len(), budget) {
                    return Some(end);
                }
            }
        }
    }
    if b == want {
        return walk(hay, p + 1, pat, k + 1, budget);
    }
    None
}

fn hex_pair(pair: Option<&[u8]>) -> Option<u8> {
    let pair = pair?;
    let digit = |b: u8| (b as char).to_digit(16);
    Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
}

/// The char an entity at the start of `s` stands for, and the entity's length.
fn entity(s: &[u8]) -> Option<(char, usize)> {
    let semi = s.iter().take(MAX_ENTITY).position(|&b| b == b';')?;
    let body = std::str::from_utf8(&s[1..semi]).ok()?;
    let c = match body {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        _ => {
            let num = body.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)?
        }
    };
    Some((c, semi + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str, needle: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        each_occurrence(text, needle, |a, b| out.push((a, b)));
        out
    }

    #[test]
    fn every_reading_of_every_char() {
        assert_eq!(spans("aaaa", "aa"), [(0, 2), (1, 3), (2, 4)]);
        assert_eq!(spans("x=a+b%2Fc", "a b/c"), [(2, 9)]);
        assert_eq!(spans("a%20b%2fc", "a b/c"), [(0, 9)]);
        assert_eq!(spans("a+b", "a+b"), [(0, 3)]);
        assert_eq!(spans("%a7%C3%A97", "é7"), [(3, 10)]);
        assert_eq!(spans("x&amp;y&#60;", "&y<"), [(1, 12)]);
        assert_eq!(spans("%25", "%25"), [(0, 3)]);
        assert_eq!(spans("%25", "%"), [(0, 3)]);
    }

    #[test]
    fn a_branching_flood_is_bounded_and_covered() {
        let text = "%25".repeat(2_000);
        let needle = "%".repeat(200);
        let mut n = 0;
        each_occurrence(&text, &needle, |_, _| n += 1);
        assert!(n > 0);
    }
}
