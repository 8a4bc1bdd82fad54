//! A control inside one item of a list, the item named by a word it shows: "find the email
//! by Deva and click the star icon", "for the user @kenda, click the Like button". Every
//! row has the same control, so the control's name ties; the goal's other words pick the
//! row. An item is the largest subtree around a candidate that holds no other candidate
//! (its row, card or entry), so what it shows is its own, not its neighbours'.

use super::facts::{Facts, Only};
use super::goal::Intent;
use super::ground::{clickable, conclude, Grounding, Ranking, TIE};
use super::inputs::describe;
use super::intents::queries;
use super::step::{Act, Outcome, StepKind};
use super::text::{contains_phrase, is_stopword, normalize};
use super::verify::{Check, Criterion};
use arc_core::{Action, ActionKind, ActionRecord, Role};

/// Candidates one tie may be split among (a long list's rows, each with the control).
const MAX_CANDIDATES: usize = 200;

/// A tie among alike controls, split by the item the goal's other words name: the one
/// candidate whose item shows the most of those words (and some of them no other item
/// shows). None when the goal names no item among them: the tie stands.
pub fn pick(f: &Facts, it: &Intent, eligible: impl Fn(usize) -> bool) -> Option<Grounding> {
    let (qs, threshold) = queries(it);
    let scored: Vec<(usize, f64)> = (0..f.len())
        .filter(|&i| eligible(i))
        .map(|i| (i, qs.iter().map(|q| q.score(f.name(i))).fold(0.0, f64::max)))
        .filter(|&(_, s)| s >= threshold)
        .collect();
    let best = scored.iter().map(|&(_, s)| s).fold(0.0, f64::max);
    // Every control the phrase names, not only the best: a pressed one may have taken a
    // state word into its name ("star marked").
    let candidates: Vec<usize> = scored
        .iter()
        .map(|&(i, _)| i)
        .take(MAX_CANDIDATES)
        .collect();
    pick_among(f, it, &candidates, best, threshold)
}

/// Among alike `candidates` (each scored `best`), the one whose item the goal's other
/// words name.
fn pick_among(
    f: &Facts,
    it: &Intent,
    candidates: &[usize],
    best: f64,
    threshold: f64,
) -> Option<Grounding> {
    if candidates.len() < 2 {
        return None;
    }
    let counts = item_counts(f, it, candidates)?;
    let mut r = Ranking::default();
    for (k, &c) in candidates.iter().enumerate() {
        r.push(c, counts[k] as f64);
    }
    // Scores here are word counts: any difference is a margin, equal counts a tie.
    match (r.best, r.second) {
        (None, _) => None,
        (Some((a, sa)), Some((b, sb))) if sa == sb => Some(Grounding::Tie { a, b, score: best }),
        (Some((idx, _)), _) => match conclude(&single(idx, best), threshold) {
            Grounding::Found { idx, score, .. } => Some(Grounding::Found {
                idx,
                score,
                margin: score,
            }),
            g => Some(g),
        },
    }
}

/// How much of the goal's other words each candidate's item shows (words every item
/// shows, or none, tell no item apart and count nothing); None when the candidates have
/// no items.
fn item_counts(f: &Facts, it: &Intent, candidates: &[usize]) -> Option<Vec<usize>> {
    let texts = items(f, candidates)?;
    let mut counts = vec![0usize; candidates.len()];
    for w in &goal_words(it) {
        let has: Vec<usize> = texts.iter().map(|t| shows(t, w)).collect();
        let n = has.iter().filter(|&&b| b > 0).count();
        if n == 0 || n == candidates.len() {
            continue;
        }
        for (k, weight) in has.iter().enumerate() {
            counts[k] += weight;
        }
    }
    Some(counts)
}

/// The control that drew the list `i` lies in (a row's "more" menu): the last named
/// element before the list in document order, outside it. Not required clickable: once
/// the choice ended the task, the page may cover everything. None when `i` is in no list.
pub(super) fn popup_opener(f: &Facts, i: usize) -> Option<usize> {
    let list = popup_list(f, i)?;
    (0..list)
        .rev()
        .find(|&j| !f.is_descendant(list, j) && !f.name(j).is_empty())
}

/// The openers alike to `o` (the same name, in the same list as it or in none, not in a
/// menu one of them drew): one per row.
fn alike_openers(f: &Facts, o: usize) -> Vec<usize> {
    let home = popup_list(f, o);
    (0..f.len())
        .filter(|&j| f.name(j) == f.name(o) && popup_list(f, j) == home)
        .take(MAX_CANDIDATES)
        .collect()
}

