//! Templates that name literals for fields: `Enter the <label> "<v>"`, `Enter "<v>" into
//! the <target>`, `Enter <v> as the <target>`, `Select <v> with the <target>`, and search
//! phrases (`directed by <name>`, `from year <y>`).

use super::utterance_tokens::Tok;
use super::words::{
    is_article, is_fill_verb, is_role_word, is_secret_label, is_select_verb, is_value_noun, phrase,
    sentence_start, strip_article,
};
use super::Reading;

/// `Enter the username "ann" and the password "pw"`: the word before each quote is its
/// field's label. A trailing `into the text fields` is read too, unless it asks for more
/// fields ("both", "each") than the labels named.
pub fn labelled_values(toks: &[Tok], r: &mut Reading) {
    // (verb, last quote, labels, its label, its value)
    let mut last: Option<(usize, usize, usize, String, String)> = None;
    for i in 2..toks.len() {
        let (Some(value), Some(label)) = (toks[i].quote(), toks[i - 1].word()) else {
            continue;
        };
        if !toks[i - 2].word().is_some_and(|w| is_article(&w))
            || is_value_noun(&label)
            || is_role_word(&label)
        {
            continue;
        }
        let start = sentence_start(toks, i);
        let Some(verb) = (start..i - 2).find(|&k| toks[k].word().is_some_and(|w| is_fill_verb(&w)))
        else {
            continue;
        };
        r.input(&label, value);
        if !is_secret_label(&label) {
            r.criterion(format!("the {label} field contains {value:?}"));
        }
        r.cover(verb, i + 1);
        let labels = match &last {
            Some((v, _, n, ..)) if *v == verb => n + 1,
            _ => 1,
        };
        last = Some((verb, i, labels, label.clone(), value.to_owned()));
    }
    if let Some((_, quote, labels, label, value)) = last {
        let (target, end) = target_after(toks, quote + 1);
        let words: Vec<&str> = target.as_deref().unwrap_or_default().split(' ').collect();
        let many = words
            .iter()
            .any(|w| matches!(*w, "both" | "each" | "all" | "every"));
        if target.is_some() && (!many || labels >= 2) {
            r.cover(quote + 1, end);
        } else if labels == 1 && words.first() == Some(&"both") && words.len() > 1 {
            // "the password "x" into both text fields": the label's field, and the second
            // of the fields the target names.
            let key = format!("2nd {}", words[1..].join(" "));
            r.input(&key, &value);
            if is_secret_label(&label) {
                r.mark_secret(&key);
            }
            r.cover(quote + 1, end);
        }
    }
}

/// `Enter "<v>" into the text field`, `Type "<v>" in all upper case letters in the text
/// input`, `Use the textbox to enter "<v>"`: the target phrase names the field.
pub fn value_into_target(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        if !toks[i].word().is_some_and(|w| is_fill_verb(&w)) {
            continue;
        }
        let mut j = i + 1;
        // "enter the number "-7"": the noun only says what kind of value follows.
        if toks
            .get(j)
            .and_then(Tok::word)
            .is_some_and(|w| is_article(&w))
            && toks
                .get(j + 1)
                .and_then(Tok::word)
                .is_some_and(|w| is_value_noun(&w))
        {
            j += 2;
        }
        let Some(value) = toks.get(j).and_then(Tok::quote) else {
            continue;
        };
        let (case, after) = letter_case(toks, j + 1);
        let (target, begin, end) = match target_after(toks, after) {
            (Some(t), end) => (Some(t), i, end),
            (None, _) => match used_target(toks, i) {
                Some((t, at)) => (Some(t), at, after),
                None => (None, i, after),
            },
        };
        let value = case.apply(value);
        r.input(target.as_deref().unwrap_or("text"), &value);
        let subject = target.unwrap_or_else(|| "text field".to_owned());
        r.criterion(format!("the {subject} contains {value:?}"));
        r.cover(begin, end);
    }
}

/// `into the 2nd textbox`, `in the text input`: the target's words (article dropped) and
/// where they end.
fn target_after(toks: &[Tok], j: usize) -> (Option<String>, usize) {
    if !toks
        .get(j)
        .is_some_and(|t| t.is_word("into") || t.is_word("in"))
    {
        return (None, j);
    }
    let (words, end) = phrase(toks, j + 1, &["and", "then", "to", "with"]);
    let words = strip_article(&words);
    if words.is_empty() {
        return (None, j);
    }
    (Some(words.join(" ").to_lowercase()), end)
}

