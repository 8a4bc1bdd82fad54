pub mod demo;
pub mod run;
pub mod validate;
