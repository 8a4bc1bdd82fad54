//! When OCR elements join a snapshot.

use arc_core::element::{Element, Source};
use std::fmt;
use std::str::FromStr;

/// `auto`: only when the target exposes no labelled, enabled control (a canvas-only or
/// inaccessible window); `always`; `never`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OcrMode {
    #[default]
    Auto,
    Always,
    Never,
}

impl OcrMode {
    pub const NAMES: [&'static str; 3] = ["auto", "always", "never"];

    pub fn as_str(self) -> &'static str {
        match self {
            OcrMode::Auto => "auto",
            OcrMode::Always => "always",
            OcrMode::Never => "never",
        }
    }

    /// Whether to OCR a target whose accessible elements are `existing`.
    pub fn wants_ocr(self, existing: &[Element]) -> bool {
        match self {
            OcrMode::Always => true,
            OcrMode::Never => false,
            OcrMode::Auto => !existing.iter().any(is_labelled_control),
        }
    }
}

/// An accessible control a person could use by its label.
fn is_labelled_control(e: &Element) -> bool {
    e.source != Source::Ocr
        && e.visible
        && e.enabled
        && !e.actions.is_empty()
        && !e.name.trim().is_empty()
        && !e.role.is_modal_container()
}

impl fmt::Display for OcrMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for OcrMode {
    type Err = String;

    fn from_str(s: &str) -> Result<OcrMode, String> {
        match s {
            "auto" => Ok(OcrMode::Auto),
            "always" => Ok(OcrMode::Always),
            "never" => Ok(OcrMode::Never),
            other => Err(format!(
                "unknown OCR mode {other:?}; expected one of {}",
                OcrMode::NAMES.join(", ")
            )),
        }
    }
}
