//! The session's view memo: a quiet page observed again shows the same view under a new
//! observation id, and any change — a DOM edit, a value set by script, a password typed
//! into the page — shows on the very next observe (the page's own state is the oracle).
//! Drives real headless Chromium (`Rig`).

use crate::common::Rig;
use serde_json::json;

fn view(o: &serde_json::Value) -> &str {
    o["view"].as_str().unwrap_or_else(|| panic!("no view: {o}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unchanged_page_shows_the_same_view_and_a_change_shows_on_the_next_observe() {
    let rig = Rig::start().await;
    let (mut c, s) = rig.opened("events.html", json!({})).await;
    let first = c.observe(&s).await;
    let again = c.observe(&s).await;
    assert_eq!(view(&first), view(&again));
    assert_eq!(first["tokens"], again["tokens"]);
    assert_ne!(first["observation_id"], again["observation_id"]);

    // A text edit fires only a mutation.
    rig.eval(
        &s.target_id,
        "document.getElementById('result').textContent = 'memo-edit-1'; 1",
    )
    .await;
    let edited = c.observe(&s).await;
    assert!(view(&edited).contains("memo-edit-1"), "{}", view(&edited));

    // A value set by script fires nothing at all.
    rig.eval(
        &s.target_id,
        "document.getElementById('text').value = 'memo-value-2'; 1",
    )
    .await;
    let valued = c.observe(&s).await;
    assert!(view(&valued).contains("memo-value-2"), "{}", view(&valued));
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('text').value")
            .await,
        "memo-value-2"
    );

    // Observed twice more unchanged, then reverted: the earlier text is gone at once.
    let quiet = c.observe(&s).await;
    assert_eq!(view(&quiet), view(&valued));
    rig.eval(
        &s.target_id,
        "document.getElementById('result').textContent = ''; \
         document.getElementById('text').value = ''; 1",
    )
    .await;
    let reverted = c.observe(&s).await;
    assert!(
        !view(&reverted).contains("memo-edit-1"),
        "{}",
        view(&reverted)
    );
    assert!(
        !view(&reverted).contains("memo-value-2"),
        "{}",
        view(&reverted)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_learned_after_a_view_was_shown_is_redacted_in_the_next_one() {
    let rig = Rig::start().await;
    let (mut c, s) = rig
        .opened("events.html", json!({"allow_input": true}))
        .await;
    // The page shows a text that is not (yet) known to be a secret.
    rig.eval(
        &s.target_id,
        "document.getElementById('result').textContent = 'memo-pw-77x'; \
         document.querySelector('main').insertAdjacentHTML('beforeend', \
         '<p><label for=pw>Password</label> <input type=password id=pw></p>'); 1",
    )
    .await;
    let shown = c.observe(&s).await;
    assert!(view(&shown).contains("memo-pw-77x"), "{}", view(&shown));
    // The same text typed into a password field: from now on a secret.
    let (pw, obs) = c.find_role(&s, "password_field", "Password").await;
    let typed = c
        .call(
            "act",
            json!({"session": s.auth, "observation_id": obs,
                   "action": {"kind": "TYPE_TEXT", "target_id": pw, "text": "memo-pw-77x"}}),
        )
        .await;
    assert_eq!(typed["ok"], true, "{typed}");
    assert_eq!(
        rig.eval(&s.target_id, "document.getElementById('pw').value")
            .await,
        "memo-pw-77x"
    );
    // The page still shows the text; the host does not.
    for _ in 0..2 {
        let after = c.observe(&s).await;
        assert!(!view(&after).contains("memo-pw-77x"), "{}", view(&after));
        assert!(view(&after).contains("[secret]"), "{}", view(&after));
    }
}
