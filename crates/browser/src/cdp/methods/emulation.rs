//! The `Emulation` domain.

use serde::Serialize;

use crate::cdp::{cdp_method, Empty};

/// `Emulation.setDeviceMetricsOverride`: fixes the viewport size and device scale factor
/// (0 for `width`/`height`/`device_scale_factor` means "no override").
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetDeviceMetricsOverride {
    pub width: u32,
    pub height: u32,
    pub device_scale_factor: f64,
    pub mobile: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screen_width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screen_height: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_x: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position_y: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dont_set_visible_size: Option<bool>,
}

impl SetDeviceMetricsOverride {
    /// A desktop viewport of `width`×`height` CSS pixels at scale factor 1.
    pub fn desktop(width: u32, height: u32) -> Self {
        SetDeviceMetricsOverride {
            width,
            height,
            device_scale_factor: 1.0,
            ..Default::default()
        }
    }
}
cdp_method!(
    SetDeviceMetricsOverride,
    "Emulation.setDeviceMetricsOverride",
    Empty
);
