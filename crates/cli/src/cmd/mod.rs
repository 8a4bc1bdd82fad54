pub mod bench;
pub mod demo;
pub mod eval;
pub mod label;
pub mod observe;
pub mod run;
pub mod validate;
