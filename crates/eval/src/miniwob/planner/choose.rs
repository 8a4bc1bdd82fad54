//! Templates that name choices and targets: `Select A, B and click Submit`, `Select X from
//! the list`, `Click on the "X" button`, `Click button ONE, then click button TWO`,
//! `Focus into the textbox`, `Expand the section`, `Close the dialog`.

use super::utterance_tokens::Tok;
use super::words::{
    is_article, is_click_verb, is_key_name, is_ordinal, is_role_word, is_select_verb, phrase,
    sentence_start, strip_article,
};
use super::Reading;

/// `Select A, B and click Submit` (each named choice selected), `Select X from the list`
/// (the list's literal is X), `Select nothing` (nothing to confirm on the page).
pub fn selections(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        if !toks[i].word().is_some_and(|w| is_select_verb(&w)) {
            continue;
        }
        // "Select 5 with the spinner", "Select 12/24/2016 as the date": a value, not a choice.
        if toks
            .get(i + 2)
            .is_some_and(|t| t.is_word("as") || t.is_word("with"))
        {
            continue;
        }
        let mut j = i + 1;
        // "Select the words: a, b": the announcement before the colon.
        if let Some(colon) = (j..toks.len().min(j + 4)).find(|&k| toks[k] == Tok::Punct(':')) {
            j = colon + 1;
        }
        let (items, end) = list_items(toks, j);
        if items.is_empty() {
            continue;
        }
        r.cover(i, end);
        if items.len() == 1 && items[0].eq_ignore_ascii_case("nothing") {
            r.criterion("every option is left unselected".to_owned());
            continue;
        }
        if toks.get(end).is_some_and(|t| t.is_word("from")) {
            let (words, after) = phrase(toks, end + 1, &["and", "then"]);
            let target = strip_article(&words).join(" ").to_lowercase();
            if items.len() == 1 && !target.is_empty() {
                r.input(&target, &items[0]);
            } else if !target.is_empty() {
                // Several choices from one list: one literal each, keyed by position
                // (the runtime finds each by its literal among the list's options).
                for (k, item) in items.iter().enumerate() {
                    r.input(&format!("choice {}", k + 1), item);
                }
            }
            r.cover(end, after);
        }
        for item in &items {
            r.criterion(format!("{item:?} is selected"));
        }
    }
}

/// Items separated by commas and "and", up to "and <click verb>", "from", or the end of
/// the sentence. Multi-word items stay whole ("Solomon Islands").
fn list_items(toks: &[Tok], from: usize) -> (Vec<String>, usize) {
    let mut items = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let mut j = from;
    let flush = |cur: &mut Vec<String>, items: &mut Vec<String>| {
        if !cur.is_empty() {
            items.push(cur.join(" "));
            cur.clear();
        }
    };
    while let Some(t) = toks.get(j) {
        match t {
            Tok::Punct(',') => flush(&mut cur, &mut items),
            Tok::Punct(_) => break,
            Tok::Quote(q) => {
                flush(&mut cur, &mut items);
                items.push(q.clone());
            }
            Tok::Word(w) => {
                let lw = w.to_lowercase();
                if lw == "from" || lw == "then" {
                    break;
                }
                if lw == "and" {
                    if toks
                        .get(j + 1)
                        .and_then(Tok::word)
                        .is_some_and(|n| is_click_verb(&n))
                    {
                        break;
                    }
                    flush(&mut cur, &mut items);
                } else {
                    cur.push(w.clone());
                }
            }
        }
        j += 1;
    }
    flush(&mut cur, &mut items);
    (items, j)
}

/// A click target: its name (if the utterance gives one) and the kind of control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: Option<String>,
    pub role: Option<String>,
}

/// Every click the utterance asks for, in order; the last one's evidence becomes a
/// criterion: a tab is selected; anything else has been clicked (an event the page need
/// not show, so the runtime backs it with its own hit-tested click).
pub fn clicks(toks: &[Tok], r: &mut Reading) {
    let mut targets: Vec<Target> = Vec::new();
    for i in 0..toks.len() {
        if !toks[i].word().is_some_and(|w| is_click_verb(&w)) {
            continue;
        }
        if let Some((target, end)) = click_target(toks, i + 1) {
            r.cover(searched_from(toks, i), end);
            targets.push(target);
        }
    }
    r.clicks += targets.len();
    // A checkbox clicked by position is checked afterwards, wherever the click falls.
    for t in &targets {
        if let (None, Some(role)) = (&t.name, t.role.as_deref()) {
            if role.ends_with(" checkbox") {
                r.criterion(format!("the {role} is checked"));
            }
        }
    }
    let Some(last) = targets.last() else { return };
    let c = match (&last.name, last.role.as_deref()) {
        (Some(name), Some("tab")) => format!("{name:?} is selected"),
        (Some(name), Some(role)) => format!("the {name:?} {role} has been clicked"),
        (Some(name), None) => format!("{name:?} has been clicked"),
        (None, Some(role)) if role.ends_with(" checkbox") => return,
        (None, Some(role)) => format!("the {role} has been clicked"),
        (None, None) => return,
    };
    if !(last.name.is_some() && last.role.as_deref() == Some("tab")) {
        r.last_click = Some((last.clone(), c.clone()));
    }
    r.criterion(c);
}

