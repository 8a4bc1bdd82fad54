//! Reads a goal into intents: one per clause, each a verb class and the object it names.
//! "Book with the guest name and choose the date" → [Submit "book" (object "with the guest
//! name"), Select "the date"]. Clauses split at punctuation and at "and" /
//! "then" when a verb follows; a clause without a verb continues the previous verb.

use super::ordinal::Nth;
use super::text::is_stopword;
use super::text::normalize;
use super::tokens::{tokenize, Tok};
use super::vocab::{self, is_filler, verb_at, Verb};
use arc_core::{Key, Role, ScrollDirection};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct Intent {
    pub verb: Verb,
    /// The verb phrase, normalized ("sign up").
    pub verb_words: String,
    /// The object, normalized, role words included ("the details tab").
    pub object: String,
    /// The object without role words ("the details").
    pub core: String,
    /// The first quoted string of the clause, verbatim.
    pub quoted: Option<String>,
    /// Roles the object names ("button", "tab", …).
    pub roles: Vec<Role>,
    /// "the 3rd textbox": which of the elements the roles name, when nothing else names it
    /// (`core` is then empty).
    pub nth: Option<Nth>,
    /// "press Enter": the key.
    pub key: Option<Key>,
    pub scroll: Option<ScrollDirection>,
    /// "scroll to the bottom/top": until the page stops moving.
    pub scroll_to_end: bool,
    /// "Select Jinny>Lynett", "open File > Save As": a menu path, normalized items in
    /// order (from the quote if it holds one, else from the object's words).
    pub path: Option<Vec<String>>,
    /// The whole goal, normalized: its other clauses may name the item the object is in
    /// ("find the email by Deva and click the star icon", `item`).
    pub said: Arc<str>,
    /// A click the goal implies by a verb no vocabulary knows ("Archive the Q3 report"):
    /// the control named exactly that word, pressed in the item the rest names — and no
    /// step at all when no control bears the word (`plan`). Holds the clause's words, verb
    /// first: the control's name may be said around the item ("mark INV-2 as paid",
    /// `wrapped`).
    pub implied: Option<Arc<Implied>>,
    /// "Mark X as done": the state's words; where X has no box to tick, the control of
    /// X's bearing them does the marking (`marked`).
    pub state: Option<String>,
}

/// The clause of an implied click, for naming its control on each snapshot (`wrapped`).
#[derive(Clone, Debug, PartialEq)]
pub struct Implied {
    /// The clause's words in order, verb first, a quote's words among them.
    pub words: Vec<String>,
    /// The clause's quote, normalized: it names its item exactly.
    pub quote: Option<String>,
}

