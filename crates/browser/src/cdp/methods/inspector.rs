//! The `Inspector` domain: enabled so a crashed renderer is announced
//! (`Inspector.targetCrashed`) on the page's own session.

use serde::Serialize;

use crate::cdp::{cdp_method, Empty};

/// `Inspector.enable`.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Enable {}
cdp_method!(Enable, "Inspector.enable", Empty);
