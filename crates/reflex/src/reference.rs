//! An input that names an item, not a field: `{"file": "Q3 report.pdf"}` beside "Archive
//! the Q3 report". Its key is a kind of item (file, order, task, member — the nouns
//! `stem::is_kind_noun` knows) and the page already shows its literal outside every
//! editable field, so there is nothing to type: the goal's words pick the item's row.
//! Any other key that grounds no field still hands back — a name for a form that is not
//! open yet must never count as placed. A checkbox's or switch's name is its label, not a
//! draft, so it shows an item ("Buy milk" beside its box); what a text field holds never does.

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{checkable, is_field};
use super::stem::is_kind_noun;
use super::text::{contains_phrase, normalize};
use arc_core::Scalar;
use std::collections::BTreeMap;

/// Whether the input under `key` with `literal` names an item the page shows.
pub fn shown(f: &Facts, key: &str, literal: &str) -> bool {
    let want = normalize(literal);
    names_item(key)
        && !want.is_empty()
        && (0..f.len()).any(|i| {
            f.els[i].visible
                && (!is_field(f, i) || checkable(&f.els[i].role))
                && contains_phrase(f.name(i), &want)
        })
}

/// Each reference the text puts right after a kind noun, with that noun: "issue 15",
/// "order number 1044" — a token with a digit, so a date or a count is never one.
pub fn after_kind_noun(norm: &str) -> Vec<(&str, &str)> {
    let w: Vec<&str> = norm.split(' ').filter(|w| !w.is_empty()).collect();
    w.iter()
        .enumerate()
        .filter(|(_, noun)| is_kind_noun(noun))
        .filter_map(|(k, &noun)| {
            let token = w[k + 1..]
                .iter()
                .find(|x| !matches!(**x, "number" | "no"))?;
            token
                .chars()
                .any(|c| c.is_ascii_digit())
                .then_some((noun, *token))
        })
        .collect()
}

/// Whether an input's key names a kind of item ("file", "order_number" → "number" is
/// not; "team_member" → "member" is).
pub fn names_item(key: &str) -> bool {
    let key = key.replace(['_', '-'], " ");
    key.split_whitespace().last().is_some_and(is_kind_noun)
}

/// The goal's intents, each told the items the inputs name: a literal that names an item
/// ("Q3 report.pdf") joins the words that pick the item's row, as if the goal had said
/// it ("Archive the file" with `{"file": "Q3 report.pdf"}`). Secrets name no item.
pub fn with_items(
    mut intents: Vec<Intent>,
    inputs: &BTreeMap<String, Scalar>,
    secret: impl Fn(&str) -> bool,
) -> Vec<Intent> {
    let named: Vec<String> = inputs
        .iter()
        .filter(|(k, _)| names_item(k) && !secret(k))
        .map(|(_, v)| normalize(&v.as_text()))
        .filter(|v| !v.is_empty())
        .collect();
    if named.is_empty() {
        return intents;
    }
    for it in &mut intents {
        it.said = format!("{} {}", it.said, named.join(" ")).into();
    }
    intents
}

#[cfg(test)]
mod tests {
    use super::after_kind_noun;

    #[test]
    fn a_reference_is_a_token_with_a_digit_after_a_kind_noun() {
        fn first(t: &str) -> Option<(&str, &str)> {
            after_kind_noun(t).first().copied()
        }
        assert_eq!(first("set issue 15 to in progress"), Some(("issue", "15")));
        assert_eq!(
            first("ship order number 1044 today"),
            Some(("order", "1044"))
        );
        assert_eq!(first("book a table for 4 on 2026 06 12"), None);
        assert_eq!(first("close the issue about safari"), None);
    }
}
