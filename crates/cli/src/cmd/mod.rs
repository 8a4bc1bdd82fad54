pub mod bench;
pub mod demo;
pub mod eval;
pub mod eval_import;
pub mod label;
pub mod observe;
pub mod run;
pub mod validate;
