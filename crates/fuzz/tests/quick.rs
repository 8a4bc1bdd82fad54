//! CI's quick pass: a few thousand cases per target, so every change runs the
//! properties (the long runs are `cargo run --release -p arc-fuzz`, see docs/FUZZING.md).

use arc_fuzz::{run, Target};

#[test]
fn every_target_holds_its_properties_on_a_quick_run() {
    for target in Target::ALL {
        let cases = if target == Target::View { 300 } else { 2_000 };
        let o = run(target, cases, 7);
        assert!(o.finding.is_none(), "{}: {:?}", target.as_str(), o.finding);
        assert_eq!(o.cases, cases as u64, "{}", target.as_str());
        // The generators must reach acceptance, or the round-trip property never runs.
        assert!(o.accepted > 0, "{}: nothing accepted", target.as_str());
    }
}
