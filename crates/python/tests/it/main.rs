//! arc-cua-py's Rust tests: the fixtures the Python tests compare against.

mod wire;
