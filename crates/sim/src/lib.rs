//! Deterministic parts for testing the loop and for the demo: a state-machine backend
//! (the reference `StateMachineBackend`), a scripted policy, and a built-in sign-up app.
//!
//! Nothing here touches the outside world; time enters only through `tokio::time`, so
//! tests may pause it.

pub mod labelled;
pub mod machine;
pub mod scripted;
pub mod signup;

pub use labelled::LabelledScript;
pub use machine::StateMachineBackend;
pub use scripted::ScriptedPolicy;
pub use signup::{SignupApp, SignupState};
