//! "Click the 5th search result": the Nth member of a list the page shows a few at a
//! time. The members are the links of the list — the longest run of links side by side,
//! pager controls ("1", "2", "‹", "Next", "Last") aside — and the page holds `per` of
//! them, so the Nth is on page ⌈N / per⌉: the run presses that page's numbered pager
//! control (none for the first page), then the member at (N − 1) mod per. Done, and its
//! criterion "the 5th search result was clicked" holds, on the run's records: since
//! the last commit (the search that filled the list), the last pager press was that
//! page's number (none for page 1), and a click after it hit that member on this snapshot.
//! The page size a turn was decided on rides in that decision's `raw` (`per_page`, set in
//! `mod.rs` as a slider key's start value is): a last page may hold fewer.

use super::facts::Facts;
use super::ground::clickable;
use super::history;
use super::inputs::describe;
use super::ordinal::Nth;
use super::step::{Act, Outcome, Status, StepKind};
use super::text::is_stopword;
use arc_core::{Action, ActionRecord, Role};

/// "the 5th search result" → (5, the noun's words). Only an object that is an ordinal
/// and words no role names (a role's position is `ground_role`'s).
pub fn parse(object: &str) -> Option<(usize, String)> {
    let words: Vec<&str> = object.split(' ').filter(|w| !w.is_empty()).collect();
    let (nth, rest) = Nth::split(&words);
    let Some(Nth::Index(n)) = nth else {
        return None;
    };
    let noun: Vec<&str> = rest.into_iter().filter(|w| !is_stopword(w)).collect();
    let names_result = noun
        .last()
        .is_some_and(|w| matches!(*w, "result" | "results" | "hit" | "match" | "entry"));
    names_result.then(|| (n, noun.join(" ")))
}

/// A name that is a page number ("2").
fn is_page_number(name: &str) -> bool {
    let name = name.trim();
    !name.is_empty() && name.chars().all(|c| c.is_ascii_digit())
}

/// A pager control: a page number, an arrow, or a word that turns pages.
fn pager(f: &Facts, i: usize) -> bool {
    let name = f.els[i].name.trim();
    is_page_number(name)
        || matches!(
            name,
            "<" | ">" | "‹" | "›" | "«" | "»" | "<<" | ">>" | "…" | "..."
        )
        || matches!(
            f.name(i),
            "first" | "last" | "next" | "prev" | "previous" | "next page" | "previous page"
        )
}

/// The list's members on this snapshot, in document order.
fn members(f: &Facts) -> Vec<usize> {
    let links: Vec<usize> = (0..f.len())
        .filter(|&i| f.els[i].role == Role::Link && clickable(f, i) && !pager(f, i))
        .collect();
    super::group::largest_run(f, &links)
}

/// The numbered pager control for page `p`.
fn page_control(f: &Facts, p: usize) -> Option<usize> {
    let want = p.to_string();
    (0..f.len()).find(|&i| clickable(f, i) && f.els[i].name.trim() == want)
}

/// Records since the last commit (the search that filled the list).
fn since_commit(h: &[ActionRecord]) -> &[ActionRecord] {
    let from = h
        .iter()
        .rposition(|r| history::tag(r) == Some(StepKind::Commit.as_str()))
        .map_or(0, |k| k + 1);
    &h[from..]
}

/// The page the run last turned to since the commit (1 when it turned none), and the
/// records after that turn.
fn current_page(h: &[ActionRecord]) -> (usize, &[ActionRecord]) {
    let h = since_commit(h);
    let turn = h.iter().rposition(|r| {
        r.action.kind() == arc_core::ActionKind::Click
            && r.on_target()
            && r.target_name.as_deref().is_some_and(is_page_number)
    });
    match turn {
        Some(k) => {
            let page = h[k]
                .target_name
                .as_deref()
                .unwrap_or("1")
                .trim()
                .parse()
                .unwrap_or(1);
            (page, &h[k + 1..])
        }
        None => (1, h),
    }
}

/// Where member `n` is: (page, index on the page), given this page's member count.
fn place(n: usize, per: usize) -> (usize, usize) {
    ((n - 1) / per + 1, (n - 1) % per)
}

/// The next step toward clicking member `n`.
pub fn status(f: &Facts, h: &[ActionRecord], n: usize, what: &str) -> Status {
    let m = members(f);
    if m.is_empty() {
        return Status::Absent(format!("no list of links for {what:?}"));
    }
    let (page, after_turn) = current_page(h);
    // The page size: the first page's (a last page may hold fewer).
    let per = if page == 1 {
        m.len()
    } else {
        m.len().max(per_seen(h).unwrap_or(0))
    };
    let (want_page, index) = place(n, per);
    if want_page != page {
        let Some(c) = page_control(f, want_page) else {
            return Status::Stop(Outcome::NeedsAgent(format!(
                "{what:?} is on page {want_page} ({per} per page), and no control opens that page"
            )));
        };
        return act(
            f,
            c,
            StepKind::Explore,
            format!("{what:?}: page {want_page} of the list, {per} per page"),
        );
    }
    let Some(&target) = m.get(index) else {
        return Status::Stop(Outcome::NeedsAgent(format!(
            "{what:?}: page {page} shows {} member(s), not {}",
            m.len(),
            index + 1
        )));
    };
    if history::clicked_id(after_turn, f.els[target].id.as_str(), None) {
        return Status::Done;
    }
    act(
        f,
        target,
        StepKind::Click,
        format!("{what:?}: member {} on page {page}", index + 1),
    )
}

/// The page size a page turn was decided on (`page_size`, kept in the turn's `raw`).
fn per_seen(h: &[ActionRecord]) -> Option<usize> {
    since_commit(h).iter().rev().find_map(|r| {
        let n = r
            .decision
            .raw
            .as_ref()?
            .pointer("/reflex/per_page")?
            .as_u64()?;
        usize::try_from(n).ok()
    })
}

/// For a page turn of this list (a numbered pager control), the page size it is decided
/// on — the members this page shows — for the next decisions to place the Nth by.
pub fn page_size(f: &Facts, a: &Act) -> Option<usize> {
    let target = a.action.target().and_then(|t| f.index_of(t.as_str()))?;
    (a.kind == StepKind::Explore && is_page_number(&f.els[target].name))
        .then(|| members(f).len())
        .filter(|&n| n > 0)
}

fn act(f: &Facts, i: usize, kind: StepKind, why: String) -> Status {
    Status::Pending(Act {
        action: Action::click(f.els[i].id.clone()),
        kind,
        confidence: 0.7,
        margin: 0.7,
        why: format!("{why} → {}", describe(f, i)),
        order: i,
    })
}

/// The criterion: since the last commit, the run turned to the member's page (or none
/// for page 1) and then clicked the member, still shown at its place on this snapshot.
pub fn holds(f: &Facts, h: &[ActionRecord], n: usize) -> Result<(), String> {
    match status(f, h, n, "the member") {
        Status::Done => Ok(()),
        Status::Pending(a) => Err(format!("not yet: {}", a.why)),
        Status::Absent(why) => Err(why),
        Status::Stop(o) => Err(format!("{o:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse, place};

    #[test]
    fn an_ordinal_result_is_read_and_placed_on_its_page() {
        assert_eq!(
            parse("the 5th search result"),
            Some((5, "search result".into()))
        );
        assert_eq!(parse("the 2nd textbox"), None);
        assert_eq!(parse("the search result"), None);
        assert_eq!(place(5, 3), (2, 1));
        assert_eq!(place(3, 3), (1, 2));
        assert_eq!(place(9, 3), (3, 2));
    }
}
