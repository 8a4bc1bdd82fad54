//! A phrase that names a group ("expand the sections below", "check all the boxes in the
//! list", "close every notification"): acted on member by member, each verified on the
//! next snapshot, instead of grounding one ambiguous target.
//!
//! A group phrase starts with all / every / each, or is a plural noun followed by
//! below / above. Its members are the elements the verb acts on (checkboxes, disclosures,
//! close controls), narrowed by "in the <container>", by the noun when element names
//! carry it, and to the largest cluster of alike elements (the FAQ's sections, not the
//! header's menu button). Bounded by [`MAX_MEMBERS`] and by the run's action budget.

use super::facts::Facts;
use super::goal::Intent;
use super::ground::{checkable, clickable};
use super::history;
use super::inputs::describe;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::is_stopword;
use super::vocab::{is_close_glyph, strip_role_words, Verb};
use arc_core::{Action, ActionKind, ActionRecord, Role};

/// Members one group phrase may act on.
pub const MAX_MEMBERS: usize = 30;

/// What members are, by what the verb does to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Checkboxes and switches: checked or unchecked.
    Checkable,
    /// Anything collapsed or expanded.
    Disclosure,
    /// Close controls of notifications, banners, panels: done once gone.
    Closer,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The noun, singular ("section").
    pub noun: String,
    /// Roles the noun names ("buttons").
    pub roles: Vec<Role>,
    /// Container roles of "in the list".
    pub within: Vec<Role>,
}

/// The group an object's words name, if they name one.
pub fn parse(object: &str) -> Option<Group> {
    let words: Vec<&str> = object.split(' ').filter(|w| !w.is_empty()).collect();
    let quantified = matches!(words.first(), Some(&("all" | "every" | "each")));
    let (head, scope) = match words
        .iter()
        .position(|w| matches!(*w, "in" | "inside" | "within" | "under" | "on"))
    {
        Some(k) => (&words[..k], &words[k + 1..]),
        None => (&words[..], &words[..0]),
    };
    let placed = head.iter().any(|w| matches!(*w, "below" | "above"));
    let content: Vec<&str> = head
        .iter()
        .copied()
        .filter(|w| !matches!(*w, "all" | "every" | "each" | "below" | "above") && !is_stopword(w))
        .collect();
    let noun = *content.last()?;
    let single = singular(noun);
    if !(quantified || (placed && single != noun)) {
        return None;
    }
    let (_, roles) = strip_role_words(&[single.as_str()]);
    let (_, roles_plural) = strip_role_words(&[noun]);
    let scope: Vec<&str> = scope.iter().copied().filter(|w| !is_stopword(w)).collect();
    let (_, within) = strip_role_words(&scope);
    Some(Group {
        roles: if roles.is_empty() {
            roles_plural
        } else {
            roles
        },
        noun: single,
        within,
    })
}

/// "boxes" → "box", "entries" → "entry", "sections" → "section".
fn singular(w: &str) -> String {
    if let Some(s) = w.strip_suffix("ies").filter(|s| s.len() > 1) {
        return format!("{s}y");
    }
    for end in ["xes", "ches", "shes", "sses"] {
        if w.ends_with(end) {
            return w[..w.len() - 2].to_owned();
        }
    }
    match w.strip_suffix('s') {
        Some(s) if !s.ends_with('s') && s.len() > 1 => s.to_owned(),
        _ => w.to_owned(),
    }
}

/// The kind of member a verb acts on.
pub fn kind_of(verb: Verb) -> Option<Kind> {
    match verb {
        Verb::Check | Verb::Uncheck | Verb::Select => Some(Kind::Checkable),
        Verb::Expand(_) => Some(Kind::Disclosure),
        Verb::Close => Some(Kind::Closer),
        _ => None,
    }
}

/// The intent's group, when its verb acts on groups and its object names one.
pub fn of(it: &Intent) -> Option<(Group, Kind)> {
    if it.quoted.is_some() || it.path.is_some() {
        return None;
    }
    Some((parse(&it.object)?, kind_of(it.verb)?))
}

/// "Expand the sections below, to find and click on the link X": opening a group of
/// disclosures only to find a later target is a search, which `explore` makes (opening
/// each until the target shows; an accordion closes one as it opens the next).
pub fn searches(goal: &[Intent], k: usize) -> bool {
    let finds_later = goal[k + 1..]
        .iter()
        .any(|i| matches!(i.verb, Verb::Click | Verb::Open));
    finds_later && of(&goal[k]).is_some_and(|(_, kind)| kind == Kind::Disclosure)
}