/// The innermost list, listbox or menu holding `i` (or `i` itself).
fn popup_list(f: &Facts, i: usize) -> Option<usize> {
    std::iter::once(i)
        .chain(f.ancestors(i))
        .find(|&a| matches!(f.els[a].role, Role::List | Role::ListBox | Role::Menu))
}

/// A lone match inside a list its opener drew, when the goal names a row and the
/// opener's row is not the one it names best: another row's menu is open, so the named
/// row's control is not on the page yet (its own menu must be opened).
pub fn in_other_item(f: &Facts, it: &Intent, idx: usize) -> bool {
    let Some(o) = popup_opener(f, idx) else {
        return false;
    };
    let openers = alike_openers(f, o);
    let Some(k) = openers.iter().position(|&c| c == o) else {
        return false;
    };
    if openers.len() < 2 {
        return false;
    }
    let Some(counts) = item_counts(f, it, &openers) else {
        return false;
    };
    let best = counts.iter().copied().max().unwrap_or(0);
    best > 0 && counts[k] < best
}

/// The openers alike to disclosure `d` (a row's "more") whose rows the goal names best;
/// None when the goal names none of them: where a search for a row's hidden control
/// looks.
pub fn named_openers(f: &Facts, it: &Intent, d: usize) -> Option<Vec<usize>> {
    let openers = alike_openers(f, d);
    if openers.len() < 2 || f.name(d).is_empty() {
        return None;
    }
    let counts = item_counts(f, it, &openers)?;
    let best = counts.iter().copied().max().unwrap_or(0);
    (best > 0).then(|| {
        openers
            .iter()
            .zip(&counts)
            .filter(|&(_, &c)| c == best)
            .map(|(&o, _)| o)
            .collect()
    })
}

fn single(i: usize, score: f64) -> Ranking {
    let mut r = Ranking::default();
    r.push(i, score);
    r
}

/// The goal's words outside the intent's own (its verb, object and quote), that could
/// name an item: no stopwords, no single letters.
pub(super) fn goal_words(it: &Intent) -> Vec<String> {
    let own = normalize(&format!(
        "{} {} {}",
        it.verb_words,
        it.object,
        it.quoted.as_deref().unwrap_or_default()
    ));
    let own: Vec<&str> = own.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    for w in it.said.split(' ') {
        if w.chars().count() < 2 || is_stopword(w) || own.contains(&w) {
            continue;
        }
        if !out.iter().any(|o| o == w) {
            out.push(w.to_owned());
        }
    }
    out
}

/// The item around candidate `c`: its largest ancestor (or itself) that holds no other
/// candidate.
fn row(f: &Facts, c: usize, candidates: &[usize]) -> usize {
    let mut top = c;
    for p in f.ancestors(c) {
        if candidates.iter().any(|&d| d != c && f.is_descendant(d, p)) {
            break;
        }
        top = p;
    }
    top
}

/// The names of an item and of everything in it, normalized, and its first line.
pub(super) struct ItemNames<'f> {
    names: Vec<&'f str>,
    /// The first named leaf: the line that says who or what the item is.
    lead: Option<&'f str>,
}

/// Each candidate's item, in the candidates' order: its subtree when the tree keeps the
/// rows apart; in a flattened list (every candidate, or a wrapper holding only it, a
/// sibling of the others), the run of elements up to it (its controls trail its text) or
/// from it (they lead), whichever the list's ends show; None when they show neither.
pub(super) fn items<'f>(f: &'f Facts, candidates: &[usize]) -> Option<Vec<ItemNames<'f>>> {
    let rows: Vec<usize> = candidates.iter().map(|&c| row(f, c, candidates)).collect();
    // A row no other candidate bounds climbs to the page itself, which shows every item's
    // words: no item at all (one menu open among many rows shows one "Copy link").
    if rows.iter().any(|&r| f.parent(r).is_none()) {
        return None;
    }
    // Every candidate climbed into a row of its own. When only some did, those rows are
    // wrappers (a hovered control's span holding it and its menu), not items.
    if rows.iter().zip(candidates).all(|(r, c)| r != c) {
        return Some(rows.iter().map(|&r| item_names(f, r)).collect());
    }
    let parent = f.parent(rows[0])?;
    if rows.iter().any(|&r| f.parent(r) != Some(parent)) {
        return None;
    }
    let mut order: Vec<usize> = rows.clone();
    order.sort_unstable();
    let end_of = |r: usize| f.descendants(r).last().map_or(r + 1, |l| l + 1);
    let end = end_of(parent);
    // A menu a row's control drew is that row's, not text of the list's ends.
    let home = popup_list(f, candidates[0]);
    let text = |i: usize| {
        !f.name(i).is_empty() && !f.offers(i, ActionKind::Click) && popup_list(f, i) == home
    };
    let (first, last) = (order[0], order[order.len() - 1]);
    let trailing = !(end_of(last)..end).any(text);
    let leading = !(parent + 1..first).any(text);
    let span = |r: usize| -> Vec<usize> {
        let k = order.iter().position(|&o| o == r).unwrap_or(0);
        if trailing {
            let from = if k == 0 {
                parent + 1
            } else {
                end_of(order[k - 1])
            };
            (from..end_of(r)).collect()
        } else {
            let to = order.get(k + 1).copied().unwrap_or(end);
            (r..to).collect()
        }
    };
    if !trailing && !leading {
        return None;
    }
    Some(rows.iter().map(|&r| names_of(f, &span(r))).collect())
}

