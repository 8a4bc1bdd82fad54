//! Deterministic parts for testing the loop and for the demo: a state-machine backend
//! (the reference `StateMachineBackend`), a scripted policy, and a built-in sign-up app.
//!
//! Nothing here touches the outside world; time enters only through `tokio::time`, so
//! tests may pause it.

pub mod labelled;
pub mod machine;
pub mod signup;

/// The scripted policy lives in core (one home); re-exported here beside the other
/// deterministic parts.
pub use arc_core::ScriptedPolicy;
pub use labelled::LabelledScript;
pub use machine::StateMachineBackend;
pub use signup::{SignupApp, SignupState};
