//! Closing the tabs our page opened (`window.open`, `target=_blank`), for a caller that
//! is done with the page and must leave nothing of it behind.

use super::BrowserBackend;
use crate::cdp::events::TargetDestroyed;
use crate::cdp::methods::target::CloseTarget;
use crate::cdp::TargetId;
use std::collections::HashSet;
use std::time::Duration;

/// How long the browser gets to report every closed tab gone.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

impl BrowserBackend {
    /// The tabs our page opened that are still open, oldest first.
    pub fn opened_tabs(&self) -> Vec<TargetId> {
        let s = self.shared.lock();
        s.popups.iter().map(|p| p.target_id.clone()).collect()
    }

    /// Closes every tab our page opened and waits (bounded) until the browser reports
    /// each destroyed, so its own target list no longer shows them.
    pub async fn close_opened_tabs(&self) {
        let mut left: HashSet<TargetId> = self.opened_tabs().into_iter().collect();
        if left.is_empty() {
            return;
        }
        // Subscribed before closing, so no destruction is missed.
        let mut events = self.browser.subscribe();
        for target_id in left.clone() {
            if self
                .browser
                .call(CloseTarget {
                    target_id: target_id.clone(),
                })
                .await
                .is_err()
            {
                // Already gone (or the browser is): nothing to wait for.
                left.remove(&target_id);
            }
        }
        let gone = async {
            while !left.is_empty() {
                let Some(event) = events.recv().await else {
                    return;
                };
                if let Some(Ok(d)) = event.parse::<TargetDestroyed>() {
                    left.remove(&d.target_id);
                }
            }
        };
        let _ = tokio::time::timeout(CLOSE_WAIT, gone).await;
    }
}
