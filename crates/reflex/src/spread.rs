//! One control pressed in several items of a list: `click the "Like" button on all posts
//! by @ann`, `… on 2 posts by @ann`. Every item carries alike controls; the members are
//! the items that show the word best (`item`), and each member's control is pressed once,
//! in document order — a second press would often toggle it back, and the page need not
//! show a press at all, so only the run's records count presses: "all" is every member,
//! N the first N. Its check, a click stated inside the items showing the word (every one,
//! or a count), holds when exactly that many members were pressed an odd number of times
//! and no alike control outside them was.

use super::facts::Facts;
use super::history::presses;
use super::inputs::describe;
use super::item::{items, shows};
use super::step::{Act, Outcome, Status, StepKind};
use super::text::normalize;
use arc_core::{Action, ActionKind, ActionRecord};

/// Items one phrase may press in: a list longer than this is handed back.
pub const MAX_MEMBERS: usize = 30;

/// How many items a phrase names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// "all", "every", "each".
    All,
    /// "2 posts", "one post".
    Exactly(usize),
}

/// "On all posts by @ann": how many items, and the word they show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spread {
    pub count: Count,
    pub word: String,
}

/// The spread a click's object names: `on|in|for (all|every|each|N) [the] <noun>
/// by|from|of <word…>`.
pub fn parse(object: &str) -> Option<Spread> {
    let w: Vec<&str> = object.split(' ').filter(|w| !w.is_empty()).collect();
    let k = w.iter().position(|x| matches!(*x, "on" | "in" | "for"))?;
    let count = match *w.get(k + 1)? {
        "all" | "every" | "each" => Count::All,
        n => Count::Exactly(number(n)?),
    };
    let mut j = k + 2;
    if w.get(j) == Some(&"the") {
        j += 1;
    }
    // The noun ("posts", "rows"), then who or what the items are by.
    w.get(j)?;
    if !matches!(*w.get(j + 1)?, "by" | "from" | "of") {
        return None;
    }
    let word = w.get(j + 2..)?.join(" ");
    (!word.is_empty()).then_some(Spread { count, word })
}

fn number(w: &str) -> Option<usize> {
    const WORDS: [&str; 10] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    w.parse()
        .ok()
        .or_else(|| WORDS.iter().position(|x| *x == w).map(|k| k + 1))
        .filter(|&n| n > 0)
}

/// The controls `named` admits, and those of them in items showing the word best.
fn members(
    f: &Facts,
    named: impl Fn(usize) -> bool,
    word: &str,
) -> Result<(Vec<usize>, Vec<usize>), String> {
    let alike: Vec<usize> = (0..f.len())
        .filter(|&i| f.offers(i, ActionKind::Click) && named(i))
        .collect();
    if alike.len() > MAX_MEMBERS {
        return Err(format!(
            "{} alike controls, more than the bound of {MAX_MEMBERS}",
            alike.len()
        ));
    }
    let want = normalize(word);
    let shown: Vec<usize> = match alike.as_slice() {
        [] => Vec::new(),
        [_] => vec![1],
        _ => items(f, &alike)
            .ok_or_else(|| "the page does not tell its items apart".to_owned())?
            .iter()
            .map(|t| shows(t, &want))
            .collect(),
    };
    let best = shown.iter().copied().max().unwrap_or(0);
    let members = alike
        .iter()
        .zip(&shown)
        .filter(|&(_, &s)| best > 0 && s == best)
        .map(|(&i, _)| i)
        .collect();
    Ok((alike, members))
}

/// How many members the spread asks for, or why it cannot be done.
fn wanted(sp: &Spread, members: usize) -> Result<usize, String> {
    match sp.count {
        Count::All if members > 0 => Ok(members),
        Count::Exactly(n) if n <= members => Ok(n),
        _ => Err(format!(
            "{} item(s) show {:?}, too few for {}",
            members,
            sp.word,
            match sp.count {
                Count::All => "\"all\"".to_owned(),
                Count::Exactly(n) => n.to_string(),
            }
        )),
    }
}

/// The next press: a member not yet pressed, until the count is reached.
pub fn status(
    f: &Facts,
    h: &[ActionRecord],
    named: impl Fn(usize) -> bool,
    sp: &Spread,
    what: &str,
) -> Status {
    let (_, members) = match members(f, named, &sp.word) {
        Ok(m) => m,
        Err(why) => return Status::Stop(Outcome::NeedsAgent(format!("{what}: {why}"))),
    };
    let want = match wanted(sp, members.len()) {
        Ok(n) => n,
        Err(why) if members.is_empty() => return Status::Absent(format!("{what}: {why}")),
        Err(why) => return Status::Stop(Outcome::NeedsAgent(format!("{what}: {why}"))),
    };
    let id = |i: usize| f.els[i].id.as_str();
    let pressed = members
        .iter()
        .filter(|&&i| presses(h, id(i)) % 2 == 1)
        .count();
    if pressed >= want {
        return Status::Done;
    }
    let Some(&next) = members.iter().find(|&&i| presses(h, id(i)) == 0) else {
        return Status::Stop(Outcome::NeedsAgent(format!(
            "{what}: {pressed} of {want} pressed and no member left unpressed"
        )));
    };
    Status::Pending(Act {
        action: Action::click(f.els[next].id.clone()),
        kind: StepKind::Click,
        confidence: 0.8,
        margin: 0.8,
        why: format!(
            "{what}: item {} of {want} showing {:?} → {}",
            pressed + 1,
            sp.word,
            describe(f, next)
        ),
        order: next,
    })
}

/// The criterion: exactly the count of members pressed (an odd number of times), and no
/// alike control outside them.
pub fn holds(
    f: &Facts,
    h: &[ActionRecord],
    named: impl Fn(usize) -> bool,
    sp: &Spread,
) -> Result<(), String> {
    let (alike, members) = members(f, named, &sp.word)?;
    let want = wanted(sp, members.len())?;
    let on = |i: usize| presses(h, f.els[i].id.as_str()) % 2 == 1;
    if let Some(stray) = alike
        .iter()
        .copied()
        .find(|&i| !members.contains(&i) && on(i))
    {
        return Err(format!(
            "{} is pressed, outside the items showing {:?}",
            describe(f, stray),
            sp.word
        ));
    }
    let pressed = members.iter().filter(|&&i| on(i)).count();
    if pressed == want {
        Ok(())
    } else {
        Err(format!(
            "{pressed} of the {want} item(s) showing {:?} pressed",
            sp.word
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_are_read_from_objects_and_criteria() {
        assert_eq!(
            parse("the button on all posts by ann"),
            Some(Spread {
                count: Count::All,
                word: "ann".into()
            })
        );
        assert_eq!(
            parse("the button on 2 posts by ann").map(|s| s.count),
            Some(Count::Exactly(2))
        );
        assert_eq!(
            parse("the button on one post from ann").map(|s| s.count),
            Some(Count::Exactly(1))
        );
        assert_eq!(parse("the button on the left"), None);
        assert_eq!(parse("the like button"), None);
    }
}