/// `Use the textbox to enter …`: the tool named before `to <verb>`, and where `Use` is.
fn used_target(toks: &[Tok], verb: usize) -> Option<(String, usize)> {
    if verb < 3 || !toks[verb - 1].is_word("to") {
        return None;
    }
    let start = sentence_start(toks, verb);
    let use_at = (start..verb).find(|&k| toks[k].is_word("use"))?;
    let (words, end) = phrase(toks, use_at + 1, &["to"]);
    let words = strip_article(&words);
    (end == verb - 1 && !words.is_empty()).then(|| (words.join(" ").to_lowercase(), use_at))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    AsIs,
    Upper,
    Lower,
}

impl Case {
    fn apply(self, s: &str) -> String {
        match self {
            Case::AsIs => s.to_owned(),
            Case::Upper => s.to_uppercase(),
            Case::Lower => s.to_lowercase(),
        }
    }
}

/// `in all upper case letters`, `in lowercase`: how the literal must be written, and where
/// the phrase ends.
fn letter_case(toks: &[Tok], j: usize) -> (Case, usize) {
    if !toks.get(j).is_some_and(|t| t.is_word("in")) {
        return (Case::AsIs, j);
    }
    let (words, end) = phrase(toks, j + 1, &["in", "into", "and"]);
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let has = |w: &str| lower.iter().any(|x| x == w);
    let case = if has("uppercase") || (has("upper") && has("case")) || has("capital") {
        Case::Upper
    } else if has("lowercase") || (has("lower") && has("case")) {
        Case::Lower
    } else {
        return (Case::AsIs, j);
    };
    (case, end)
}

/// `Enter 10/20/2017 as the date`, `Select 5 with the spinner`: the value is the word (or
/// quote) after the verb, the target the phrase after `as the` / `with the`.
pub fn value_as_target(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len().saturating_sub(3) {
        let Some(verb) = toks[i].word() else { continue };
        if !is_fill_verb(&verb) && !is_select_verb(&verb) {
            continue;
        }
        let Some(value) = toks[i + 1].literal() else {
            continue;
        };
        // "Enter 2:53 PM as the time": a clock time keeps its half of the day.
        let half = toks[i + 2]
            .word()
            .filter(|w| matches!(w.as_str(), "am" | "pm" | "a.m" | "p.m"));
        let value = match &half {
            Some(_) => format!("{value} {}", toks[i + 2].literal().unwrap_or_default()),
            None => value.to_owned(),
        };
        let at = i + 2 + usize::from(half.is_some());
        if !toks
            .get(at)
            .is_some_and(|t| t.is_word("as") || t.is_word("with"))
        {
            continue;
        }
        let (words, end) = phrase(toks, at + 1, &["and", "then"]);
        let words = strip_article(&words);
        if words.is_empty() {
            continue;
        }
        let target = words.join(" ").to_lowercase();
        r.input(&target, &value);
        r.criterion(format!("the {target} field contains {value:?}"));
        r.cover(i, end);
    }
}

/// `Search for <genre> movies directed by <name> from year <y>`: the attributes a search
/// form asks for, by their usual wording.
pub fn search_for(toks: &[Tok], r: &mut Reading) {
    let Some(at) = (0..toks.len().saturating_sub(1))
        .find(|&i| toks[i].is_word("search") && toks[i + 1].is_word("for"))
    else {
        return;
    };
    r.cover(at, at + 2);
    let mut i = at + 2;
    while i < toks.len() {
        let w = toks[i].word().unwrap_or_default();
        let next = toks.get(i + 1).and_then(Tok::word).unwrap_or_default();
        let value = toks.get(i + 2).and_then(Tok::literal);
        match (w.as_str(), next.as_str(), value) {
            ("directed", "by", Some(v)) => attribute(r, "director", v, &mut i),
            ("written", "by", Some(v)) => attribute(r, "author", v, &mut i),
            ("from" | "in", "year", Some(v)) => attribute(r, "year", v, &mut i),
            (_, "movies" | "films" | "books" | "songs", _) if i == at + 2 && !w.is_empty() => {
                let genre = toks[i].literal().unwrap_or_default();
                r.input("genre", genre);
                r.criterion(format!("the genre field contains {genre:?}"));
                r.cover(i, i + 2);
                i += 2;
            }
            _ => i += 1,
        }
    }
}

