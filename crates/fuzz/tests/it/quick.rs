//! CI's quick pass: a small run of every target, so every change exercises the
//! properties. Unoptimized code generates and checks cases ~50× slower than the release
//! binary, so the counts keep each under ~10 s on a quiet machine; the long runs are
//! `cargo run --release -p arc-fuzz` (docs/FUZZING.md).

use arc_fuzz::{run, Target};

fn quick(target: Target, cases: u32) {
    let o = run(target, cases, 7);
    eprintln!("{}: {} cases in {:?}", target.as_str(), o.cases, o.elapsed);
    assert!(o.finding.is_none(), "{}: {:?}", target.as_str(), o.finding);
    assert_eq!(o.cases, cases as u64, "{}", target.as_str());
    // The generators must reach acceptance, or the round-trip property never runs.
    assert!(o.accepted > 0, "{}: nothing accepted", target.as_str());
}

#[test]
fn the_subtask_boundary_holds_on_a_quick_run() {
    quick(Target::Subtask, 250);
}

#[test]
fn the_decision_boundary_holds_on_a_quick_run() {
    quick(Target::Decision, 250);
}

#[test]
fn the_view_holds_on_a_quick_run() {
    quick(Target::View, 12);
}

#[test]
fn the_host_transport_holds_on_a_quick_run() {
    quick(Target::Host, 200);
}

#[test]
fn the_mcp_server_holds_on_a_quick_run() {
    quick(Target::Mcp, 100);
}
