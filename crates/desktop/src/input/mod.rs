//! Input: background through accessibility interfaces (`background.rs`), physical through
//! XTest (`xtest.rs`) only where none serves.

pub mod background;
pub mod hit_test;
pub mod point;
pub mod xtest;
