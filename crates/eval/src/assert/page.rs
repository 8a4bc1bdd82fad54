//! Assertions checked in a live Chromium page through `Runtime.evaluate`, by the function
//! in `page.js`: the page's own DOM and computed styles, read independently of the
//! runtime under test. Roles and names come from arc-browser's in-page engine
//! ([`arc_browser::ARIA_JS`]), the one its scan uses, so both name an element alike.
//!
//! The function runs in the page's main world, so a hostile page could lie to it; the
//! fixture site and the benchmarks do not.

use super::{Assertion, AssertionOutcome, ElementState, Fingerprint, Locator, TextProperty};
use arc_browser::{PageSession, ARIA_JS};
use arc_core::Role;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;

const PAGE_JS: &str = include_str!("page.js");

/// One evaluate never waits longer than this (an open `alert` makes the page mute).
const EVAL_TIMEOUT: Duration = Duration::from_secs(5);

/// Calls the page function with `request`.
async fn ask<T: DeserializeOwned>(page: &PageSession, request: Value) -> Result<T, String> {
    let expression = format!("({PAGE_JS})({ARIA_JS}, {request})");
    let value = tokio::time::timeout(EVAL_TIMEOUT, page.evaluate(&expression))
        .await
        .map_err(|_| format!("the page did not answer within {EVAL_TIMEOUT:?}"))?
        .map_err(|e| e.to_string())?;
    serde_json::from_value(value).map_err(|e| format!("unexpected answer from the page: {e}"))
}

/// The page's state digest (see [`Fingerprint`]).
pub async fn fingerprint(page: &PageSession) -> Result<Fingerprint, String> {
    ask::<String>(page, json!({"op": "fingerprint"}))
        .await
        .map(Fingerprint)
}

/// Checks every assertion; `before` is the fingerprint taken before the run.
pub async fn check_all(
    page: &PageSession,
    assertions: &[Assertion],
    before: Option<&Fingerprint>,
) -> Vec<AssertionOutcome> {
    let mut out = Vec::with_capacity(assertions.len());
    for a in assertions {
        out.push(check(page, a, before).await);
    }
    out
}

/// Checks one assertion. Never fails: what cannot be evaluated is a failed outcome.
pub async fn check(
    page: &PageSession,
    assertion: &Assertion,
    before: Option<&Fingerprint>,
) -> AssertionOutcome {
    match evaluate(page, assertion, before).await {
        Ok(outcome) => outcome,
        Err(why) => AssertionOutcome::fail(assertion, format!("could not evaluate: {why}")),
    }
}

#[derive(Deserialize)]
struct Location {
    url: String,
    title: String,
}

#[derive(Deserialize)]
struct TextFacts {
    visible: bool,
    present: bool,
    reason: Option<String>,
}

#[derive(Deserialize)]
struct Located {
    matches: Vec<ElementFacts>,
}

/// What the page says about one element.
#[derive(Deserialize)]
struct ElementFacts {
    element: String,
    role: String,
    name: String,
    visible: bool,
    hidden_reason: Option<String>,
    enabled: bool,
    checked: Option<bool>,
    selected: Option<bool>,
    value: Option<String>,
    text: String,
    selected_index: Option<i64>,
}

/// Why a page cannot judge [`Assertion::Rows`].
pub(crate) const NO_DATABASE: &str = "a row change is judged on an app's database (eval apps)";

