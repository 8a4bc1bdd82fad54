//! The risk gate, the grounding and the cache read a label alike: for any two labels,
//! the gate's words, the grounding's normalized name and the cache's role-and-name match
//! agree on whether they are the same (the gate's look-alike folds come on top).

use crate::cache::{Match, Selector};
use arc_core::name::normalize_name;
use arc_core::{ActionKind, Element, Role, Snapshot};
use proptest::prelude::*;

/// Pieces a label is made of: case, punctuation, whitespace (NBSP, tabs), invisible
/// format characters, compatibility forms, combining marks, other scripts.
const PIECES: &[&str] = &[
    "save",
    "Save",
    "SAVE",
    "ſave",
    "Ｓａｖｅ",
    "next",
    "Next",
    "ﬁle",
    "file",
    "2",
    "²",
    "١",
    "café",
    "cafe\u{301}",
    "cafe",
    "Émile",
    "İ",
    "i",
    "е",
    "カス",
    "ガス",
    "カ\u{3099}ス",
    "★",
    "→",
    "›",
    ">",
    "-",
    "–",
    "!",
    "?",
    ".",
    ",",
    "'",
    "’",
    "@",
    "_",
    "(",
    ")",
    " ",
    "  ",
    "\u{A0}",
    "\t",
    "\n",
    "\u{200B}",
    "\u{200D}",
    "\u{AD}",
    "\u{FEFF}",
    "\u{202E}",
    "\u{301}",
];

/// A label of a few pieces, and a second one: the same pieces re-cased, re-spaced and
/// sprinkled with invisibles half the time (so equal labels come up), any pieces else.
fn pair() -> impl Strategy<Value = (String, String)> {
    let label = || prop::collection::vec(prop::sample::select(PIECES), 0..6);
    (label(), label(), any::<bool>(), any::<u64>()).prop_map(|(a, b, related, seed)| {
        let first = a.concat();
        let second = if related {
            a.iter()
                .enumerate()
                .map(|(i, p)| match (seed >> (i * 3)) & 7 {
                    0 => p.to_uppercase(),
                    1 => format!("{p}\u{200B}"),
                    2 => format!("\u{A0}{p}"),
                    3 => fullwidth(p),
                    _ => (*p).to_owned(),
                })
                .collect()
        } else {
            b.concat()
        };
        (first, second)
    })
}

/// The piece with its ASCII lower-case letters written fullwidth ("ｓａｖｅ").
fn fullwidth(piece: &str) -> String {
    piece
        .chars()
        .map(|c| match c {
            'a'..='z' => char::from_u32(c as u32 - 'a' as u32 + 0xFF41).unwrap_or(c),
            _ => c,
        })
        .collect()
}

fn button(name: &str) -> Element {
    let mut e = Element::new("b", Role::Button, name);
    e.actions = [ActionKind::Click].into();
    e
}

/// Whether the cache finds a control recorded under `recorded` by its role and name on a
/// page where it is named `live`.
fn cache_same(recorded: &str, live: &str) -> bool {
    let before = Snapshot::new("app", "w", vec![button(recorded)]);
    let selector = Selector::of(&before.elements[0], &before);
    let after = Snapshot::new("app", "w", vec![button(live)]);
    matches!(
        selector.resolve(&after, Some(ActionKind::Click)),
        Some((_, Match::RoleAndName, _))
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn the_gate_the_grounding_and_the_cache_agree_on_which_labels_are_the_same(
        (a, b) in pair()
    ) {
        let gate = arc_core::risk::label_words(&a) == arc_core::risk::label_words(&b);
        let grounding = normalize_name(&a) == normalize_name(&b);
        let cache = cache_same(&a, &b);
        prop_assert_eq!(gate, grounding, "gate vs grounding on {:?} / {:?}", a, b);
        prop_assert_eq!(cache, grounding, "cache vs grounding on {:?} / {:?}", a, b);
    }
}