pub fn parse(goal: &str) -> Vec<Intent> {
    let toks = tokenize(goal);
    let said: Arc<str> = normalize(goal).into();
    let mut intents: Vec<Intent> = Vec::new();
    let mut last: Option<(Verb, String)> = None;
    // What the previous clause spoke of, for a later "it" ("look up order A-1 and open it").
    let mut before: Vec<String> = Vec::new();
    // Which clause each intent came from (`heading`).
    let mut origin: Vec<usize> = Vec::new();
    for (at, clause) in clauses(&toks).into_iter().enumerate() {
        let words: Vec<&str> = clause
            .iter()
            .filter_map(|t| match t {
                Tok::Word(w) => Some(w.as_str()),
                _ => None,
            })
            .collect();
        let spoke_of = std::mem::replace(&mut before, referent(&words));
        let quote = clause.iter().find_map(|t| match t {
            Tok::Quote(q) => Some(q.clone()),
            _ => None,
        });
        // "Mark X as done": a state, not a control named "mark" (`marked`).
        let marked = super::marked::read(&words);
        let found = match &marked {
            Some((verb, object, _)) => Some((*verb, "mark".to_owned(), *object)),
            None => find_verb(&words)
                .map(|(at, verb, n)| (verb, words[at..at + n].join(" "), &words[at + n..])),
        };
        let (verb, verb_words, object) = match found {
            Some(found) => found,
            // "…, to find and click X": a purpose, not a step of its own.
            None if words.first() == Some(&"to") => continue,
            // "…, and then find and click X": only connectives, the search is the click's.
            None if words.iter().all(|w| is_filler(w)) => continue,
            // A verb-less clause ("…, last name and message") continues the last verb.
            None => match &last {
                Some((verb, vw)) => (*verb, vw.clone(), &words[..]),
                // "Archive the Q3 report": an unknown verb may name the control doing it.
                None => {
                    let quote = quote.as_deref().map(normalize);
                    if let Some(it) = implied(&words, &said, &spoken(&clause), quote) {
                        intents.push(it);
                        origin.push(at);
                    }
                    continue;
                }
            },
        };
        last = Some((verb, verb_words.clone()));
        if verb == Verb::Verify {
            continue;
        }
        let object = without_purpose(verb, object);
        // "tick both off": the particle, not the thing ticked.
        let ticked_off =
            verb == Verb::Check && (verb_words.ends_with(" off") || object.last() == Some(&"off"));
        let object = match object {
            [rest @ .., "off"] if verb == Verb::Check => rest,
            _ => object,
        };
        let resolved: Vec<&str>;
        let object = if matches!(verb, Verb::Open | Verb::Click | Verb::Check | Verb::Uncheck)
            && quote.is_none()
            && is_pronoun_only(object)
            && !spoke_of.is_empty()
        {
            resolved = spoke_of.iter().map(String::as_str).collect();
            &resolved[..]
        } else {
            object
        };
        // "Select nothing and click Submit": choosing nothing is no step of its own (the
        // planner's criterion says what must stay unselected).
        if quote.is_none() && matches!(verb, Verb::Select | Verb::Check) && chooses_nothing(object)
        {
            continue;
        }
        let mut it = intent(verb, verb_words, object, quote);
        it.said = said.clone();
        // Ticking a thing off marks it done, box or no box.
        it.state = marked
            .map(|(_, _, state)| state)
            .or_else(|| ticked_off.then(|| "done".to_owned()));
        intents.push(it);
        origin.push(at);
    }
    // "Log in as jsmith using the keyboard: type the username, press Enter, …": what
    // comes before a colon names the steps after it, when those are steps of their own.
    if let Some(n) = heading(goal) {
        if intents
            .iter()
            .zip(&origin)
            .any(|(it, &at)| at >= n && it.implied.is_none())
        {
            let mut at = origin.iter();
            intents.retain(|_| at.next().is_some_and(|&c| c >= n));
        }
    }
    attach_paths(goal, &mut intents);
    intents
}

/// The number of clauses before the goal's first colon, when one stands outside quotes
/// with words after it.
fn heading(goal: &str) -> Option<usize> {
    let colon = goal.find(':')?;
    let (lead, rest) = (&goal[..colon], &goal[colon + 1..]);
    let quoted = |t: &str| t.contains(['"', '\'', '‘', '“', '«', '„']);
    if quoted(lead) || rest.trim().is_empty() {
        return None;
    }
    Some(clauses(&tokenize(lead)).len())
}

/// The things an object joined by "and" names one by one ("turn on SMS notifications
/// and the weekly digest"): the intent once per side, the verb shared. None when the
/// object is one name (a quote, or no "and").
pub fn parts(it: &Intent) -> Option<Vec<Intent>> {
    if it.quoted.is_some() || it.path.is_some() {
        return None;
    }
    let words: Vec<&str> = it.object.split(' ').filter(|w| !w.is_empty()).collect();
    let sides: Vec<&[&str]> = words.split(|w| *w == "and").collect();
    if sides.len() < 2 || sides.iter().any(|s| s.iter().all(|w| is_stopword(w))) {
        return None;
    }
    Some(
        sides
            .into_iter()
            .map(|side| {
                let mut p = intent(it.verb, it.verb_words.clone(), side, None);
                p.said = it.said.clone();
                p
            })
            .collect(),
    )
}

