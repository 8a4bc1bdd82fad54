//! WebArena's `program_html` targets as `element_text` assertions, where one can say the
//! same thing: the page the run ended on (`url: "last"`), a locator of the form
//! `document.querySelector('<css>').<outerText|innerText|value|selectedIndex>`, no
//! `prep_actions`. Everything else is flagged with the reason.
//!
//! Upstream compares after `clean_answer` (trim, drop one pair of surrounding quotes,
//! lower-case): `exact_match` is equality, each `must_include` item a substring (one of its
//! `" |OR| "` alternatives). The patterns below are exactly that, case-insensitive; a
//! reference that itself starts or ends with a quote is flagged, since the quote-dropping
//! on the page's side cannot be mirrored by a pattern.

use super::format::{HtmlTarget, Lenient, RequiredContents};
use super::{flag, shape};
use crate::assert::{Assertion, Locator, Pattern, TextMatch, TextProperty};
use crate::mappers::{MappedCheck, Reason, Unsupported};
use regex::Regex;
use std::sync::LazyLock;

static QUERY_SELECTOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^document\.querySelector\(\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\)\.(outerText|innerText|value|selectedIndex)$"#,
    )
    .expect("valid regex")
});

pub(super) fn map(
    kind: String,
    raw: &serde_json::Value,
    target: &Lenient<HtmlTarget>,
) -> Result<MappedCheck, Unsupported> {
    let not = |reason: Reason| flag(&kind, reason, raw.clone());
    let target = match target {
        Lenient::Typed(t) => t,
        Lenient::Other(_) => {
            return Err(not(shape(
                &kind,
                "an object with url, locator, required_contents",
            )))
        }
    };
    if target.url != "last" {
        return Err(not(Reason::OtherPage {
            url: target.url.clone(),
        }));
    }
    if !target.prep_actions.is_empty() {
        return Err(not(Reason::PrepActions));
    }
    let locator = target.locator.trim();
    if locator.is_empty() {
        return Err(not(Reason::PageSource));
    }
    let Some(caps) = QUERY_SELECTOR.captures(locator) else {
        return Err(not(Reason::Script {
            locator: locator.to_owned(),
        }));
    };
    let selector = caps.get(1).or(caps.get(2)).map_or("", |m| m.as_str());
    if selector.trim().is_empty() {
        return Err(not(Reason::Script {
            locator: locator.to_owned(),
        }));
    }
    let property = match &caps[3] {
        "value" => TextProperty::Value,
        "selectedIndex" => TextProperty::SelectedIndex,
        // outerText reads as innerText.
        _ => TextProperty::Text,
    };
    let patterns = match &target.required_contents {
        Lenient::Typed(RequiredContents {
            exact_match: Some(text),
            must_include: None,
            other,
        }) if other.is_empty() => vec![exact(text)],
        Lenient::Typed(RequiredContents {
            exact_match: None,
            must_include: Some(items),
            other,
        }) if other.is_empty() && !items.is_empty() => items.iter().map(|i| includes(i)).collect(),
        _ => {
            return Err(not(shape(
                &format!("{kind}.required_contents"),
                "exactly one of exact_match (a string) or must_include (a non-empty list)",
            )))
        }
    };
    let mut assertions = Vec::new();
    for p in patterns {
        let text = p.map_err(|text| not(Reason::QuotedReference { text }))?;
        assertions.push(Assertion::ElementText {
            target: Locator::Css(selector.to_owned()),
            property,
            text,
        });
    }
    Ok(MappedCheck { kind, assertions })
}

/// Python's `clean_answer` minus the lower-casing (the patterns ignore case): trimmed,
/// one pair of surrounding quotes dropped.
fn clean(s: &str) -> &str {
    let t = s.trim();
    for q in ['\'', '"'] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return &t[1..t.len() - 1];
        }
    }
    t
}

/// A cleaned reference, or itself as the error when an edge quote makes it unmappable.
fn cleaned(reference: &str) -> Result<&str, String> {
    let c = clean(reference);
    if c.starts_with(['\'', '"']) || c.ends_with(['\'', '"']) {
        return Err(c.to_owned());
    }
    Ok(c)
}

/// `clean(page) == clean(reference)`, ignoring case.
fn exact(reference: &str) -> Result<TextMatch, String> {
    let r = regex::escape(cleaned(reference)?);
    Ok(pattern(&format!(r#"(?i)^\s*(?:{r}|'{r}'|"{r}")\s*$"#)))
}

/// `clean(reference) in clean(page)` for one of the `" |OR| "` alternatives, ignoring case.
fn includes(item: &str) -> Result<TextMatch, String> {
    let alternatives = item
        .split(" |OR| ")
        .map(|a| cleaned(a).map(regex::escape))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(pattern(&format!("(?i)(?:{})", alternatives.join("|"))))
}

fn pattern(p: &str) -> TextMatch {
    // Built from escaped text only: always a valid regex.
    TextMatch::Matches(Pattern(
        Regex::new(p).expect("escaped text is a valid regex"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_includes_mirror_clean_answer() {
        let e = exact(" Quest Lumaflex™ Band ").unwrap();
        for ok in [
            "quest lumaflex™ band",
            "  'Quest Lumaflex™ Band' ",
            "\"QUEST LUMAFLEX™ BAND\"",
        ] {
            assert!(e.is_match(ok), "{ok}");
        }
        for no in [
            "Quest Lumaflex™ Band, Sprite",
            "' Quest Lumaflex™ Band'",
            "Quest",
        ] {
            assert!(!e.is_match(no), "{no}");
        }
        let i = includes("Impulse Duffle |OR| Overnight Duffle").unwrap();
        assert!(i.is_match("Top: overnight duffle (12)"));
        assert!(!i.is_match("Duffle"));
        // Regex characters in a reference are literal.
        assert!(includes("$25.00 (x2)")
            .unwrap()
            .is_match("Total $25.00 (x2)"));
        assert!(!includes("a.c").unwrap().is_match("abc"));
        assert_eq!(exact("'\"quoted\"'").unwrap_err(), "\"quoted\"");
    }
}
