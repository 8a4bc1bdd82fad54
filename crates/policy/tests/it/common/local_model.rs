//! The local model for the tests that need real inference: Gemma 3 270M on llama.cpp's
//! server, started once per test binary by `scripts/model-serve.sh` (which `.ci/run`'s
//! `scripts/model-fetch.sh` provisioned) and left serving for the other tests; the
//! test script stops it at the end. Missing is a failure that says what to run, never a
//! skip.
#![allow(dead_code)]

use arc_policy::ModelConfig;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// The OpenAI base URL of the local model, started if it is not serving.
pub fn base_url() -> String {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/model-serve.sh");
        let out = Command::new("bash")
            .arg(&script)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(
            out.status.success(),
            "the local model does not serve (run scripts/model-fetch.sh first):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        stdout.lines().next().unwrap_or_default().trim().to_owned()
    })
    .clone()
}

/// A configuration for the local model: one attempt per request, and the patience a
/// 270M model on two loaded cores needs (a 3,100-token prompt took 45 s).
pub fn config() -> ModelConfig {
    let mut c = ModelConfig::new(base_url(), "gemma-3-270m");
    c.timeout = Duration::from_secs(180);
    c.max_attempts = 1;
    c
}
