//! The assertion engine in real headless Chromium on fixture pages: every assertion type
//! passing and failing, and nothing that cannot be evaluated ever panicking.

use crate::common;

use arc_eval::assert::{page, Assertion, Fingerprint};
use common::{expect, Page};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn visible_text_needs_the_text_rendered() {
    let p = Page::open("hidden.html").await;
    let text = |t: &str| json!({"type": "visible_text", "text": t});
    expect(&p.check(text("Visible action")).await, true);
    expect(&p.check(text("Hidden elements")).await, true);
    // Whitespace is collapsed, case is kept.
    expect(&p.check(text("  Visible   action ")).await, true);
    expect(&p.check(text("visible action")).await, false);
    for (hidden, why) in [
        ("Hidden action", "display:none"),
        ("Invisible", "visibility:hidden"),
        ("Zero size", "zero-size"),
        ("Aria hidden", "aria-hidden"),
    ] {
        let o = p.check(text(hidden)).await;
        expect(&o, false);
        assert!(
            o.message.contains("not rendered") && o.message.contains(why),
            "{hidden}: {}",
            o.message
        );
    }
    let o = p.check(text("Not on this page")).await;
    expect(&o, false);
    assert!(o.message.contains("not in the page"), "{}", o.message);
}

#[tokio::test(flavor = "multi_thread")]
async fn visible_text_inside_a_display_none_stage_fails_until_shown() {
    let p = Page::open("multistep.html").await;
    let delivery = json!({"type": "visible_text", "text": "Delivery"});
    let o = p.check(delivery.clone()).await;
    expect(&o, false);
    assert!(
        o.message.contains("display:none on <section#stage-2>"),
        "{}",
        o.message
    );
    expect(
        &p.check(json!({"type": "visible_text", "text": "Step 1 of 3"}))
            .await,
        true,
    );
    p.eval(
        "document.getElementById('name').value = 'Ada'; document.getElementById('next-1').click()",
    )
    .await;
    expect(&p.check(delivery).await, true);
    expect(
        &p.check(json!({"type": "visible_text", "text": "Your name"}))
            .await,
        false,
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn element_state_by_selector_and_by_role() {
    let p = Page::open("hidden.html").await;
    let state = |target: serde_json::Value, s: &str| json!({"type": "element_state", "target": target, "state": s});
    let css = |s: &str| json!({"selector": s});
    expect(&p.check(state(css("#visible"), "visible")).await, true);
    expect(&p.check(state(css("#visible"), "hidden")).await, false);
    for id in ["#display-none", "#invisible", "#zero", "#aria-hidden"] {
        expect(&p.check(state(css(id), "hidden")).await, true);
        expect(&p.check(state(css(id), "visible")).await, false);
        expect(&p.check(state(css(id), "attached")).await, true);
    }
    // Absent: hidden and detached hold, everything else fails.
    expect(&p.check(state(css("#nope"), "hidden")).await, true);
    expect(&p.check(state(css("#nope"), "detached")).await, true);
    expect(&p.check(state(css("#nope"), "visible")).await, false);
    expect(&p.check(state(css("#nope"), "enabled")).await, false);
    let visible = json!({"role": "button", "name": "Visible action"});
    expect(&p.check(state(visible.clone(), "visible")).await, true);
    expect(&p.check(state(visible.clone(), "enabled")).await, true);
    expect(&p.check(state(visible.clone(), "disabled")).await, false);
    expect(&p.check(state(visible.clone(), "detached")).await, false);
    // The role must match too, in any spelling core knows.
    expect(
        &p.check(state(
            json!({"role": "link", "name": "Visible action"}),
            "attached",
        ))
        .await,
        false,
    );
    expect(
        &p.check(state(
            json!({"role": "push button", "name": "Visible action"}),
            "attached",
        ))
        .await,
        true,
    );
    p.eval("document.getElementById('visible').disabled = true")
        .await;
    expect(&p.check(state(visible.clone(), "disabled")).await, true);
    expect(&p.check(state(visible, "enabled")).await, false);
    // A checked state only exists on what can be checked.
    let o = p.check(state(css("#visible"), "checked")).await;
    expect(&o, false);
    assert!(o.message.contains("no checked state"), "{}", o.message);
}

#[tokio::test(flavor = "multi_thread")]
async fn checked_and_selected() {
    let p = Page::open("tabs.html").await;
    let state = |target: serde_json::Value, s: &str| json!({"type": "element_state", "target": target, "state": s});
    let tab = |name: &str| json!({"role": "tab", "name": name});
    expect(&p.check(state(tab("Overview"), "selected")).await, true);
    expect(&p.check(state(tab("Reviews"), "selected")).await, false);
    expect(&p.check(state(tab("Reviews"), "unselected")).await, true);
    p.eval("document.getElementById('tab-reviews').click()")
        .await;
    expect(&p.check(state(tab("Reviews"), "selected")).await, true);

    let p = Page::open("multistep.html").await;
    let css = |s: &str| json!({"selector": s});
    expect(
        &p.check(state(css("#ship-standard"), "checked")).await,
        true,
    );
    expect(
        &p.check(state(css("#ship-express"), "checked")).await,
        false,
    );
    expect(
        &p.check(state(css("#ship-express"), "unchecked")).await,
        true,
    );
    // By role and label: the radio's name comes from its <label for>.
    expect(
        &p.check(state(
            json!({"role": "radio", "name": "Express"}),
            "unchecked",
        ))
        .await,
        true,
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn input_value_url_title_and_state_changed() {
    let p = Page::open("form.html").await;
    let value = |target: serde_json::Value, v: &str| json!({"type": "input_value", "target": target, "value": v});
    let before = page::fingerprint(p.session()).await.expect("a fingerprint");
    let changed = |c: bool| -> Assertion {
        serde_json::from_value(json!({"type": "state_changed", "changed": c})).unwrap()
    };
    let check_changed = |c: bool, fp: Fingerprint| {
        let a = changed(c);
        let session = p.session();
        async move { page::check(session, &a, Some(&fp)).await }
    };
    expect(&check_changed(false, before.clone()).await, true);
    expect(&check_changed(true, before.clone()).await, false);

    expect(
        &p.check(value(json!({"selector": "#first"}), "")).await,
        true,
    );
    expect(
        &p.check(value(json!({"selector": "#first"}), "Ada")).await,
        false,
    );
    p.eval("document.getElementById('first').value = 'Ada'")
        .await;
    expect(
        &p.check(value(json!({"selector": "#first"}), "Ada")).await,
        true,
    );
    expect(
        &p.check(value(
            json!({"role": "textbox", "name": "First name"}),
            "Ada",
        ))
        .await,
        true,
    );
    expect(
        &p.check(value(json!({"selector": "#missing"}), "Ada")).await,
        false,
    );
    // A value typed into a field changes the fingerprint (values are not in the markup).
    expect(&check_changed(true, before.clone()).await, true);
    expect(&check_changed(false, before).await, false);

    expect(
        &p.check(json!({"type": "url", "contains": "/form.html"}))
            .await,
        true,
    );
    expect(
        &p.check(json!({"type": "url", "matches": "^http://127\\.0\\.0\\.1:\\d+/form\\.html$"}))
            .await,
        true,
    );
    expect(
        &p.check(json!({"type": "url", "contains": "/tabs.html"}))
            .await,
        false,
    );
    expect(
        &p.check(json!({"type": "page_title", "equals": "Contact form"}))
            .await,
        true,
    );
    expect(
        &p.check(json!({"type": "page_title", "contains": "Checkout"}))
            .await,
        false,
    );
    // The fragment counts (a same-document navigation).
    p.eval("location.hash = 'done'").await;
    expect(
        &p.check(json!({"type": "url", "contains": "#done"})).await,
        true,
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn what_cannot_be_evaluated_fails_with_the_reason() {
    let p = Page::open("form.html").await;
    let o = p
        .check(
            json!({"type": "element_state", "target": {"selector": "##bad"}, "state": "visible"}),
        )
        .await;
    expect(&o, false);
    assert!(o.message.starts_with("could not evaluate"), "{}", o.message);
    let a: Assertion = serde_json::from_value(json!({"type": "state_changed"})).unwrap();
    let o = page::check(p.session(), &a, None).await;
    expect(&o, false);
    assert!(o.message.contains("no fingerprint"), "{}", o.message);
    // A page that stopped answering (an open alert) is a failed outcome, not a hang.
    p.eval("setTimeout(() => alert('busy'), 0)").await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    let o = p
        .check(json!({"type": "visible_text", "text": "Contact us"}))
        .await;
    expect(&o, false);
    assert!(started.elapsed() < std::time::Duration::from_secs(8));
}

#[tokio::test(flavor = "multi_thread")]
async fn zero_pixel_traps_and_text_split_over_inline_elements() {
    let p = Page::open("form.html").await;
    p.eval(
        r#"document.querySelector('main').insertAdjacentHTML('beforeend', `
        <p>Thank <b>you</b>, <span>Ada</span></p>
        <div style="width:100px;height:20px;overflow:hidden;position:relative">
          <span style="position:absolute;left:300px">Clipped away text</span></div>
        <p style="opacity:0">Transparent text</p>
        <p style="font-size:0">Tiny text</p>
        <div style="height:0;overflow:hidden"><p>Collapsed text</p></div>
        <details><summary>More details</summary><p>Closed details text</p></details>
        <p>Para one</p><p>Para two</p>`)"#,
    )
    .await;
    let text = |t: &str| json!({"type": "visible_text", "text": t});
    expect(&p.check(text("Thank you, Ada")).await, true);
    expect(&p.check(text("More details")).await, true);
    for (hidden, why) in [
        ("Clipped away text", "clipped away"),
        ("Transparent text", "opacity:0"),
        ("Tiny text", "zero size"),
        ("Collapsed text", "zero-size"),
        ("Closed details text", "not rendered (<p>)"),
    ] {
        let o = p.check(text(hidden)).await;
        expect(&o, false);
        assert!(o.message.contains(why), "{hidden}: {}", o.message);
    }
    // Two paragraphs never run together into one match.
    expect(&p.check(text("Para one Para two")).await, false);
}

#[tokio::test(flavor = "multi_thread")]
async fn element_text_reads_text_value_and_selected_index() {
    let p = Page::open("dropdown.html").await;
    let text = |target: &str, property: &str, m: serde_json::Value| json!({"type": "element_text", "target": {"selector": target}, "property": property, "text": m});
    // `text` is the default property: the rendered text, case kept.
    expect(
        &p.check(json!({"type": "element_text", "target": {"selector": "h1"}, "text": {"equals": "Dropdowns"}}))
            .await,
        true,
    );
    expect(
        &p.check(text("h1", "text", json!({"equals": "dropdowns"})))
            .await,
        false,
    );
    expect(
        &p.check(text("h1", "text", json!({"matches": "(?i)^dropdowns$"})))
            .await,
        true,
    );
    expect(
        &p.check(text("#country", "selected_index", json!({"equals": "0"})))
            .await,
        true,
    );
    p.eval("const c = document.getElementById('country'); c.value = 'JP'; c.dispatchEvent(new Event('change'))")
        .await;
    let o = p
        .check(text("#country", "selected_index", json!({"equals": "3"})))
        .await;
    expect(&o, true);
    assert!(o.message.contains("selected index \"3\""), "{}", o.message);
    expect(
        &p.check(text("#country", "value", json!({"equals": "JP"})))
            .await,
        true,
    );
    expect(
        &p.check(text(
            "#country-status",
            "text",
            json!({"contains": "Japan"}),
        ))
        .await,
        true,
    );
    // No such element, or no such property on it: failed with the reason.
    let o = p
        .check(text("#nothing", "text", json!({"contains": "x"})))
        .await;
    expect(&o, false);
    assert!(o.message.contains("no element matches"), "{}", o.message);
    let o = p
        .check(text("h1", "selected_index", json!({"equals": "0"})))
        .await;
    expect(&o, false);
    assert!(o.message.contains("has no selected index"), "{}", o.message);
}