fn attribute(r: &mut Reading, key: &str, value: &str, i: &mut usize) {
    r.input(key, value);
    r.criterion(format!("the {key} field contains {value:?}"));
    r.cover(*i, *i + 3);
    *i += 3;
}

/// `Enter an item that starts with "Sa" and ends with "ino"`: no literal is named, only
/// a constraint on one. The prefix is what to type into the (one) text field; the whole
/// constraint is the criterion, which the runtime satisfies by picking a suggestion.
pub fn constrained_item(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len() {
        if !toks[i].word().is_some_and(|w| is_fill_verb(&w)) {
            continue;
        }
        // "an item that starts with": an article, a value noun, "that".
        let noun = toks
            .get(i + 1)
            .and_then(Tok::word)
            .is_some_and(|w| is_article(&w))
            && toks
                .get(i + 2)
                .and_then(Tok::word)
                .is_some_and(|w| is_value_noun(&w))
            && toks
                .get(i + 3)
                .is_some_and(|t| t.is_word("that") || t.is_word("which"));
        let starts = toks
            .get(i + 4)
            .is_some_and(|t| t.is_word("starts") || t.is_word("begins"))
            && toks.get(i + 5).is_some_and(|t| t.is_word("with"));
        let Some(prefix) = toks
            .get(i + 6)
            .and_then(Tok::quote)
            .filter(|_| noun && starts)
        else {
            continue;
        };
        let mut end = i + 7;
        let mut suffix = None;
        if toks.get(end).is_some_and(|t| t.is_word("and"))
            && toks.get(end + 1).is_some_and(|t| t.is_word("ends"))
            && toks.get(end + 2).is_some_and(|t| t.is_word("with"))
        {
            if let Some(q) = toks.get(end + 3).and_then(Tok::quote) {
                suffix = Some(q.to_owned());
                end += 4;
            }
        }
        // No field is named: the one text field.
        r.input("text field", prefix);
        let tail = suffix
            .map(|x| format!(" and ends with {x:?}"))
            .unwrap_or_default();
        r.criterion(format!("the text field starts with {prefix:?}{tail}"));
        r.cover(i, end);
    }
}

/// `Set the sliders to the combination [3,17,5]`: one value per control of that kind, in
/// order on the page ("1st slider" 3, "2nd slider" 17, "3rd slider" 5).
pub fn values_per_control(toks: &[Tok], r: &mut Reading) {
    for i in 0..toks.len().saturating_sub(3) {
        if !toks[i].is_word("set") || !toks[i + 1].word().is_some_and(|w| is_article(&w)) {
            continue;
        }
        let Some(noun) = toks[i + 2]
            .word()
            .and_then(|w| w.strip_suffix('s').map(str::to_owned))
            .filter(|w| w.len() > 2)
        else {
            continue;
        };
        if !toks.get(i + 3).is_some_and(|t| t.is_word("to")) {
            continue;
        }
        // "to the combination [a,b,c]": the bracketed list within the next few tokens.
        let Some((at, list)) = (i + 4..toks.len().min(i + 8)).find_map(|k| {
            let w = toks[k].literal()?;
            let inner = w.strip_prefix('[')?.strip_suffix(']')?;
            Some((
                k,
                inner
                    .split(',')
                    .map(|v| v.trim().to_owned())
                    .collect::<Vec<_>>(),
            ))
        }) else {
            continue;
        };
        if list.is_empty() || list.iter().any(|v| v.is_empty()) {
            continue;
        }
        for (k, v) in list.iter().enumerate() {
            let key = format!("{} {noun}", ordinal(k + 1));
            r.input(&key, v);
            r.criterion(format!("the {key} shows {v:?}"));
        }
        // "… and submit": the form's commit, which `read` requires of a filled form.
        let submit = toks.get(at + 1).is_some_and(|t| t.is_word("and"))
            && toks.get(at + 2).is_some_and(|t| t.is_word("submit"));
        r.cover(i, at + 1 + 2 * usize::from(submit));
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
