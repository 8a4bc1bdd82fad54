//! Settling on the application's own AT-SPI events: a counter of the object and window
//! events the target app emits (state-changed, text-changed, children-changed, property
//! changes, window create/destroy…). Equal counts mean nothing moved. An app also says
//! it is working with `state-changed:busy` (set, later cleared): while any of its objects
//! is busy, settling goes on.

use atspi::events::{ObjectEvents, WindowEvents};
use atspi::AccessibilityConnection;
use futures_util::StreamExt;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Objects that said busy at most: a bound against an app that never clears it.
const MAX_BUSY: usize = 1024;

pub struct EventCounter {
    count: Arc<AtomicU64>,
    busy: Arc<Mutex<HashSet<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl EventCounter {
    /// Registers for object and window events and counts those sent by `app_bus`.
    pub async fn start(
        a11y: &AccessibilityConnection,
        app_bus: Arc<str>,
    ) -> Result<EventCounter, atspi::AtspiError> {
        a11y.register_event::<ObjectEvents>().await?;
        a11y.register_event::<WindowEvents>().await?;
        let count = Arc::new(AtomicU64::new(0));
        let mut stream = zbus::MessageStream::from(a11y.connection());
        let counter = count.clone();
        let busy: Arc<Mutex<HashSet<String>>> = Arc::default();
        let busy_set = busy.clone();
        let task = tokio::spawn(async move {
            while let Some(msg) = stream.next().await {
                let Ok(msg) = msg else { continue };
                let header = msg.header();
                if header.message_type() != zbus::message::Type::Signal {
                    continue;
                }
                let from_app = header.sender().is_some_and(|s| s.as_str() == &*app_bus);
                let is_event = header
                    .interface()
                    .is_some_and(|i| i.as_str().starts_with("org.a11y.atspi.Event."));
                if !(from_app && is_event) {
                    continue;
                }
                counter.fetch_add(1, Ordering::Relaxed);
                if let Ok(atspi::Event::Object(ObjectEvents::StateChanged(e))) =
                    atspi::Event::try_from(&msg)
                {
                    if e.state == atspi::State::Busy {
                        let mut set = busy_set.lock().unwrap_or_else(|p| p.into_inner());
                        let path = e.item.path_as_str().to_owned();
                        if e.enabled && set.len() < MAX_BUSY {
                            set.insert(path);
                        } else {
                            set.remove(&path);
                        }
                    }
                }
            }
        });
        Ok(EventCounter { count, busy, task })
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Whether some object of the app said busy and has not cleared it.
    pub fn busy(&self) -> bool {
        !self
            .busy
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_empty()
    }
}

impl Drop for EventCounter {
    fn drop(&mut self) {
        self.task.abort();
    }
}
