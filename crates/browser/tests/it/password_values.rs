//! What a page's password fields hold reaches a redactor and nothing else: the scan (and
//! the full read) reports the values apart from the elements, which show a filled field
//! as `••••`; a run redacts the page's echo of it from its result and events.
//! Drives real headless Chromium on `password-echo.html`, whose own script fills the field.

use crate::common::Fixture;
use arc_browser::backend::{BrowserOptions, Scope};
use arc_core::{Decision, Executor, Role, RuntimeConfig, ScriptedPolicy, Subtask, TerminalKind};

const PASSWORD: &str = "Quartz7Zebra";

#[tokio::test(flavor = "multi_thread")]
async fn password_values_come_apart_from_the_elements_in_every_scope() {
    let scopes = [
        ("password-echo.html", BrowserOptions::default()),
        ("password-echo.html?large=1", BrowserOptions::default()),
        (
            "password-echo.html",
            BrowserOptions {
                scope: Scope::Full,
                ..BrowserOptions::default()
            },
        ),
    ];
    for (page, options) in scopes {
        let mut f = Fixture::open_with(page, options).await;
        let snapshot = f.observe().await;
        let field = snapshot
            .elements
            .iter()
            .find(|e| e.role == Role::PasswordField && e.name == "Password")
            .unwrap_or_else(|| panic!("{page}: a password field"));
        // Masked: the scan says `••••`, Chromium's tree a bullet per character.
        let value = field.value.as_ref().map(|v| v.as_text().into_owned());
        assert!(
            value
                .as_deref()
                .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c == '•')),
            "{page}: {value:?}"
        );
        // The hidden field laid over Save holds it too: one value, once.
        assert_eq!(snapshot.password_values(), [PASSWORD], "{page}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_redacts_the_page_s_echo_of_a_password_from_its_result_and_events() {
    let f = Fixture::open("password-echo.html").await;
    let policy = ScriptedPolicy::new([Decision::terminal(TerminalKind::SubtaskComplete)]);
    let mut ex = Executor::new(f.backend, policy, RuntimeConfig::default());
    let mut events = Vec::new();
    let subtask = Subtask::new("Read the page", "The page shows Sign in");
    let result = ex
        .run_with(&subtask, |e| {
            events.push(serde_json::to_string(&e).unwrap())
        })
        .await;
    let shown = serde_json::to_string(&result).unwrap();
    assert!(shown.contains("Your password is [secret]"), "{shown}");
    assert!(!shown.contains(PASSWORD), "{shown}");
    assert!(events.iter().all(|e| !e.contains(PASSWORD)), "{events:?}");
}
