//! A watched observation: the last answer shown again without asking the page, while the
//! page has said nothing since. The page's world calls its change notice (a CDP binding,
//! `world.js` `touch`) on the first mutation or event after the answer and re-checks what
//! fires none every 16 ms; any command or event on any session of our socket on the page
//! since the answer (our input, a script, a navigation, the notice itself) ends the hold
//! ([`crate::cdp::Connection::traffic`]). What it spares: the one `Runtime.evaluate` round
//! trip a repeated observation of a quiet page costs (0.4–0.6 ms of the 1.5–1.8 ms an MCP
//! `observe` took on the small fixture pages, docs/EVAL.md).

use super::scan::ScanOptions;
use std::time::Duration;

/// How long after its scan was asked an answer may be held: the page re-checks for
/// `REUSE_MS` (1 s) after it stamps the scan, which is after the ask, so this ends first.
const HOLD: Duration = Duration::from_millis(900);

/// The page's promise to notify, as the backend holds it (on the scan it watches, which
/// keeps when it was asked for).
#[derive(Debug)]
pub(super) struct Watch {
    /// The page's traffic right after the answer.
    traffic: u64,
    /// What the scan read: another read is another question.
    opts: ScanOptions,
}

impl Watch {
    pub fn new(traffic: u64, opts: ScanOptions) -> Watch {
        Watch { traffic, opts }
    }

    /// Whether the answer still stands `since_asked` after its scan was asked for: nothing
    /// crossed the page since, the same read is asked for, and the page is still
    /// re-checking.
    pub fn holds(&self, traffic: u64, opts: &ScanOptions, since_asked: Duration) -> bool {
        self.traffic == traffic && &self.opts == opts && since_asked < HOLD
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hold_ends_with_any_traffic_another_read_or_the_re_checks() {
        let w = Watch::new(7, ScanOptions::default());
        let now = Duration::ZERO;
        assert!(w.holds(7, &ScanOptions::default(), now));
        assert!(!w.holds(8, &ScanOptions::default(), now));
        let other = ScanOptions {
            whole: Some(10),
            ..ScanOptions::default()
        };
        assert!(!w.holds(7, &other, now));
        assert!(!w.holds(7, &ScanOptions::default(), HOLD));
    }
}
