//! The integration tests of this crate, one binary (one link step) for all of them.

#[path = "common/reflex_pages.rs"]
mod pages;
#[path = "common/reflex_run.rs"]
mod reflex_run;
#[path = "../../../policy/tests/it/common/model_server.rs"]
mod server;

mod reflex_acknowledged;
mod reflex_browser;
mod reflex_capabilities;
mod reflex_choice_unit;
mod reflex_commit_risk;
mod reflex_confirm;
mod reflex_control_kind;
mod reflex_dates;
mod reflex_entry;
mod reflex_explore;
mod reflex_flows;
mod reflex_frames;
mod reflex_free_text;
mod reflex_gerund;
mod reflex_gone;
mod reflex_granted;
mod reflex_grounding;
mod reflex_highlight;
mod reflex_item;
mod reflex_key_value;
mod reflex_kinds;
mod reflex_lookup;
mod reflex_marked;
mod reflex_menu;
mod reflex_opener;
mod reflex_page_value;
mod reflex_parts;
mod reflex_person;
mod reflex_popup;
mod reflex_presumed;
mod reflex_preview;
mod reflex_recovery;
mod reflex_reference;
mod reflex_respond;
mod reflex_risk;
mod reflex_row_action;
mod reflex_saved_value;
mod reflex_section;
mod reflex_signed_in;
mod reflex_stepper;
mod reflex_substituted;
mod reflex_trailing;
mod reflex_truth;
mod reflex_verification;
mod reflex_wizard;
