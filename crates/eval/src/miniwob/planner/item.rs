//! Templates that say which item of a list holds the click's target, by a word the item
//! shows: `Find the email by X and click …`, `For the user X, click …`, `Find X in the
//! contact book and click on their …`. The click's criterion then names the item (the
//! runtime checks that the control it clicked sits in an item showing X), and a purpose
//! after the target that points back at it (`… to delete it`) is its reason, not a step.

use super::choose::click_target;
use super::utterance_tokens::Tok;
use super::words::{is_article, is_click_verb};
use super::Reading;
use arc_core::{Check, Items, Role};

/// Reads the item phrase before a click the templates already read.
pub fn named(toks: &[Tok], r: &mut Reading) {
    let Some((from, to, word)) = (0..toks.len()).find_map(|i| item_at(toks, i)) else {
        return;
    };
    // The item phrase leads to a click that was read: "…, click", "… and click".
    let mut k = to;
    if matches!(toks.get(k), Some(Tok::Punct(','))) || toks.get(k).is_some_and(|t| t.is_word("and"))
    {
        k += 1;
    }
    let clicks = toks
        .get(k)
        .and_then(Tok::word)
        .is_some_and(|w| is_click_verb(&w));
    if !clicks || !r.covers(k) {
        return;
    }
    // The click's criterion moves inside the item: a typed check, as English has no one
    // way to say "the control in the item showing X".
    let Some((target, said)) = r.last_click.clone() else {
        return;
    };
    let role = role(target.role.as_deref());
    if target.name.is_none() && role.is_none() {
        return;
    }
    r.criteria.retain(|c| *c != said);
    r.check(Check::Clicked {
        element: target.name,
        role,
        within: Some(Items {
            text: word,
            count: None,
            every: false,
        }),
        nth: None,
    });
    r.cover(from, k);
    purpose(toks, k, r);
}

/// `Click the "Like" button on all posts by @ann`, `… on 2 posts by @ann`: a quoted
/// control pressed in several items; the criterion says in how many, and the word they
/// show ("in every item showing", "in 2 items showing").
pub fn spread(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        if !toks[i].word().is_some_and(|w| is_click_verb(&w)) {
            continue;
        }
        let Some((target, end)) = click_target(toks, i + 1) else {
            continue;
        };
        let Some(name) = target.name else {
            continue;
        };
        let at = |k: usize| toks.get(k).and_then(Tok::word).unwrap_or_default();
        if !matches!(at(end).as_str(), "on" | "in" | "for") {
            continue;
        }
        let (count, every) = match at(end + 1).as_str() {
            "all" | "every" | "each" => (None, true),
            n => match count(n) {
                Some(n) => (Some(n as u32), false),
                None => continue,
            },
        };
        let mut j = end + 2;
        if is_article(&at(j)) {
            j += 1;
        }
        // The noun ("posts"), then who or what the items are by.
        if at(j).is_empty() || !matches!(at(j + 1).as_str(), "by" | "from" | "of") {
            continue;
        }
        let Some(who) = toks.get(j + 2).and_then(Tok::literal) else {
            continue;
        };
        r.check(Check::Clicked {
            element: Some(name),
            role: role(target.role.as_deref()),
            within: Some(Items {
                text: who.to_owned(),
                count,
                every,
            }),
            nth: None,
        });
        r.cover(i, j + 3);
    }
}

/// The role a target's kind names. An "icon" is how a glyph control looks (often a bare
/// span), not its role, so it names none.
fn role(kind: Option<&str>) -> Option<Role> {
    match Role::parse(kind?) {
        Role::Other(_) | Role::Image => None,
        r => Some(r),
    }
}

/// "3", "three": how many.
fn count(w: &str) -> Option<usize> {
    const WORDS: [&str; 10] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    w.parse()
        .ok()
        .or_else(|| WORDS.iter().position(|x| *x == w).map(|k| k + 1))
        .filter(|&n| n > 0)
}

