//! One tokio runtime for the process: a run's loop is polled on the calling thread
//! (`block_on`), the browser's background tasks on its workers, which outlive a run.

use std::sync::OnceLock;
use tokio::runtime::{Builder, Runtime};

pub fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("arc-cua")
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}
