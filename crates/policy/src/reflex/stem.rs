//! Word stems (Snowball English, `rust-stemmers`), for judging that something is *gone*:
//! "the meeting note is gone" must not hold while the page still shows "Meeting notes".
//! Absence is checked on stems, presence on words as written (a "Save" button must not
//! say "saved").

use rust_stemmers::{Algorithm, Stemmer};
use std::sync::OnceLock;

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Each word of a normalized text (space-separated) by its stem.
pub fn stems(norm: &str) -> String {
    let s = stemmer();
    norm.split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| s.stem(w).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_tenses_share_a_stem() {
        assert_eq!(stems("meeting notes"), stems("meeting note"));
        assert_eq!(stems("deleted items"), stems("delete item"));
        assert_ne!(stems("notes"), stems("nothing"));
    }
}