fn item_names<'f>(f: &'f Facts, item: usize) -> ItemNames<'f> {
    let all: Vec<usize> = std::iter::once(item).chain(f.descendants(item)).collect();
    names_of(f, &all)
}

fn names_of<'f>(f: &'f Facts, all: &[usize]) -> ItemNames<'f> {
    let lead = all
        .iter()
        .copied()
        .find(|&i| {
            !f.name(i).is_empty()
                && f.descendants(i).next().is_none()
                && !f.offers(i, ActionKind::Click)
        })
        .map(|i| f.name(i));
    ItemNames {
        names: all
            .iter()
            .map(|&i| f.name(i))
            .filter(|n| !n.is_empty())
            .collect(),
        lead,
    }
}

/// How an item shows `w`: 2 as a whole name of its own (the sender's cell says "Ada")
/// or in its first line (who or what the item is: "Ada Lee @ada"), 1 in passing
/// ("Re: Ada"), 0 not at all.
pub(super) fn shows(item: &ItemNames, w: &str) -> usize {
    let names = &item.names;
    let lead = item.lead.is_some_and(|l| contains_phrase(l, w));
    if lead || names.contains(&w) {
        2
    } else if names.iter().any(|n| contains_phrase(n, w)) {
        1
    } else {
        0
    }
}

/// The run clicked a control `named` admits by its name, or `captioned` by the caption
/// beside it (a caption describes, so it is matched as an unquoted phrase is),
/// hit-tested on it and still on the page, inside the item that shows `word` best. A
/// clicked control that left the page cannot show its item: unreadable, never assumed.
pub fn clicked_in(
    f: &Facts,
    h: &[ActionRecord],
    named: impl Fn(&str) -> bool,
    captioned: impl Fn(&str) -> bool,
    word: &str,
) -> Result<(), String> {
    let want = normalize(word);
    // Controls, as the click grounded among (a caption is not alike to what it captions).
    let caps = captions(f, |j| f.offers(j, ActionKind::Click));
    let alike_at = |j: usize| {
        f.offers(j, ActionKind::Click)
            && (named(f.name(j)) || caps.iter().any(|&(c, l)| c == j && captioned(f.name(l))))
    };
    let mut alike: Option<Vec<usize>> = None;
    let mut gone = false;
    for r in h.iter().rev() {
        if r.action.kind() != ActionKind::Click || !r.on_target() {
            continue;
        }
        let at = r.action.target().and_then(|t| f.index_of(t.as_str()));
        let by_name = r.target_name.as_deref().is_some_and(&named);
        let Some(i) = at else {
            gone |= by_name;
            continue;
        };
        if !by_name && !alike_at(i) {
            continue;
        }
        // Its item: as for grounding, around the controls alike to it.
        let alike = alike.get_or_insert_with(|| {
            (0..f.len())
                .filter(|&j| alike_at(j))
                .take(MAX_CANDIDATES)
                .collect()
        });
        if !alike.contains(&i) {
            alike.push(i);
        }
        // Shown by the clicked item, and by none better (a sender's own cell beats a
        // subject that mentions the name).
        if let Some(best) = shows_best(f, alike, i, &want) {
            if best {
                return Ok(());
            }
            continue;
        }
        if alike.as_slice() == [i] {
            // A lone choice in a menu drawn by its row's opener: the opener's row is its.
            let by_opener = popup_opener(f, i)
                .and_then(|o| shows_best(f, &alike_openers(f, o), o, &want))
                .unwrap_or(false);
            if by_opener || one_record(f, &want) || opened_before(h, r, &want) {
                return Ok(());
            }
        }
    }
    Err(if gone {
        format!("the clicked control left the page; whether its item shows {word:?} cannot be read")
    } else {
        format!("no click on the control inside the item showing {word:?} yet")
    })
}

