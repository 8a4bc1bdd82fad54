//! Splits planner prose (goals, criteria) into normalized words, verbatim quoted strings
//! and clause breaks. A quoted string names something exactly, so it is never normalized
//! here and never split by the punctuation inside it. (The MiniWoB++ planner has its own
//! `utterance_tokens.rs`: it copies literals out of a benchmark's text, so it keeps case and
//! separators that this reader drops.)

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Word(String),
    Quote(String),
    /// `,` `;` `:` `!` `?` or a sentence-ending `.`.
    Break,
}

pub fn tokenize(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(close) = quote_close(&chars, i) {
            flush(&mut word, &mut out);
            let inner: String = chars[i + 1..close].iter().collect();
            let inner = inner.trim();
            if !inner.is_empty() {
                out.push(Tok::Quote(inner.to_owned()));
            }
            i = close + 1;
            continue;
        }
        let c = chars[i];
        let sentence_end = c == '.' && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        if matches!(c, ',' | ';' | ':' | '!' | '?' | '\n') || sentence_end {
            flush(&mut word, &mut out);
            out.push(Tok::Break);
        } else if c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']') {
            flush(&mut word, &mut out);
        } else {
            word.push(c);
        }
        i += 1;
    }
    flush(&mut word, &mut out);
    out
}

/// The index of the quote closing one opened at `i`, if `i` opens one. Single quotes open
/// only at a word start and close only at a word end, so apostrophes stay in their words.
fn quote_close(chars: &[char], i: usize) -> Option<usize> {
    let word_start = i == 0 || !chars[i - 1].is_alphanumeric();
    let closes: &[char] = match chars[i] {
        '"' => &['"', '”'],
        '“' => &['”', '"'],
        '„' => &['“', '”'],
        '«' => &['»'],
        '\'' | '‘' if word_start => &['\'', '’'],
        _ => return None,
    };
    let single = matches!(chars[i], '\'' | '‘');
    (i + 1..chars.len()).find(|&j| {
        closes.contains(&chars[j])
            && (!single || chars.get(j + 1).is_none_or(|n| !n.is_alphanumeric()))
    })
}

/// Words that join a clause to the one before it ("…, and the message appears").
fn is_conjunction(w: &str) -> bool {
    matches!(
        w.to_lowercase().as_str(),
        "and" | "but" | "then" | "while" | "also" | "plus" | "so" | "with"
    )
}

/// A participle that says what a thing shows, then "that" ("…, showing that we are signed
/// in"): a statement of its own.
fn is_witness(chars: &[char], from: usize) -> bool {
    let rest: String = chars[from..]
        .iter()
        .take(24)
        .collect::<String>()
        .to_lowercase();
    let rest = rest.trim_start();
    ["showing that ", "indicating that ", "confirming that "]
        .iter()
        .any(|p| rest.starts_with(p))
}

/// The clauses of a criterion, each without its leading conjunction: split at `;`, at a
/// sentence's end, and at a comma a conjunction follows ("…ticked, and the message
/// appears"), never inside a quote. A list's commas ("Apples, Pears and Plums") stay.
pub fn clauses(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut i = 0;
    let next_word = |from: usize| -> String {
        chars[from..]
            .iter()
            .skip_while(|c| c.is_whitespace())
            .take_while(|c| c.is_alphanumeric())
            .collect()
    };
    while i < chars.len() {
        if let Some(close) = quote_close(&chars, i) {
            cur.extend(&chars[i..=close]);
            i = close + 1;
            continue;
        }
        let c = chars[i];
        let sentence_end =
            matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        let split = c == ';'
            || sentence_end
            || (c == ',' && (is_conjunction(&next_word(i + 1)) || is_witness(&chars, i + 1)));
        if split {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
        i += 1;
    }
    out.push(cur);
    out.into_iter()
        .map(|c| {
            let t = c.trim();
            let first: String = t.chars().take_while(|c| c.is_alphanumeric()).collect();
            let t: Vec<char> = t.chars().collect();
            let rest: String = if is_witness(&t, 0) {
                // "showing that X": X.
                let s: String = t.iter().collect();
                let k = s.to_lowercase().find(" that ").map_or(0, |k| k + 6);
                s[k..].to_owned()
            } else if is_conjunction(&first) && first.len() < t.len() {
                t[first.chars().count()..].iter().collect()
            } else {
                t.iter().collect()
            };
            rest.trim().to_owned()
        })
        .filter(|c| !c.is_empty())
        .collect()
}

fn flush(word: &mut String, out: &mut Vec<Tok>) {
    if word.is_empty() {
        return;
    }
    let norm = super::text::normalize(without_possessive(word));
    out.extend(
        norm.split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| Tok::Word(w.to_owned())),
    );
    word.clear();
}

/// A possessive's owner ("the status" → "issue"): the "s" is no word of its own
/// that a name could hold. A pronoun's "'s" is "is" or "has" ("it's saved"), kept.
fn without_possessive(word: &str) -> &str {
    let Some(owner) = word
        .strip_suffix("'s")
        .or_else(|| word.strip_suffix("’s"))
        .or_else(|| word.strip_suffix("'S"))
    else {
        return word;
    };
    let pronoun = matches!(
        owner.to_lowercase().as_str(),
        "it" | "that" | "there" | "here" | "what" | "who" | "he" | "she" | "let" | "where"
    );
    if pronoun || owner.is_empty() {
        word
    } else {
        owner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Tok> {
        s.split(' ').map(|w| Tok::Word(w.into())).collect()
    }

    #[test]
    fn quotes_are_kept_verbatim_and_apostrophes_stay_in_words() {
        let t = tokenize("Click the \"Check-out, now\" button. Don't 'Save'");
        let mut want = words("click the");
        want.push(Tok::Quote("Check-out, now".into()));
        want.extend(words("button"));
        want.push(Tok::Break);
        want.extend(words("don t"));
        want.push(Tok::Quote("Save".into()));
        assert_eq!(t, want);
    }

    #[test]
    fn a_criterion_splits_into_clauses_at_joins_not_in_quotes_or_lists() {
        assert_eq!(
            clauses("The box is ticked, and the 'Saved; done' message appears."),
            ["The box is ticked", "the 'Saved; done' message appears"]
        );
        assert_eq!(
            clauses("The cart lists Apples, Pears and Plums"),
            ["The cart lists Apples, Pears and Plums"]
        );
        assert_eq!(
            clauses("Saved; the list shows 3 items"),
            ["Saved", "the list shows 3 items"]
        );
        assert_eq!(clauses("Total is 1.50 EUR"), ["Total is 1.50 EUR"]);
        assert_eq!(
            clauses("The dashboard is displayed, showing that we are logged in"),
            ["The dashboard is displayed", "we are logged in"]
        );
    }

    #[test]
    fn a_possessive_s_is_no_word_but_a_pronoun_s_stays() {
        assert_eq!(
            tokenize("The issue's status, Ada’s note, it's saved"),
            [
                words("the issue status"),
                vec![Tok::Break],
                words("ada note"),
                vec![Tok::Break],
                words("it s saved"),
            ]
            .concat()
        );
    }

    #[test]
    fn decimals_and_addresses_do_not_break_clauses() {
        let t = tokenize("Enter 1.2 kg for ada@example.com, then submit");
        assert_eq!(t.iter().filter(|t| **t == Tok::Break).count(), 1);
    }
}