/// Where a search the goal scopes to a group ("expand the sections below, to find …")
/// may look: that group's members on this snapshot.
pub fn search_scope(f: &Facts, goal: &[Intent]) -> Option<Vec<usize>> {
    let k = (0..goal.len()).find(|&k| searches(goal, k))?;
    let (g, kind) = of(&goal[k])?;
    Some(members(f, &g, kind)).filter(|m| !m.is_empty())
}

/// The group's members on this snapshot, in document order.
pub fn members(f: &Facts, g: &Group, kind: Kind) -> Vec<usize> {
    let mut cands: Vec<usize> = (0..f.len()).filter(|&i| candidate(f, g, kind, i)).collect();
    if !g.within.is_empty() {
        cands.retain(|&i| f.ancestors(i).any(|p| g.within.contains(&f.els[p].role)));
    }
    // Names that carry the noun pick the members ("the FAQ sections" among other panels).
    let named: Vec<usize> = cands
        .iter()
        .copied()
        .filter(|&i| carries(f, i, &g.noun))
        .collect();
    if !named.is_empty() && kind != Kind::Closer {
        cands = named;
    }
    largest_run(f, &cands)
}

fn carries(f: &Facts, i: usize, noun: &str) -> bool {
    f.name(i)
        .split(' ')
        .any(|w| w == noun || singular(w) == noun)
}

fn candidate(f: &Facts, g: &Group, kind: Kind, i: usize) -> bool {
    let e = &f.els[i];
    if !clickable(f, i) || e.actions.contains(ActionKind::TypeText) {
        return false;
    }
    let role_ok = g.roles.is_empty() || g.roles.contains(&e.role);
    match kind {
        Kind::Checkable => {
            // "No option stays selected": in a group of things to choose, an
            // option is any control one chooses (a checkbox, a radio, a switch).
            let chosen_option = g.roles.contains(&Role::Option) && e.selected.is_some();
            (role_ok || chosen_option)
                && checkable(&e.role)
                && (!g.roles.is_empty() || matches!(e.role, Role::CheckBox | Role::Switch))
        }
        Kind::Disclosure => role_ok && e.expanded.is_some() && !f.is_native_select(i),
        Kind::Closer => closer(f, i) && holder(f, i, &g.noun),
    }
}

/// A control that only closes what holds it: "Close", "Dismiss", "×", or one of those
/// followed by one word ("Dismiss notification"); not "Close account".
fn closer(f: &Facts, i: usize) -> bool {
    if is_close_glyph(f.els[i].name.trim()) {
        return true;
    }
    let words: Vec<&str> = f.name(i).split(' ').collect();
    match words.as_slice() {
        ["close" | "dismiss" | "hide"] => true,
        ["close" | "dismiss" | "hide", w] => !matches!(*w, "account" | "all"),
        _ => false,
    }
}

/// Whether a close control sits in something the noun names: an alert or status, or an
/// ancestor named with the noun, within a few levels.
fn holder(f: &Facts, i: usize, noun: &str) -> bool {
    f.ancestors(i).take(4).any(|p| {
        let role = &f.els[p].role;
        let notice = matches!(role, Role::Alert | Role::Status)
            || matches!(role, Role::Other(r) if r.eq_ignore_ascii_case("log"));
        notice || carries(f, p, noun)
    })
}

/// Members are alike elements side by side: candidates in document order split into runs
/// wherever a heading, another button or a field stands between two of them (the
/// header's menu button is no FAQ section); the longest run wins, the earliest on a tie.
pub(super) fn largest_run(f: &Facts, cands: &[usize]) -> Vec<usize> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (k, &c) in cands.iter().enumerate() {
        let joined = k > 0 && {
            let a = cands[k - 1];
            !(a + 1..c).any(|j| splits(f, cands, a, c, j))
        };
        match runs.last_mut() {
            Some(run) if joined => run.push(c),
            _ => runs.push(vec![c]),
        }
    }
    let mut best: Vec<usize> = Vec::new();
    for run in runs {
        if run.len() > best.len() {
            best = run;
        }
    }
    best
}