/// `find|locate the <noun> by|from X`, `for the <noun> X,`, `find|locate X in the <noun…>`:
/// (start, end, X).
fn item_at(toks: &[Tok], i: usize) -> Option<(usize, usize, String)> {
    let w = toks.get(i)?.word()?;
    let lead = matches!(w.as_str(), "find" | "locate");
    if !(lead || w == "for") {
        return None;
    }
    let name = |k: usize| match toks.get(k) {
        Some(Tok::Word(x)) if x.chars().any(char::is_alphanumeric) => Some(x.clone()),
        Some(Tok::Quote(q)) => Some(q.clone()),
        _ => None,
    };
    let article = |k: usize| {
        toks.get(k)
            .and_then(Tok::word)
            .is_some_and(|a| is_article(&a))
    };
    // "the <noun> by X" / "the <noun> X,".
    if article(i + 1) && toks.get(i + 2).and_then(Tok::word).is_some() {
        let by = toks
            .get(i + 3)
            .is_some_and(|t| t.is_word("by") || t.is_word("from"));
        if lead && by {
            return Some((i, i + 5, name(i + 4)?));
        }
        if !lead && matches!(toks.get(i + 4), Some(Tok::Punct(','))) {
            return Some((i, i + 4, name(i + 3)?));
        }
        return None;
    }
    // "find X in the <noun…>": up to the "and" before the click.
    if lead && toks.get(i + 2).is_some_and(|t| t.is_word("in")) && article(i + 3) {
        let end = (i + 4..toks.len().min(i + 8)).find(|&k| toks[k].is_word("and"))?;
        return Some((i, end, name(i + 1)?));
    }
    None
}

/// `… to delete it`, `… to mark it as important`: after the click's target, a purpose that
/// refers back to it, up to the end of the sentence.
fn purpose(toks: &[Tok], click: usize, r: &mut Reading) {
    let Some(at) = (click..toks.len()).find(|&k| !r.covers(k)) else {
        return;
    };
    if !toks[at].is_word("to") {
        return;
    }
    let end = (at..toks.len())
        .find(|&k| matches!(toks[k], Tok::Punct('.' | '!' | '?' | ';')))
        .unwrap_or(toks.len());
    let refers = toks[at..end]
        .iter()
        .any(|t| t.is_word("it") || t.is_word("them"));
    if refers {
        r.cover(at, end);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{read, Reading, Utterance};
    use arc_core::{Check, Items, Role};

    fn reading(text: &str) -> Reading {
        read(&Utterance {
            text: text.to_owned(),
            fields: Default::default(),
        })
    }

    fn clicked(element: &str, role: Option<Role>, text: &str, count: Option<u32>) -> Check {
        Check::Clicked {
            element: Some(element.into()),
            role,
            within: Some(Items {
                text: text.into(),
                count,
                every: false,
            }),
            nth: None,
        }
    }

    fn every(c: Check) -> Check {
        match c {
            Check::Clicked {
                element,
                role,
                within: Some(i),
                nth,
            } => Check::Clicked {
                element,
                role,
                within: Some(Items { every: true, ..i }),
                nth,
            },
            c => c,
        }
    }

    #[test]
    fn the_item_a_click_is_in_becomes_part_of_its_check() {
        let r = reading("Find the email by Deva and click the star icon to mark it as important.");
        assert!(r.criteria.is_empty(), "{:?}", r.criteria);
        assert_eq!(r.checks, [clicked("star", None, "Deva", None)]);
        let r = reading("For the user @kenda, click on the \"Like\" button.");
        assert!(r.criteria.is_empty(), "{:?}", r.criteria);
        let Check::Clicked { within, role, .. } = &r.checks[0] else {
            panic!("{:?}", r.checks)
        };
        assert_eq!(*role, Some(Role::Button));
        assert_eq!(
            within.as_ref().map(|i| (i.text.as_str(), i.every)),
            Some(("@kenda", false))
        );
    }

    #[test]
    fn a_control_pressed_in_several_items_says_how_many() {
        let r = reading("Click the \"Like\" button on all posts by @ann and then click Submit.");
        assert_eq!(r.criteria, ["\"Submit\" has been clicked"]);
        assert_eq!(
            r.checks,
            [every(clicked("Like", Some(Role::Button), "@ann", None))]
        );
        let r = reading("Click the \"Share\" button on 3 posts by @ann and then click Submit.");
        assert_eq!(
            r.checks,
            [clicked("Share", Some(Role::Button), "@ann", Some(3))]
        );
        let r = reading("Click the \"Share\" button on 1 post by @ann and then click Submit.");
        assert_eq!(
            r.checks,
            [clicked("Share", Some(Role::Button), "@ann", Some(1))]
        );
    }

    #[test]
    fn a_click_without_an_item_is_unchanged() {
        let r = reading("Click on the \"Like\" button.");
        assert_eq!(r.criteria, ["the \"Like\" button has been clicked"]);
        assert!(r.checks.is_empty());
    }
}
