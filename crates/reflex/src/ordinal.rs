//! Ordinals in a phrase: "the 3rd textbox", "the second radio button", "the last link".
//! An ordinal picks among the elements a role names, in document order, when the phrase
//! has no other words to ground by.

/// Which one of several.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nth {
    /// 1-based.
    Index(usize),
    Last,
}

impl Nth {
    /// The word as an ordinal: `3rd`, `third`, `last`.
    pub fn parse(w: &str) -> Option<Nth> {
        const WORDS: [&str; 10] = [
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth",
        ];
        if w == "last" {
            return Some(Nth::Last);
        }
        if let Some(i) = WORDS.iter().position(|x| *x == w) {
            return Some(Nth::Index(i + 1));
        }
        let digits = w
            .strip_suffix("st")
            .or_else(|| w.strip_suffix("nd"))
            .or_else(|| w.strip_suffix("rd"))
            .or_else(|| w.strip_suffix("th"))?;
        match digits.parse::<usize>() {
            Ok(n) if (1..=100).contains(&n) => Some(Nth::Index(n)),
            _ => None,
        }
    }

    /// The first ordinal among `words`, and the words without it.
    pub fn split<'a>(words: &[&'a str]) -> (Option<Nth>, Vec<&'a str>) {
        let mut nth = None;
        let mut rest = Vec::with_capacity(words.len());
        for w in words {
            match Nth::parse(w) {
                Some(n) if nth.is_none() => nth = Some(n),
                _ => rest.push(*w),
            }
        }
        (nth, rest)
    }

    /// The chosen one of `candidates` (in document order).
    pub fn pick(self, candidates: &[usize]) -> Option<usize> {
        match self {
            Nth::Index(n) => candidates.get(n - 1).copied(),
            Nth::Last => candidates.last().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_are_read_in_digits_and_words() {
        assert_eq!(Nth::parse("3rd"), Some(Nth::Index(3)));
        assert_eq!(Nth::parse("21st"), Some(Nth::Index(21)));
        assert_eq!(Nth::parse("second"), Some(Nth::Index(2)));
        assert_eq!(Nth::parse("last"), Some(Nth::Last));
        for not in ["rd", "0th", "north", "3", "best"] {
            assert_eq!(Nth::parse(not), None, "{not}");
        }
        let (n, rest) = Nth::split(&["the", "2nd", "textbox"]);
        assert_eq!((n, rest), (Some(Nth::Index(2)), vec!["the", "textbox"]));
        assert_eq!(Nth::Index(2).pick(&[4, 7, 9]), Some(7));
        assert_eq!(Nth::Last.pick(&[4, 7, 9]), Some(9));
        assert_eq!(Nth::Index(4).pick(&[4, 7, 9]), None);
    }
}