/// Where the click verb at `i` starts its clause: "find and click X" — the search is
/// the click's own.
fn searched_from(toks: &[Tok], i: usize) -> usize {
    let searched = i >= 2
        && toks[i - 1].is_word("and")
        && (toks[i - 2].is_word("find") || toks[i - 2].is_word("locate"));
    if searched {
        i - 2
    } else {
        i
    }
}

/// `… click the 5th search result`: a position in a list of results, which the runtime
/// counts across the list's pages; the criterion names it as said.
pub fn ordinal_results(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        if !toks[i].word().is_some_and(|w| is_click_verb(&w)) {
            continue;
        }
        let mut j = i + 1;
        if toks.get(j).is_some_and(|t| t.is_word("on")) {
            j += 1;
        }
        if toks.get(j).is_some_and(|t| t.is_word("the")) {
            j += 1;
        }
        let Some(ord) = toks.get(j).and_then(Tok::word).filter(|w| is_ordinal(w)) else {
            continue;
        };
        let (words, end) = phrase(toks, j + 1, &["and", "then"]);
        let last = words.last().map(|w| w.to_lowercase());
        if !matches!(last.as_deref(), Some("result" | "hit" | "entry")) || words.len() > 3 {
            continue;
        }
        r.cover(searched_from(toks, i), end);
        r.clicks += 1;
        r.criterion(format!(
            "the {ord} {} has been clicked",
            words.join(" ").to_lowercase()
        ));
    }
}

/// The target after a click verb at `j`, and where its words end; `None` when it names a
/// key ("press Enter") or only a position ("the 5th search result").
pub fn click_target(toks: &[Tok], mut j: usize) -> Option<(Target, usize)> {
    if toks.get(j)?.is_word("on") {
        j += 1;
    }
    // "click on their address": a determiner, like an article, is not the target's name.
    if toks
        .get(j)?
        .word()
        .is_some_and(|w| is_article(&w) || is_possessive(&w))
    {
        j += 1;
    }
    let role_at = |k: usize| toks.get(k).and_then(Tok::word).filter(|w| is_role_word(w));
    match toks.get(j)? {
        Tok::Quote(q) => {
            let role = role_at(j + 1);
            let end = j + 1 + role.is_some() as usize;
            Some((
                Target {
                    name: Some(q.clone()),
                    role,
                },
                end,
            ))
        }
        Tok::Word(w) => {
            let lw = w.to_lowercase();
            // "press Enter", "hit the tab key" — but "Tab #2" names a tab.
            let key = is_key_name(&lw)
                && toks
                    .get(j + 1)
                    .is_none_or(|t| !matches!(t, Tok::Word(w) if !matches!(w.to_lowercase().as_str(), "key" | "and" | "then")));
            // "the 3rd checkbox": a position among controls of a kind, which a checkbox's
            // state shows; "the 5th search result" names no kind to check.
            if is_ordinal(&lw) {
                let kind = role_at(j + 1).filter(|r| r == "checkbox")?;
                return Some((
                    Target {
                        name: None,
                        role: Some(format!("{lw} {kind}")),
                    },
                    j + 2,
                ));
            }
            if key {
                return None;
            }
            if is_role_word(&lw) {
                let (name, end) = named_after_role(toks, j, &lw);
                let role = Some(lw);
                return Some((Target { name, role }, end));
            }
            let stop = [
                "and", "then", "to", "in", "named", "labeled", "labelled", "called",
            ];
            let (words, end) = phrase(toks, j, &stop);
            if let Some(q) = labelled_quote(toks, end) {
                let name = Some(q);
                return Some((Target { name, role: None }, end + 2));
            }
            let target = match words.last().map(|w| w.to_lowercase()) {
                // "the trash icon": a name, then the kind of control.
                Some(last) if words.len() > 1 && is_role_word(&last) => Target {
                    name: Some(words[..words.len() - 1].join(" ")),
                    role: Some(last),
                },
                _ => Target {
                    name: Some(words.join(" ")),
                    role: None,
                },
            };
            Some((target, end))
        }
        Tok::Punct(_) => None,
    }
}

/// After a role word: `link "X"`, `button ONE`, `Tab #1`, `button … labeled "X"`; and
/// where the target's words end.
fn named_after_role(toks: &[Tok], j: usize, role: &str) -> (Option<String>, usize) {
    match toks.get(j + 1) {
        Some(Tok::Quote(q)) => return (Some(q.clone()), j + 2),
        Some(Tok::Word(w)) if role == "tab" && (w.starts_with('#') || w.parse::<u32>().is_ok()) => {
            let tab = toks[j].literal().unwrap_or("Tab");
            return (Some(format!("{tab} {w}")), j + 2);
        }
        Some(Tok::Word(w)) if is_name_like(w) => return (Some(w.clone()), j + 2),
        _ => {}
    }
    let (_, end) = phrase(toks, j + 1, &["named", "labeled", "labelled", "called"]);
    match labelled_quote(toks, end) {
        Some(q) => (Some(q), end + 2),
        None => (None, j + 1),
    }
}

