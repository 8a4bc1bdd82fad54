//! The desktop backend's tests: a real GTK app on a private Xvfb display and AT-SPI bus.

mod common;

mod actions;
mod covered;
mod ocr;
mod runs;
mod screenshot;
mod tree;
