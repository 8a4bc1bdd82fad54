//! The integration tests of this crate, one binary (one link step) for all of them.
mod common;
#[path = "../../../policy/tests/it/common/model_server.rs"]
mod server;

mod backend_actions;
mod backend_aim;
mod backend_fields;
mod backend_hover;
mod backend_observe;
mod backend_scope;
mod canvas_ocr;
mod chromium;
mod cleanup;
mod crash;
mod dialog_on_load;
mod downloads;
mod frames;
mod kill_all;
mod methods;
mod observe_pictures;
mod observe_unchanged;
mod observe_watched;
mod password_values;
mod pipe;
mod profile;
mod risk_gate;
mod scan;
mod serve;
mod settle_animation;
mod settle_effect;