fn is_possessive(w: &str) -> bool {
    matches!(w, "their" | "his" | "her" | "its" | "my" | "your" | "our")
}

/// `named "X"` / `labeled "X"` at `k`.
fn labelled_quote(toks: &[Tok], k: usize) -> Option<String> {
    let w = toks.get(k)?.word()?;
    if !matches!(w.as_str(), "named" | "labeled" | "labelled" | "called") {
        return None;
    }
    toks.get(k + 1)?.quote().map(str::to_owned)
}

/// A word that names rather than describes: "ONE", "Submit" — not "in", "to", "that".
fn is_name_like(w: &str) -> bool {
    let lw = w.to_lowercase();
    !matches!(
        lw.as_str(),
        "in" | "on"
            | "to"
            | "that"
            | "which"
            | "with"
            | "and"
            | "then"
            | "of"
            | "below"
            | "above"
            | "named"
            | "labeled"
            | "labelled"
            | "called"
    ) && w.chars().any(|c| c.is_alphanumeric())
}

/// `Focus into the <target>`, `Expand the <target>`, `Close the <target>`: the state the
/// target must end in.
pub fn states(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        let Some(verb) = toks[i].word() else { continue };
        if r.means.iter().any(|&(a, b)| (a..b).contains(&i)) {
            continue;
        }
        let (state, mut j) = match verb.as_str() {
            "focus" => ("focused", i + 1),
            "expand" => ("expanded", i + 1),
            "collapse" => ("collapsed", i + 1),
            "close" => ("closed", i + 1),
            "check" => ("checked", i + 1),
            "uncheck" => ("unchecked", i + 1),
            _ => continue,
        };
        if toks
            .get(j)
            .is_some_and(|t| t.is_word("into") || t.is_word("on"))
        {
            j += 1;
        }
        let (words, mut end) = phrase(toks, j, &["and", "then", "by", "to"]);
        let words = strip_article(&words);
        if !words.is_empty() {
            r.criterion(format!("the {} is {state}", words.join(" ")));
            // "… by clicking the x": the means, read by `clicks`.
            let by_click = toks.get(end).is_some_and(|t| t.is_word("by"))
                && toks
                    .get(end + 1)
                    .and_then(Tok::word)
                    .is_some_and(|w| is_click_verb(&w));
            end += by_click as usize;
            r.cover(i, end);
        }
    }
}

/// `find and click X` is a search whose outcome is the click (the runtime looks for X
/// itself), and so is what only says where to look before it: `Switch between the tabs
/// to find and click X`, `Navigate through the file tree. Find and click X`. Read only
/// when the click's target was read.
pub fn searches(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len().saturating_sub(2) {
        let click = toks[i + 2].word().is_some_and(|w| is_click_verb(&w));
        if !(toks[i].is_word("find") && toks[i + 1].is_word("and") && click && r.covers(i + 2)) {
            continue;
        }
        r.cover(i, i + 2);
        let start = sentence_start(toks, i);
        if start < i && where_to_look(&toks[start..i], true) {
            r.cover(start, i);
            r.means.push((start, i));
        } else if start == i && start > 0 {
            let prev = sentence_start(toks, start - 1);
            if where_to_look(&toks[prev..start - 1], false) {
                r.cover(prev, start);
            }
        }
    }
}

/// `switch between the tabs (to)`, `navigate through the file tree`, `look in the
/// folders`: a verb of moving around, a preposition of place, a few plain words; or
/// `expand the sections below, to`: opening what hides the target, a purpose clause
/// after it (its state is the search's means, not an outcome: an accordion shows one
/// section open at a time).
fn where_to_look(toks: &[Tok], ends_with_to: bool) -> bool {
    let Some(words) = toks
        .iter()
        .filter(|t| !matches!(t, Tok::Punct(',')))
        .map(Tok::word)
        .collect::<Option<Vec<String>>>()
    else {
        return false;
    };
    let words = match (ends_with_to, words.split_last()) {
        (true, Some((last, rest))) if last == "to" => rest,
        (true, _) => return false,
        (false, _) => &words[..],
    };
    let moving = matches!(
        words.first().map(String::as_str),
        Some("switch" | "navigate" | "browse" | "look" | "go")
    ) && matches!(
        words.get(1).map(String::as_str),
        Some("between" | "through" | "in" | "around")
    );
    let opening = ends_with_to
        && matches!(words.first().map(String::as_str), Some("expand" | "open"))
        && toks.iter().any(|t| matches!(t, Tok::Punct(',')));
    (moving || opening) && (3..=6).contains(&words.len())
}