/// A clause led by a word no vocabulary knows as a verb, then an object: a click on the
/// control named by that word, in the item the object names.
/// A clause's words in order, a quote's among them ("move 'Book venue' to Done" →
/// move book venue to done).
fn spoken(clause: &[Tok]) -> Vec<String> {
    let mut out = Vec::new();
    for t in clause {
        match t {
            Tok::Word(w) => out.push(w.clone()),
            Tok::Quote(q) => out.extend(normalize(q).split(' ').map(str::to_owned)),
            Tok::Break => {}
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

fn implied(
    words: &[&str],
    said: &Arc<str>,
    spoken: &[String],
    quote: Option<String>,
) -> Option<Intent> {
    // "Permanently archive the report", "…, then archive it": the manner and the
    // connective are no control's name.
    let lead = words
        .iter()
        .take_while(|w| vocab::is_adverb(w) || (is_filler(w) && **w != "to"))
        .count();
    let words = &words[lead..];
    let spoken = &spoken[spoken.len().min(lead)..];
    let (verb, object) = words.split_first()?;
    // A search's verb ("look up X") is the search field's to carry out, not a control's.
    let lookup = super::search_box::asks(verb);
    if lookup || is_stopword(verb) || is_filler(verb) || object.is_empty() || verb.len() < 3 {
        return None;
    }
    let mut it = intent(Verb::Click, (*verb).to_owned(), &[*verb], None);
    it.said = said.clone();
    it.implied = Some(Arc::new(Implied {
        words: spoken.to_vec(),
        quote,
    }));
    Some(it)
}

/// An object that is only a pronoun ("it", "them", "both"), articles aside, or a
/// demonstrative with the kind of thing it points back at ("that task", "those items").
fn is_pronoun_only(object: &[&str]) -> bool {
    let words: Vec<&&str> = object
        .iter()
        .filter(|w| !matches!(**w, "the" | "a" | "an"))
        .collect();
    match words.as_slice() {
        [w] => matches!(**w, "it" | "them" | "both"),
        [d, kind] => {
            matches!(**d, "that" | "this" | "these" | "those") && super::stem::is_kind_noun(kind)
        }
        _ => false,
    }
}

/// What a clause speaks of, for a pronoun in the next one: its words after the verb
/// (a known verb's, or a search's — "look up", "search for", "find"), fillers aside.
fn referent(words: &[&str]) -> Vec<String> {
    let after_verb = match find_verb(words) {
        Some((at, _, n)) => &words[at + n..],
        None => words,
    };
    let lookup = |w: &str| super::search_box::asks(w) || matches!(w, "up" | "for");
    after_verb
        .iter()
        .skip_while(|w| is_filler(w) || lookup(w))
        .map(|w| (*w).to_owned())
        .collect()
}

/// An object that names nothing at all: "nothing", "none", "none of them".
fn chooses_nothing(object: &[&str]) -> bool {
    matches!(object, ["nothing" | "none", ..])
}

/// An unquoted menu path ("Select Jinny>Lynett", "open File > Save As"): words lose the
/// separators, so the raw clause is split instead, and the path goes to the intent whose
/// object ends the clause (its verb words are dropped from the first item).
fn attach_paths(goal: &str, intents: &mut [Intent]) {
    for raw in goal.split([',', ';', ':', '!', '?', '\n']) {
        let Some(mut items) = super::menu::path(raw) else {
            continue;
        };
        let joined = items.join(" ");
        let Some(it) = intents.iter_mut().find(|it| {
            it.path.is_none() && !it.object.is_empty() && joined.ends_with(it.object.as_str())
        }) else {
            continue;
        };
        let lead = joined[..joined.len() - it.object.len()].trim_end();
        let first = items[0].strip_prefix(lead).unwrap_or(&items[0]).trim();
        let first = first.strip_prefix("the ").unwrap_or(first).to_owned();
        if first.is_empty() {
            continue;
        }
        items[0] = first;
        it.path = Some(items);
    }
}

/// A scroll clause runs on into a click with no "and" ("scroll the box to the bottom of
/// the text hit submit"): a click verb after the scroll's object, not after an article,
/// starts the next request.
fn runs_on(cur: &[Tok], rest: &[Tok]) -> bool {
    let words: Vec<&str> = cur
        .iter()
        .filter_map(|t| match t {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    let Some((at, Verb::Scroll, n)) = find_verb(&words) else {
        return false;
    };
    let next: Vec<&str> = rest
        .iter()
        .take(3)
        .map_while(|t| match t {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    words.len() > at + n
        && !matches!(words.last(), Some(&("the" | "a" | "an")))
        && matches!(verb_at(&next, 0), Some((Verb::Click, _)))
}

/// "click the trash icon to delete it": what follows "to" is the click's purpose, told of
/// the target by a pronoun, not part of its name.
fn without_purpose<'a, 'w>(verb: Verb, object: &'a [&'w str]) -> &'a [&'w str] {
    if verb != Verb::Click {
        return object;
    }
    let Some(at) = object.iter().position(|w| *w == "to") else {
        return object;
    };
    let named = object[..at].iter().any(|w| !is_stopword(w));
    let refers = object[at + 1..]
        .iter()
        .any(|w| matches!(*w, "it" | "them" | "this" | "that"));
    let purpose = object
        .get(at + 1)
        .is_some_and(|w| !is_stopword(w) && !matches!(*w, "it" | "them"));
    if named && refers && purpose {
        &object[..at]
    } else {
        object
    }
}

/// Splits at breaks, and at "and"/"then" when a verb follows.
fn clauses(toks: &[Tok]) -> Vec<Vec<Tok>> {
    let mut out = vec![Vec::new()];
    for (i, t) in toks.iter().enumerate() {
        let split = match t {
            Tok::Break => true,
            Tok::Word(w) if w == "and" || w == "then" => starts_verb(&toks[i + 1..]),
            Tok::Word(_) => out.last().is_some_and(|c| runs_on(c, &toks[i..])),
            _ => false,
        };
        if split {
            out.push(Vec::new());
        } else if let Some(cur) = out.last_mut() {
            cur.push(t.clone());
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

fn starts_verb(rest: &[Tok]) -> bool {
    let words: Vec<&str> = rest
        .iter()
        .take(4)
        .map_while(|t| match t {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    find_verb(&words).is_some() || marks(rest)
}

/// "… and mark it done": a clause of its own, though "mark" is no verb (`marked`).
fn marks(rest: &[Tok]) -> bool {
    let words: Vec<&str> = rest
        .iter()
        .take_while(|t| !matches!(t, Tok::Break))
        .filter_map(|t| match t {
            Tok::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    super::marked::read(&words).is_some()
}

/// The verb after any leading fillers: (position, verb, word count).
/// Whether any of the texts (the goal, each constraint) says not to commit: a negation
/// ("don't", "do not", "never", "not", "without") with a commit word within three words
/// after it ("so don't save", "Do not press Save", "without submitting").
pub fn forbids_commit<'a>(texts: impl IntoIterator<Item = &'a str>) -> bool {
    texts.into_iter().any(|t| {
        let words: Vec<String> = tokenize(t)
            .into_iter()
            .filter_map(|tok| match tok {
                Tok::Word(w) => Some(w),
                Tok::Quote(q) => Some(normalize(&q)),
                Tok::Break => None,
            })
            .collect();
        let commits = |w: &str| {
            let stem = w.trim_end_matches("ing").trim_end_matches('e');
            vocab::is_submit_word(w)
                || ["submit", "send", "sent", "sav", "confirm", "appl", "finish"]
                    .iter()
                    .any(|s| stem == *s || w.starts_with(s))
        };
        words.iter().enumerate().any(|(i, w)| {
            let negator = matches!(w.as_str(), "not" | "never" | "without")
                || (w == "t" && i > 0 && matches!(words[i - 1].as_str(), "don" | "do"));
            // "leave it unsubmitted", "keep it unsent".
            let undone = w
                .strip_prefix("un")
                .is_some_and(|r| r.len() > 3 && commits(r));
            undone || (negator && words[i + 1..].iter().take(3).any(|w| commits(w)))
        })
    })
}

fn find_verb(words: &[&str]) -> Option<(usize, Verb, usize)> {
    for at in 0..words.len() {
        if let Some((verb, n)) = verb_at(words, at) {
            return Some((at, verb, n));
        }
        if !is_filler(words[at]) && !vocab::is_adverb(words[at]) {
            return None;
        }
    }
    None
}

fn intent(verb: Verb, verb_words: String, object: &[&str], quoted: Option<String>) -> Intent {
    let (mut core_words, roles) = vocab::strip_role_words(object);
    // "the milk chocolate task only": which one, said again; no control is named "only".
    core_words.retain(|w| w != "only");
    let words: Vec<&str> = core_words.iter().map(String::as_str).collect();
    let (nth, rest) = Nth::split(&words);
    // An ordinal picks by position only when nothing else names the element ("the 2nd
    // textbox", not "the first name field").
    let nth = nth.filter(|_| !roles.is_empty() && rest.iter().all(|w| is_stopword(w)));
    if nth.is_some() || core_words.iter().all(|w| is_stopword(w)) {
        core_words.clear();
    }
    let mut it = Intent {
        verb,
        verb_words,
        object: object.join(" "),
        core: core_words.join(" "),
        quoted,
        roles,
        nth,
        key: None,
        scroll: None,
        scroll_to_end: false,
        path: None,
        said: Arc::from(""),
        implied: None,
        state: None,
    };
    it.path = it.quoted.as_deref().and_then(super::menu::path);
    match verb {
        Verb::Click => it.key = pressed_key(&it, object),
        Verb::Scroll => scroll(&mut it, object),
        _ => {}
    }
    it
}

/// "press Enter", "hit the escape key", press "Tab": a key, when that is all the object is.
fn pressed_key(it: &Intent, object: &[&str]) -> Option<Key> {
    if !matches!(it.verb_words.as_str(), "press" | "hit") {
        return None;
    }
    if let Some(q) = &it.quoted {
        return vocab::press_key(&normalize(q).replace(' ', ""));
    }
    let rest: Vec<&str> = object
        .iter()
        .copied()
        .filter(|w| !matches!(*w, "the" | "key" | "a"))
        .collect();
    match rest.as_slice() {
        [w] => vocab::press_key(w),
        [a, b] => vocab::press_key(&format!("{a}{b}")),
        _ => None,
    }
}

fn scroll(it: &mut Intent, object: &[&str]) {
    for w in object {
        match *w {
            "down" | "bottom" => it.scroll = Some(ScrollDirection::Down),
            "up" | "top" => it.scroll = Some(ScrollDirection::Up),
            "left" => it.scroll = Some(ScrollDirection::Left),
            "right" => it.scroll = Some(ScrollDirection::Right),
            _ => {}
        }
    }
    it.scroll_to_end = object
        .iter()
        .any(|w| matches!(*w, "bottom" | "top" | "end"));
    // The target is what follows "to", minus the words that only say where on the page.
    let target: Vec<&str> = match object.iter().position(|w| *w == "to") {
        Some(i) => object[i + 1..]
            .iter()
            .copied()
            .filter(|w| {
                !matches!(*w, "bottom" | "top" | "end" | "down" | "up" | "of")
                    && !vocab::is_page_word(w)
                    && !super::text::is_stopword(w)
            })
            .collect(),
        None => Vec::new(),
    };
    if it.scroll_to_end && target.is_empty() {
        it.core.clear();
    } else {
        it.core = target.join(" ");
    }
    if it.scroll.is_none() && it.core.is_empty() && it.quoted.is_none() {
        it.scroll = Some(ScrollDirection::Down);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_goal_or_constraint_that_says_not_to_commit_is_heard() {
        assert!(forbids_commit([
            "Type the title, I'll finish it myself, so don't save"
        ]));
        assert!(forbids_commit(["Do not press Save"]));
        assert!(forbids_commit(["Fill the form without submitting it"]));
        assert!(forbids_commit([
            "Type it in the box but leave it there unsubmitted"
        ]));
        assert!(forbids_commit(["Write the reply and keep it unsent"]));
        // "unit", "under" are no undone commits.
        assert!(!forbids_commit(["Set the unit price under the total"]));
        assert!(!forbids_commit([
            "Save the note",
            "Do not change the title"
        ]));
    }

    fn verbs(goal: &str) -> Vec<(Verb, String)> {
        parse(goal)
            .into_iter()
            .map(|i| (i.verb, i.object))
            .collect()
    }

    #[test]
    fn clauses_split_at_and_before_a_verb_only() {
        assert_eq!(
            verbs("Sign up with the email address and choose the plan"),
            vec![
                (Verb::Submit, "with the email address".into()),
                (Verb::Select, "the plan".into())
            ]
        );
        assert_eq!(
            verbs("Check the terms and conditions box"),
            vec![(Verb::Check, "the terms and conditions box".into())]
        );
    }

    #[test]
    fn a_clause_led_by_a_verbs_ing_form_asks_for_its_step() {
        let g = parse("Register Lise Meitner, agreeing to the terms");
        assert_eq!(
            g.iter().map(|i| i.verb).collect::<Vec<_>>(),
            [Verb::Submit, Verb::Check],
            "{g:?}"
        );
        assert_eq!(g[1].core, "the terms");
        // "-ing" words that are no verb's form stay words.
        assert_eq!(parse("Open the building plan")[0].core, "the building plan");
    }

    #[test]
    fn a_clause_before_a_colon_names_the_steps_after_it() {
        assert_eq!(
            verbs("Log in as jsmith using the keyboard: type the username, press Enter")
                .into_iter()
                .map(|(v, _)| v)
                .collect::<Vec<_>>(),
            [Verb::Fill, Verb::Click]
        );
        // After the colon only what to say: the clause before is the step.
        assert_eq!(
            verbs("Post a comment as Ada: 'We did the same'")[0].0,
            Verb::Submit
        );
    }

    #[test]
    fn marking_an_item_done_or_ticking_it_off_sets_its_state() {
        let states = |goal: &str| -> Vec<(Verb, String, Option<String>)> {
            parse(goal)
                .into_iter()
                .map(|i| (i.verb, i.core, i.state))
                .collect()
        };
        assert_eq!(
            states("Mark Buy milk as done"),
            [(Verb::Check, "buy milk".into(), Some("done".into()))]
        );
        assert_eq!(
            states("Check off the milk chocolate task only"),
            [(
                Verb::Check,
                "the milk chocolate task".into(),
                Some("done".into())
            )]
        );
        assert_eq!(
            states("Add 'Water the garden' and mark it done right away")[1].0,
            Verb::Check
        );
        assert_eq!(states("Tick the box")[0].2, None);
        // Another state is a control's name: the implied click stays.
        assert!(parse("Mark order #1042 as shipped")[0].implied.is_some());
    }

    #[test]
    fn it_names_what_the_previous_clause_spoke_of() {
        let g = parse("Look up order A-1042 and open it");
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!(
            (g[0].verb, g[0].core.as_str()),
            (Verb::Open, "order a 1042")
        );
        let g = parse("Find the refund article, then open it");
        assert!(
            g.last().is_some_and(|i| i.core.ends_with("refund article")),
            "{g:?}"
        );
        let g = parse("The plants still need watering; mark that task as not done");
        assert_eq!(
            (g[0].verb, g[0].core.as_str()),
            (Verb::Uncheck, "the plants still need watering")
        );
        // A pronoun with nothing before it stays a pronoun.
        assert_eq!(parse("Open it")[0].object, "it");
    }

    #[test]
    fn verbless_clauses_continue_the_previous_verb() {
        let v = verbs("Enter the first name, last name and message, then submit the form");
        assert_eq!(v.len(), 3);
        assert_eq!(v[1], (Verb::Fill, "last name and message".into()));
        assert_eq!(v[2], (Verb::Submit, "the form".into()));
    }

    #[test]
    fn choosing_nothing_is_no_step() {
        let v = verbs("Select nothing and click Submit.");
        assert_eq!(v, vec![(Verb::Click, "submit".into())]);
        // A quoted name is a name, whatever it says.
        assert_eq!(verbs("Select \"None\"").len(), 1);
    }

    #[test]
    fn find_and_click_is_one_click() {
        let v = verbs(
            "Click the \"Menu\" button, and then find and click on the item labeled \"Zoom In\".",
        );
        assert_eq!(v.len(), 2, "{v:?}");
        assert_eq!(v[1].0, Verb::Click);
        assert_eq!(v[1].1, "the item labeled");
        let v =
            verbs("Enter \"cats\" and press Search, then find and click the 5th search result.");
        assert_eq!(
            v.last().map(|x| x.1.as_str()),
            Some("the 5th search result"),
            "{v:?}"
        );
    }

    #[test]
    fn a_purpose_clause_is_no_step() {
        let v = verbs("Expand the sections below, to find and click on the link \"ut.\".");
        assert_eq!(v.len(), 2, "{v:?}");
        assert_eq!(v[0].0, Verb::Expand(true));
        assert_eq!(v[1].0, Verb::Click);
    }

    #[test]
    fn quotes_roles_keys_and_scrolls_are_read() {
        let g = parse("Click the \"Checkout\" button");
        let i = &g[0];
        assert_eq!(i.quoted.as_deref(), Some("Checkout"));
        assert_eq!(i.roles, vec![Role::Button]);
        assert_eq!(parse("then press Enter")[0].key, Some(Key::Enter));
        assert_eq!(parse("Press the Details tab")[0].key, None);
        let s = &parse("Scroll to the bottom of the page")[0];
        assert_eq!(
            (s.scroll, s.scroll_to_end),
            (Some(ScrollDirection::Down), true)
        );
        let g = parse("Scroll the textarea to the bottom of the text hit submit.");
        assert_eq!(g.len(), 2, "{g:?}");
        // "hit submit" names the commit.
        assert_eq!((g[0].verb, g[1].verb), (Verb::Scroll, Verb::Submit));
        assert_eq!(parse("Scroll to the press kit")[0].verb, Verb::Scroll);
        assert_eq!(parse("Scroll to the press kit").len(), 1);
        let s = &parse("Scroll to the footer")[0];
        assert_eq!(s.core, "footer");
        assert!(parse("Make sure the page shows Done").is_empty());
    }
}
