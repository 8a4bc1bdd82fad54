//! The integration tests of this crate, one binary (one link step) for all of them.
mod common;

mod action_params;
mod checks;
mod contract;
mod deps;
mod error_bounds;
mod hover;
mod loop_guards;
mod loop_monitors;
mod loop_press_facts;
mod loop_termination;
mod monitor;
mod pressed_text;
mod recovery;
mod redact;
mod second_look;
mod settle_effect;
mod submit_and_modifier;