/// Whether element `j`, between candidates `a` and `b`, separates them.
fn splits(f: &Facts, cands: &[usize], a: usize, b: usize, j: usize) -> bool {
    let e = &f.els[j];
    if !e.visible || cands.contains(&j) || f.is_descendant(j, a) || f.is_descendant(b, j) {
        return false;
    }
    // A link does not split: what an opened section shows often holds one.
    e.role == Role::Heading
        || (e.role == Role::Button && f.offers(j, ActionKind::Click))
        || e.actions.contains(ActionKind::TypeText)
        || e.actions.contains(ActionKind::SelectOption)
}

/// Whether member `i` is where the verb wants it.
fn done(f: &Facts, i: usize, it: &Intent) -> bool {
    let e = &f.els[i];
    match it.verb {
        Verb::Check | Verb::Select => e.selected == Some(true),
        Verb::Uncheck => e.selected != Some(true),
        Verb::Expand(want) => e.expanded == Some(want),
        // A close control present is a notice still open.
        _ => false,
    }
}

/// The group intent's step: the first member not yet as wanted, or done.
pub fn status(f: &Facts, h: &[ActionRecord], it: &Intent, g: &Group, kind: Kind) -> Status {
    let all = members(f, g, kind);
    let what = format!("{} {:?}", it.verb_words, it.object);
    if all.len() > MAX_MEMBERS {
        return Status::Stop(Outcome::NeedsAgent(format!(
            "{what} names {} elements, more than the bound of {MAX_MEMBERS}",
            all.len()
        )));
    }
    if all.is_empty() {
        // Every close control gone after the run closed some: done.
        let closed = kind == Kind::Closer
            && h.iter()
                .any(|r| r.action.kind() == ActionKind::Click && history::tag(r) == Some("click"));
        return if closed {
            Status::Done
        } else {
            Status::Absent(format!("no element is a member of {what}"))
        };
    }
    let pending = all
        .iter()
        .copied()
        .filter(|&i| !done(f, i, it))
        .collect::<Vec<_>>();
    let Some(&i) = pending.first() else {
        return Status::Done;
    };
    Status::Pending(Act {
        action: Action::click(f.els[i].id.clone()),
        kind: if kind == Kind::Checkable {
            StepKind::Toggle
        } else {
            StepKind::Click
        },
        confidence: 0.8,
        margin: 0.8,
        why: format!(
            "{what}: member {} of {} → {}",
            all.len() - pending.len() + 1,
            all.len(),
            describe(f, i)
        ),
        order: i,
    })
}

/// A criterion over a group ("all the boxes in the list are checked"): every member in
/// the state (a group of close controls holds "closed" once none is left).
pub fn holds(f: &Facts, g: &Group, kind: Kind, want: bool) -> Result<(), String> {
    let all = members(f, g, kind);
    if kind == Kind::Closer {
        return match all.first() {
            None => Ok(()),
            Some(&i) => Err(format!("{} is still there", describe(f, i))),
        };
    }
    if all.is_empty() {
        return Err(format!("no element is one of the {}s", g.noun));
    }
    let off = all.iter().copied().find(|&i| {
        let e = &f.els[i];
        match kind {
            Kind::Checkable => e.selected.unwrap_or(false) != want,
            _ => e.expanded.unwrap_or(false) != want,
        }
    });
    match off {
        None => Ok(()),
        Some(i) => Err(format!(
            "{} of the {} {}s is not {}",
            describe(f, i),
            all.len(),
            g.noun,
            match (kind, want) {
                (Kind::Checkable, true) => "checked",
                (Kind::Checkable, false) => "unchecked",
                (_, true) => "expanded",
                (_, false) => "collapsed",
            }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_phrases_are_told_from_single_targets() {
        let g = parse("all the boxes in the list").unwrap();
        assert_eq!(g.noun, "box");
        assert!(g.within.contains(&Role::List));
        assert_eq!(parse("the sections below").unwrap().noun, "section");
        assert_eq!(parse("every notification").unwrap().noun, "notification");
        assert_eq!(parse("each of the entries").unwrap().noun, "entry");
        assert!(parse("the section below").is_none());
        assert!(parse("the select all box").is_none());
        assert!(parse("the terms and conditions box").is_none());
        assert!(parse("the details").is_none());
    }
}