/// Whether the item of candidate `i` (among alike `candidates`) shows `want`, and no other
/// item better (a sender's own cell beats a subject that mentions the name); None when the
/// candidates have no items.
fn shows_best(f: &Facts, candidates: &[usize], i: usize, want: &str) -> Option<bool> {
    let shown = items(f, candidates)?;
    let weights: Vec<usize> = shown.iter().map(|t| shows(t, want)).collect();
    let own = candidates
        .iter()
        .position(|&c| c == i)
        .map_or(0, |k| weights[k]);
    Some(own > 0 && weights.iter().all(|&w| w <= own))
}

/// The run opened the item showing `want` (`entry::open_named`, which checked the word on the
/// element it pressed) before record `r`: the lone control pressed after is in that item.
fn opened_before(h: &[ActionRecord], r: &ActionRecord, want: &str) -> bool {
    let needle = format!("open the item showing {want:?}");
    h.iter().take_while(|x| x.step < r.step).any(|x| {
        super::history::tag(x) == Some(StepKind::OpenItem.as_str())
            && x.on_target()
            && x.decision
                .reason
                .as_deref()
                .is_some_and(|s| s.contains(&needle))
    })
}

/// A page that shows one record (a contact card, one result per page): exactly one
/// element shows the word (as its whole name, else within it), and none of its siblings is
/// of its kind (its title, not one
/// username among the rows of a feed). The lone control alike to the clicked one is then
/// that record's, with no row to bound it.
fn one_record(f: &Facts, want: &str) -> bool {
    // The word as a whole name first (the card's title, not an email address built from it).
    let exact: Vec<usize> = (0..f.len()).filter(|&k| f.name(k) == want).collect();
    let shown: Vec<usize> = if exact.is_empty() {
        (0..f.len())
            .filter(|&k| contains_phrase(f.name(k), want))
            .collect()
    } else {
        exact
    };
    let [k] = shown.as_slice() else {
        return false;
    };
    let k = *k;
    let e = &f.els[k];
    !f.els
        .iter()
        .enumerate()
        .any(|(j, o)| j != k && o.visible && o.parent_id == e.parent_id && o.role == e.role)
}

/// (control, caption) for the controls `eligible` admits that a caption labels. One
/// caption labels one control: the first after it in document order, else the nearest
/// before it — a pager below a card is not captioned by the card's "Address:" too.
fn captions(f: &Facts, eligible: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    // Text inside another clickable element is that element's own (a tree row's name
    // beside the next row), never a caption of this one.
    let owned_elsewhere = |i: usize, l: usize| {
        f.ancestors(l)
            .any(|a| a != i && !f.is_descendant(i, a) && clickable(f, a))
    };
    let all: Vec<(usize, usize)> = (0..f.len())
        .filter(|&i| eligible(i))
        .filter_map(|i| super::label::adjacent_label(f, i).map(|l| (i, l)))
        .filter(|&(i, l)| !owned_elsewhere(i, l))
        .collect();
    let distance = |i: usize, l: usize| if i > l { i - l } else { f.len() + (l - i) };
    all.iter()
        .copied()
        .filter(|&(i, l)| {
            !all.iter()
                .any(|&(j, m)| m == l && j != i && distance(j, l) < distance(i, l))
        })
        .collect()
}

/// The innermost clickable element holding the one text that names the intent's target,
/// when the scan kept that text apart from it (a tree row whose name sits in a span
/// beside its toggle): a person clicks the row.
pub fn by_own_text(f: &Facts, it: &Intent) -> Option<Grounding> {
    let (qs, threshold) = queries(it);
    match super::ground::ground(f, &qs, &[], threshold, |i| is_text(f, i)) {
        Grounding::Found { idx, score, margin } => {
            holder_of(f, idx).map(|holder| Grounding::Found {
                idx: holder,
                score,
                margin,
            })
        }
        _ => None,
    }
}

fn is_text(f: &Facts, i: usize) -> bool {
    f.els[i].visible && !f.name(i).is_empty() && !f.offers(i, ActionKind::Click)
}

