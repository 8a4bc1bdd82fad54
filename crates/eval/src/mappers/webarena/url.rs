//! WebArena's `url_match` ("GOLD in PRED", `evaluation_harness/evaluators.py`) as `url`
//! assertions. Upstream strips a trailing `/` off both URLs, then passes when
//! - some reference's host+path (alternatives joined by `" |OR| "`) is a substring of the
//!   page's host+path, and
//! - for every query key of the references (all alternatives pooled), the page's query has
//!   one of their values for it (values compared decoded, as `parse_qs` does).
//!
//! Both become regexes over `location.href`: one for the host+path, one per query key.
//! Encodings are matched both ways: a space as `+` or `%20`, any other reserved or
//! non-ASCII character literally or percent-encoded (hex in either case).

use crate::assert::{Assertion, Pattern, TextMatch};
use regex::Regex;

/// The assertions, or why the reference cannot be read.
pub(super) fn assertions(reference: &str) -> Result<Vec<Assertion>, String> {
    let mut bases = Vec::new();
    // key → accepted values, in first-seen order.
    let mut queries: Vec<(String, Vec<String>)> = Vec::new();
    for alternative in reference.split(" |OR| ") {
        let url = alternative.trim().trim_end_matches('/');
        let (_, rest) = url
            .split_once("://")
            .ok_or_else(|| format!("reference URL {url:?} has no scheme"))?;
        let end = rest.find(['?', '#']).unwrap_or(rest.len());
        bases.push(regex::escape(&rest[..end]));
        let query = rest[end..]
            .strip_prefix('?')
            .map(|q| q.split('#').next().unwrap_or_default())
            .unwrap_or_default();
        for (k, v) in parse_qs(query) {
            match queries.iter_mut().find(|(key, _)| *key == k) {
                Some((_, values)) if !values.contains(&v) => values.push(v),
                Some(_) => {}
                None => queries.push((k, vec![v])),
            }
        }
    }
    // Everything between "scheme://" and the first ? or # is the host+path.
    let mut out = vec![url_matches(format!(
        "^[A-Za-z][A-Za-z0-9+.-]*://[^?#]*(?:{})",
        bases.join("|")
    ))?];
    for (key, values) in queries {
        let values: Vec<String> = values.iter().map(|v| encoded(v)).collect();
        out.push(url_matches(format!(
            r"^[^?#]*\?(?:[^#]*&)?{}=(?:{})(?:[&#]|$)",
            encoded(&key),
            values.join("|")
        ))?);
    }
    Ok(out)
}

fn url_matches(pattern: String) -> Result<Assertion, String> {
    Regex::new(&pattern)
        .map(|r| Assertion::Url(TextMatch::Matches(Pattern(r))))
        .map_err(|e| format!("cannot build the URL pattern: {e}"))
}

/// Python's `parse_qs(query)` with its defaults: `&`-separated, pairs without `=` or with
/// an empty value skipped, `+` a space, percent-escapes decoded.
fn parse_qs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |j: usize| bytes.get(j).and_then(|b| (*b as char).to_digit(16));
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (hex(i + 1), hex(i + 2)) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A regex matching `decoded` in a query however it was encoded. Unreserved characters
/// (RFC 3986 §2.3) are matched literally only: browsers never escape them.
fn encoded(decoded: &str) -> String {
    let mut out = String::new();
    for c in decoded.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~') {
            out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
            continue;
        }
        let mut forms = Vec::new();
        if c == ' ' {
            forms.push(r"\+".to_owned());
        } else if !matches!(c, '&' | '#' | '+' | '%') {
            // These four mean something else when literal.
            forms.push(regex::escape(c.encode_utf8(&mut [0; 4])));
        }
        let mut escaped = String::new();
        for b in c.encode_utf8(&mut [0; 4]).bytes() {
            escaped.push('%');
            for nibble in [b >> 4, b & 0xf] {
                let d = char::from_digit(u32::from(nibble), 16).expect("a nibble");
                if d.is_ascii_digit() {
                    escaped.push(d);
                } else {
                    escaped.push_str(&format!("[{}{}]", d, d.to_ascii_uppercase()));
                }
            }
        }
        forms.push(escaped);
        out.push_str(&format!("(?:{})", forms.join("|")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(reference: &str, href: &str) -> bool {
        assertions(reference).unwrap().iter().all(|a| match a {
            Assertion::Url(m) => m.is_match(href),
            _ => unreachable!(),
        })
    }

    #[test]
    fn host_and_path_are_a_substring_of_the_page_host_and_path() {
        let r = "http://h:8023/byteblaze/dotfiles";
        assert!(matches(r, "http://h:8023/byteblaze/dotfiles"));
        assert!(matches(r, "http://h:8023/byteblaze/dotfiles/-/tree/main"));
        assert!(matches(r, "https://h:8023/byteblaze/dotfiles/"));
        assert!(!matches(r, "http://h:8023/byteblaze/dot"));
        // Only in the query or the fragment does not count.
        assert!(!matches(r, "http://h:8023/?next=h:8023/byteblaze/dotfiles"));
        assert!(!matches(r, "http://h:8023/#h:8023/byteblaze/dotfiles"));
    }

    #[test]
    fn alternatives_and_query_values_however_encoded() {
        let r = "http://h/issues/?label_name%5B%5D=help%20wanted&state=opened |OR| http://h/mrs";
        assert!(matches(
            r,
            "http://h/issues/?label_name[]=help+wanted&state=opened"
        ));
        assert!(matches(
            r,
            "http://h/issues/?state=opened&label_name%5b%5d=help%20wanted#x"
        ));
        assert!(matches(
            r,
            "http://h/mrs?state=opened&label_name[]=help%20wanted"
        ));
        assert!(!matches(r, "http://h/issues/?label_name[]=help+wanted"));
        assert!(!matches(
            r,
            "http://h/issues/?label_name[]=help&state=opened"
        ));
        assert!(!matches(
            r,
            "http://h/issues/?xstate=opened&label_name[]=help+wanted"
        ));
        assert!(!matches(
            r,
            "http://h/issues/#?state=opened&label_name[]=help+wanted"
        ));
    }

    #[test]
    fn decoding_follows_parse_qs() {
        assert_eq!(
            parse_qs("a=1&b=&c&d=x+y%2B%e2%82%ac&e=%zz"),
            [
                ("a".to_owned(), "1".to_owned()),
                ("d".to_owned(), "x y+€".to_owned()),
                ("e".to_owned(), "%zz".to_owned()),
            ]
        );
        assert!(assertions("h/no-scheme").unwrap_err().contains("no scheme"));
    }
}