async fn evaluate(
    page: &PageSession,
    assertion: &Assertion,
    before: Option<&Fingerprint>,
) -> Result<AssertionOutcome, String> {
    let judge = |ok: bool, message: String| AssertionOutcome::judge(assertion, ok, message);
    Ok(match assertion {
        Assertion::Url(m) => {
            let at: Location = ask(page, json!({"op": "location"})).await?;
            judge(m.is_match(&at.url), format!("the URL is {:?}", at.url))
        }
        Assertion::PageTitle(m) => {
            let at: Location = ask(page, json!({"op": "location"})).await?;
            judge(
                m.is_match(&at.title),
                format!("the title is {:?}", at.title),
            )
        }
        Assertion::VisibleText { text } => {
            let t: TextFacts = ask(page, json!({"op": "text", "text": text})).await?;
            let message = match (t.visible, t.present) {
                (true, _) => format!("{text:?} is rendered"),
                (false, true) => format!(
                    "{text:?} is in the page but not rendered: {}",
                    t.reason.as_deref().unwrap_or("hidden")
                ),
                (false, false) => format!("{text:?} is not in the page"),
            };
            judge(t.visible, message)
        }
        Assertion::ElementState { target, state } => {
            let found = locate(page, target).await?;
            let (ok, message) = element_state(target, *state, &found);
            judge(ok, message)
        }
        Assertion::InputValue { target, value } => {
            let found = locate(page, target).await?;
            match found.first() {
                None => judge(false, format!("no element matches {target}")),
                Some(e) => match &e.value {
                    Some(v) => judge(v == value, format!("{} has value {v:?}", e.element)),
                    None => judge(false, format!("{} has no value", e.element)),
                },
            }
        }
        Assertion::ElementText {
            target,
            property,
            text,
        } => {
            let found = locate(page, target).await?;
            let Some(e) = found.first() else {
                return Ok(judge(false, format!("no element matches {target}")));
            };
            let read = match property {
                TextProperty::Text => Some(e.text.clone()),
                TextProperty::Value => e.value.clone(),
                TextProperty::SelectedIndex => e.selected_index.map(|i| i.to_string()),
            };
            match read {
                Some(got) => judge(
                    text.is_match(&got),
                    format!("{} has {} {got:?}", e.element, property.as_str()),
                ),
                None => judge(false, format!("{} has no {}", e.element, property.as_str())),
            }
        }
        Assertion::StateChanged { changed } => {
            let Some(before) = before else {
                return Err("no fingerprint was taken before the run".into());
            };
            let now = fingerprint(page).await?;
            let differs = &now != before;
            let message = if differs {
                "the page differs from before the run"
            } else {
                "the page is as it was before the run"
            };
            judge(differs == *changed, message.to_owned())
        }
        Assertion::Rows { .. } => return Err(NO_DATABASE.into()),
    })
}

/// Every element the locator finds, in document order (role locators filtered here, by
/// `Role::parse`, so any spelling of a role matches the page's ARIA role).
async fn locate(page: &PageSession, target: &Locator) -> Result<Vec<ElementFacts>, String> {
    let request = match target {
        Locator::Css(selector) => json!({"op": "locate", "selector": selector}),
        Locator::Role { name, .. } => json!({"op": "locate", "name": name}),
    };
    let found: Located = ask(page, request).await?;
    Ok(match target {
        Locator::Css(_) => found.matches,
        Locator::Role { role, .. } => found
            .matches
            .into_iter()
            .filter(|m| &Role::parse(&m.role) == role)
            .collect(),
    })
}

fn element_state(target: &Locator, state: ElementState, found: &[ElementFacts]) -> (bool, String) {
    let Some(e) = found.first() else {
        let ok = matches!(state, ElementState::Hidden | ElementState::Detached);
        return (ok, format!("no element matches {target}"));
    };
    let mut what = format!("{} ({} {:?})", e.element, e.role, e.name);
    if found.len() > 1 {
        what.push_str(&format!(", the first of {} matches,", found.len()));
    }
    let flag = |v: Option<bool>, word: &str| match v {
        Some(true) => format!("{what} is {word}"),
        Some(false) => format!("{what} is not {word}"),
        None => format!("{what} has no {word} state"),
    };
    match state {
        ElementState::Visible | ElementState::Hidden => {
            let message = match &e.hidden_reason {
                None => format!("{what} is rendered"),
                Some(r) => format!("{what} is not rendered: {r}"),
            };
            (e.visible == (state == ElementState::Visible), message)
        }
        ElementState::Enabled | ElementState::Disabled => {
            let word = if e.enabled { "enabled" } else { "disabled" };
            (
                e.enabled == (state == ElementState::Enabled),
                format!("{what} is {word}"),
            )
        }
        ElementState::Checked => (e.checked == Some(true), flag(e.checked, "checked")),
        ElementState::Unchecked => (e.checked == Some(false), flag(e.checked, "checked")),
        ElementState::Selected => (e.selected == Some(true), flag(e.selected, "selected")),
        ElementState::Unselected => (e.selected == Some(false), flag(e.selected, "selected")),
        ElementState::Attached => (true, format!("{what} is in the document")),
        ElementState::Detached => (false, format!("{what} is still in the document")),
    }
}