/// The innermost enabled clickable ancestor of text `t` that shows no other text (one
/// that does is a container of several things, not `t`'s own control).
fn holder_of(f: &Facts, t: usize) -> Option<usize> {
    let holder = f
        .ancestors(t)
        .find(|&a| clickable(f, a) && f.els[a].enabled)?;
    let others = f
        .descendants(holder)
        .any(|d| d != t && !f.is_descendant(t, d) && is_text(f, d));
    (!others).then_some(holder)
}

/// The run's click (hit-tested on its target) on the control whose own text `named`
/// admits (`by_own_text`'s relation, read on this snapshot).
pub fn clicked_own_text(f: &Facts, h: &[ActionRecord], named: impl Fn(&str) -> bool) -> bool {
    h.iter()
        .filter(|r| r.action.kind() == ActionKind::Click && r.on_target())
        .filter_map(|r| f.index_of(r.action.target()?.as_str()))
        .any(|a| {
            f.descendants(a)
                .any(|d| is_text(f, d) && named(f.name(d)) && holder_of(f, d) == Some(a))
        })
}

/// "Their address": among the controls `eligible` admits, the one the caption beside it
/// names (each caption labelling only the nearest control it captions) (a contact card's "Address:" before a link that shows the address itself).
pub fn by_label(f: &Facts, it: &Intent, eligible: impl Fn(usize) -> bool) -> Option<Grounding> {
    let (qs, threshold) = queries(it);
    let mut r = Ranking::default();
    let mut scored: Vec<(usize, f64)> = Vec::new();
    for (i, l) in captions(f, eligible) {
        let s = qs.iter().map(|q| q.score(f.name(l))).fold(0.0, f64::max);
        r.push(i, s);
        if s >= threshold {
            scored.push((i, s));
        }
    }
    match conclude(&r, threshold) {
        Grounding::Missing { .. } => None,
        // One card per contact, each with its "Address:": the goal names the card.
        tied @ Grounding::Tie { score, .. } => {
            let alike: Vec<usize> = scored
                .iter()
                .filter(|&&(_, s)| score - s < TIE)
                .map(|&(i, _)| i)
                .take(MAX_CANDIDATES)
                .collect();
            Some(pick_among(f, it, &alike, score, threshold).unwrap_or(tied))
        }
        g => Some(g),
    }
}

/// Pages one run may turn looking for the item a criterion names.
pub const MAX_PAGES: usize = 30;

/// A criterion names an item by a word no element on this page shows: the list is paged,
/// so the next page is opened (its "Next"/"›" control), bounded, until the item shows;
/// a page turn that changed nothing, or the bound, hands back.
pub fn turn_page(f: &Facts, h: &[ActionRecord], criteria: &[Criterion]) -> Option<Outcome> {
    let word = criteria.iter().find_map(|c| match &c.check {
        Check::ClickedIn(_, w) => Some(normalize(w)),
        _ => None,
    })?;
    let shown = (0..f.len()).any(|i| f.els[i].visible && contains_phrase(f.name(i), &word));
    if shown || word.is_empty() {
        return None;
    }
    let turns: Vec<&ActionRecord> = h
        .iter()
        .filter(|r| super::history::tag(r) == Some(StepKind::Explore.as_str()))
        .collect();
    let stalled = turns.last().is_some_and(|r| !r.state_changed);
    let turner = |i: usize| {
        clickable(f, i)
            && f.els[i].enabled
            && matches!(f.name(i), "next" | "next page" | "›" | "»" | ">")
    };
    // A pager item listening for clicks around its own link is one control, not two:
    // the innermost of nested matches.
    let next = f
        .only(|i| turner(i) && !(0..f.len()).any(|j| j != i && turner(j) && f.is_descendant(j, i)));
    let Only::One(i) = next else {
        return Some(Outcome::NeedsAgent(format!(
            "no item on the page shows {word:?}, and no one control turns to the next page"
        )));
    };
    if stalled || turns.len() >= MAX_PAGES {
        return Some(Outcome::NeedsAgent(format!(
            "no item shows {word:?} after {} page turn(s)",
            turns.len()
        )));
    }
    Some(Outcome::Act(Act {
        action: Action::click(f.els[i].id.clone()),
        kind: StepKind::Explore,
        confidence: 0.8,
        margin: 0.8,
        why: format!(
            "no item here shows {word:?}: the next page ({})",
            describe(f, i)
        ),
        order: i,
    }))
}
