//! A session's provider, started on first use and lent out for each read.

use crate::provider::OcrProvider;
use std::sync::Mutex;

/// Holds one [`OcrProvider`] between reads. A backend moves it onto a blocking thread for
/// a read (`take`) and back (`put`); the mutex only keeps the holder `Sync` (Tesseract's
/// handle is not) and is never contended. A failed start is remembered, not retried.
#[derive(Default)]
pub struct LazyProvider {
    slot: Mutex<Option<OcrProvider>>,
    failed: Option<String>,
}

impl LazyProvider {
    /// The provider, started now if this is the first read (≈ 66 ms); why not, if
    /// Tesseract cannot start.
    pub fn take(&mut self) -> Result<OcrProvider, String> {
        if let Some(why) = &self.failed {
            return Err(why.clone());
        }
        let slot = self.slot.get_mut().unwrap_or_else(|p| p.into_inner());
        if let Some(p) = slot.take() {
            return Ok(p);
        }
        OcrProvider::new().map_err(|e| {
            self.failed = Some(e.to_string());
            e.to_string()
        })
    }

    pub fn put(&mut self, provider: OcrProvider) {
        *self.slot.get_mut().unwrap_or_else(|p| p.into_inner()) = Some(provider);
    }
}
