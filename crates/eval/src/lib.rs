//! The evaluation harness: task suites and their assertion engine, the fixture suite,
//! MiniWoB++, and the scorecard. Assertions read the page itself, never the runtime's
//! own claims.
