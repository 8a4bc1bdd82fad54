//! WebArena and OSWorld task files into our format, on the hand-written samples in the
//! upstream formats (`fixtures/external`): what maps to which assertion, what is flagged
//! and why, placeholders, bad input, nothing dropped, and the mapped checks holding (and
//! failing) on a real page in Chromium.

use crate::common;

use arc_eval::assert::{page, TextProperty};
use arc_eval::mappers::{
    osworld, webarena, Benchmark, Blocker, Coverage, MapError, Mapped, Note, Reason, SiteMap,
};
use arc_eval::{suite, Assertion, Locator, Start, TextMatch};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn external(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/external")
        .join(path)
}

fn sites() -> SiteMap {
    let mut s = SiteMap::new();
    for (name, url) in [
        ("SHOPPING", "http://shop.test:7770"),
        ("SHOPPING_ADMIN", "http://shop.test:7780/admin/"),
        ("GITLAB", "http://gitlab.test:8023"),
        ("REDDIT", "http://reddit.test:9999"),
        ("MAP", "http://map.test:3000"),
    ] {
        s.insert(name, url).unwrap();
    }
    s
}

fn webarena_sample() -> Vec<Mapped> {
    webarena::map_file(&external("webarena/sample.json"), &sites()).expect("the sample maps")
}

fn by_id<'m>(all: &'m [Mapped], id: &str) -> &'m Mapped {
    all.iter()
        .find(|m| m.id.as_str() == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

fn kinds(m: &Mapped) -> (Vec<&str>, Vec<&str>) {
    (
        m.checks.iter().map(|c| c.kind.as_str()).collect(),
        m.unsupported.iter().map(|u| u.kind.as_str()).collect(),
    )
}

/// The regex source of a `url` or `element_text` assertion.
fn pattern(a: &Assertion) -> &str {
    match a {
        Assertion::Url(TextMatch::Matches(p)) => p.0.as_str(),
        Assertion::ElementText {
            text: TextMatch::Matches(p),
            ..
        } => p.0.as_str(),
        other => panic!("not a pattern: {other}"),
    }
}

fn url_holds(m: &Mapped, href: &str) -> bool {
    let assertions: Vec<&Assertion> = m.checks.iter().flat_map(|c| &c.assertions).collect();
    assert!(!assertions.is_empty());
    assertions.iter().all(|a| match a {
        Assertion::Url(t) => t.is_match(href),
        other => panic!("not a url assertion: {other}"),
    })
}

#[test]
fn the_answer_is_never_checked_here_so_answer_only_tasks_do_not_run() {
    let all = webarena_sample();
    assert_eq!(all.len(), 9);
    let t0 = by_id(&all, "webarena-0");
    assert_eq!(t0.benchmark, Benchmark::WebArena);
    assert_eq!(t0.upstream_id, "0");
    assert_eq!(t0.category.as_str(), "webarena/shopping_admin");
    assert_eq!(kinds(t0), (vec![], vec!["string_match.exact_match"]));
    assert_eq!(t0.unsupported[0].reason, Reason::Answer);
    assert_eq!(
        t0.unsupported[0].detail,
        json!({"exact_match": "Sprite Yoga Strap 8 foot"})
    );
    assert_eq!(t0.coverage(), Coverage::None);
    assert_eq!(t0.blockers, [Blocker::NothingChecked]);
    assert!(t0.task.is_none());
    assert_eq!(
        t0.notes,
        [Note::StartsLoggedOut {
            storage_state: "./.auth/shopping_admin_state.json".into()
        }]
    );

    let t7 = by_id(&all, "webarena-7");
    assert_eq!(
        kinds(t7),
        (
            vec![],
            vec!["string_match.must_include", "string_match.fuzzy_match"]
        )
    );
    assert_eq!(
        t7.unsupported[0].detail,
        json!({"must_include": ["Allegheny County Airport", "West Mifflin"]})
    );
    assert!(t7.notes.is_empty(), "no storage_state, no note");
}

#[test]
fn url_match_becomes_url_patterns_for_the_path_and_each_query_key() {
    let all = webarena_sample();
    let t = by_id(&all, "webarena-44");
    assert_eq!(t.coverage(), Coverage::Full);
    assert_eq!(kinds(t), (vec!["url_match"], vec![]));
    let task = t.task.as_ref().expect("runnable");
    assert_eq!(task.start, Start::Url("http://gitlab.test:8023".into()));
    assert_eq!(
        task.subtask.goal,
        "Show me the open issues labeled \"help wanted\" in byteblaze/dotfiles"
    );
    let a = &t.checks[0].assertions;
    assert_eq!(task.assertions, *a);
    assert_eq!(
        task.description.as_deref(),
        Some(
            "WebArena task 44, mapped by arc-eval. Checked: url_match. Note: upstream starts \
             logged in (./.auth/gitlab_state.json); this task starts logged out."
        )
    );
    assert_eq!(
        a.iter().map(pattern).collect::<Vec<_>>(),
        [
            r"^[A-Za-z][A-Za-z0-9+.-]*://[^?#]*(?:gitlab\.test:8023/byteblaze/dotfiles/\-/issues/)",
            r"^[^?#]*\?(?:[^#]*&)?label_name(?:\[|%5[bB])(?:\]|%5[dD])=(?:help(?:\+|%20)wanted)(?:[&#]|$)",
            r"^[^?#]*\?(?:[^#]*&)?state=(?:opened)(?:[&#]|$)",
        ]
    );
    let base = "http://gitlab.test:8023/byteblaze/dotfiles/-/issues/";
    assert!(url_holds(
        t,
        &format!("{base}?state=opened&label_name[]=help+wanted")
    ));
    assert!(url_holds(
        t,
        &format!("{base}?label_name%5B%5D=help%20wanted&state=opened&sort=x")
    ));
    assert!(!url_holds(
        t,
        &format!("{base}?label_name[]=help+wanted&state=closed")
    ));
    assert!(!url_holds(t, &format!("{base}?state=opened")));
    assert!(!url_holds(t, "http://gitlab.test:8023/byteblaze/dotfiles/-/merge_requests?state=opened&label_name[]=help+wanted"));

    // Alternatives: either forum.
    let t = by_id(&all, "webarena-600");
    assert_eq!(kinds(t), (vec!["url_match"], vec!["program_html[0]"]));
    assert!(url_holds(
        t,
        "http://reddit.test:9999/f/photography/12/which-lens"
    ));
    assert!(url_holds(t, "http://reddit.test:9999/f/photoit"));
    assert!(!url_holds(t, "http://reddit.test:9999/f/pics"));
    assert_eq!(
        t.unsupported[0].reason,
        Reason::OtherPage {
            url: "func:reddit_get_post_url('__last_url__')".into()
        }
    );
    assert_eq!(t.coverage(), Coverage::Partial);
    let description = t.task.as_ref().unwrap().description.as_deref().unwrap();
    assert!(
        description.contains("NOT checked here") && description.contains("program_html[0]"),
        "{description}"
    );
}

#[test]
fn program_html_on_the_final_page_by_selector_becomes_element_text() {
    let all = webarena_sample();
    let t = by_id(&all, "webarena-118");
    assert_eq!(
        kinds(t),
        (
            vec!["program_html[0]", "program_html[1]"],
            vec!["program_html[2]"]
        )
    );
    let [title] = t.checks[0].assertions.as_slice() else {
        panic!("one assertion")
    };
    let Assertion::ElementText {
        target, property, ..
    } = title
    else {
        panic!("{title}")
    };
    assert_eq!(*target, Locator::Css(".page-title".into()));
    assert_eq!(*property, TextProperty::Text);
    assert_eq!(
        pattern(title),
        r#"(?i)^\s*(?:Account Information|'Account Information'|"Account Information")\s*$"#
    );
    let [last] = t.checks[1].assertions.as_slice() else {
        panic!("one assertion")
    };
    assert!(
        matches!(last, Assertion::ElementText { target: Locator::Css(s), property: TextProperty::Value, .. } if s == "#lastname")
    );
    assert_eq!(pattern(last), r"(?i)(?:Lopez\-Garcia|Lopez Garcia)");
    assert!(
        matches!(&t.unsupported[0].reason, Reason::Script { locator } if locator.starts_with("[...document.querySelectorAll"))
    );
    assert_eq!(
        t.unsupported[0].detail["required_contents"],
        json!({"must_include": ["You saved the account information."]})
    );
    assert_eq!(t.coverage(), Coverage::Partial);

    let t = by_id(&all, "webarena-455");
    assert_eq!(t.coverage(), Coverage::Full);
    let props: Vec<(String, TextProperty, &str)> = t
        .checks
        .iter()
        .flat_map(|c| &c.assertions)
        .map(|a| match a {
            Assertion::ElementText {
                target: Locator::Css(s),
                property,
                ..
            } => (s.clone(), *property, pattern(a)),
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(
        props,
        [
            (
                r#"[name="product[status]"]"#.to_owned(),
                TextProperty::Value,
                r#"(?i)^\s*(?:2|'2'|"2")\s*$"#
            ),
            (
                r#"select[name="product[visibility]"]"#.to_owned(),
                TextProperty::SelectedIndex,
                r#"(?i)^\s*(?:3|'3'|"3")\s*$"#
            ),
        ]
    );
    assert_eq!(
        t.task.as_ref().unwrap().start,
        Start::Url("http://shop.test:7780/admin/catalog/product/edit/id/1481/".into())
    );
}

#[test]
fn several_start_tabs_other_pages_and_unknown_types_are_flagged() {
    let all = webarena_sample();
    let t = by_id(&all, "webarena-431");
    assert_eq!(
        t.blockers,
        [
            Blocker::SeveralStartPages {
                urls: vec![
                    "http://shop.test:7770/pink-taper-candles-4-pack.html".into(),
                    "http://shop.test:7770/white-taper-candles-set.html".into(),
                    "http://shop.test:7770/beach-wall-candle-sconces.html".into(),
                ]
            },
            Blocker::NothingChecked,
        ]
    );
    assert_eq!(
        t.unsupported[0].reason,
        Reason::OtherPage {
            url: "__SHOPPING__/checkout/cart".into()
        }
    );
    assert!(t.task.is_none());

    let t = by_id(&all, "webarena-682");
    assert_eq!(t.category.as_str(), "webarena/gitlab+reddit");
    assert_eq!(
        kinds(t),
        (vec!["url_match"], vec!["string_match.must_include"])
    );
    assert!(t.task.is_some());
    assert_eq!(t.coverage(), Coverage::Partial);

    let t = by_id(&all, "webarena-901");
    assert_eq!(kinds(t), (vec![], vec!["page_image_query"]));
    assert_eq!(t.unsupported[0].reason, Reason::UnknownType);
    assert_eq!(
        t.unsupported[0].detail["page_image_query"][0]["eval_fuzzy_image_match"],
        "a blue kettle"
    );
    assert_eq!(t.blockers, [Blocker::NothingChecked]);
}

/// Upstream checks counted from the raw JSON, independently of the mapper: each approach
/// of `string_match`, the `url_match`, each `program_html` target (an empty list counts
/// once: a check with nothing in it is flagged), each other eval type; for OSWorld each
/// evaluator function.
fn upstream_checks(raw: &Value) -> usize {
    if let Some(eval) = raw.get("eval") {
        eval["eval_types"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| match t.as_str().unwrap() {
                "string_match" => eval["reference_answers"]
                    .as_object()
                    .map_or(1, |o| o.len().max(1)),
                "program_html" => eval["program_html"]
                    .as_array()
                    .map_or(1, |a| a.len().max(1)),
                _ => 1,
            })
            .sum()
    } else {
        match &raw["evaluator"]["func"] {
            Value::Array(fs) => fs.len(),
            _ => 1,
        }
    }
}

#[test]
fn nothing_is_dropped_silently() {
    let text = std::fs::read_to_string(external("webarena/sample.json")).unwrap();
    let raw: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mapped = webarena_sample();
    assert_eq!(raw.len(), mapped.len());
    let mut total = 0;
    for (r, m) in raw.iter().zip(&mapped) {
        assert_eq!(upstream_checks(r), m.upstream_checks(), "{}", m.id);
        total += m.upstream_checks();
        // Every flagged check keeps its upstream JSON and every mapped one has assertions.
        assert!(
            m.unsupported.iter().all(|u| !u.detail.is_null()),
            "{}",
            m.id
        );
        assert!(
            m.checks.iter().all(|c| !c.assertions.is_empty()),
            "{}",
            m.id
        );
        // A task exists exactly when nothing blocks it; it runs exactly the mapped checks.
        assert_eq!(m.task.is_some(), m.blockers.is_empty(), "{}", m.id);
        if let Some(task) = &m.task {
            let n: usize = m.checks.iter().map(|c| c.assertions.len()).sum();
            assert_eq!(task.assertions.len(), n);
        }
    }
    assert_eq!(total, 15);

    let lines = std::fs::read_to_string(external("osworld/sample.jsonl")).unwrap();
    let mapped = osworld::map_file(&external("osworld/sample.jsonl")).unwrap();
    let raw: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(raw.len(), mapped.len());
    for (r, m) in raw.iter().zip(&mapped) {
        assert_eq!(upstream_checks(r), m.unsupported.len(), "{}", m.id);
        assert!(m.checks.is_empty() && m.task.is_none());
    }
}

#[test]
fn written_tasks_load_with_the_suite_loader() {
    let dir = tempfile::tempdir().unwrap();
    let runnable: Vec<_> = webarena_sample()
        .into_iter()
        .filter_map(|m| m.task)
        .collect();
    assert_eq!(
        runnable.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        [
            "webarena-44",
            "webarena-118",
            "webarena-455",
            "webarena-600",
            "webarena-682"
        ]
    );
    for t in &runnable {
        let path = dir.path().join(format!("{}.json", t.id));
        std::fs::write(path, serde_json::to_string_pretty(t).unwrap()).unwrap();
    }
    let mut loaded = suite::load_dir(dir.path()).expect("our loader reads them");
    loaded.sort_by(|a, b| a.id.cmp(&b.id));
    let mut expected = runnable.clone();
    expected.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(loaded, expected);
}

#[test]
fn placeholders_resolve_from_the_site_map_or_name_the_missing_one() {
    let vars = [
        ("WEBARENA_SHOPPING", "http://localhost:7770/"),
        ("WEBARENA_shopping_admin", "https://localhost:7780/admin"),
        ("SHOPPING", "http://ignored:1"),
    ]
    .map(|(k, v)| (k.to_owned(), v.to_owned()));
    let map = SiteMap::from_vars(vars).unwrap();
    assert_eq!(map.get("SHOPPING"), Some("http://localhost:7770"));
    assert_eq!(
        map.get("SHOPPING_ADMIN"),
        Some("https://localhost:7780/admin")
    );
    assert_eq!(
        map.resolve("__SHOPPING_ADMIN__/x |AND| __SHOPPING__/y?next=__last_url__"),
        Ok("https://localhost:7780/admin/x |AND| http://localhost:7770/y?next=__last_url__".into())
    );
    assert_eq!(map.resolve("__GITLAB__/a"), Err("GITLAB".into()));

    let mut map = SiteMap::new();
    for bad in [
        "SHOPPING",
        "SHOPPING=ftp://x",
        "SHOP PING=http://x",
        "SHOPPING=http://",
    ] {
        let e = map.insert_entry(bad).unwrap_err();
        assert!(matches!(e, MapError::Site { .. }), "{bad}: {e}");
    }
    map.insert_entry("gitlab=http://gitlab.test:8023").unwrap();
    let e = webarena::map_file(&external("webarena/sample.json"), &map).unwrap_err();
    let message = e.to_string();
    assert!(
        matches!(&e, MapError::Placeholder { name, field: "start_url", .. } if name == "SHOPPING_ADMIN"),
        "{message}"
    );
    assert!(
        message.contains("sample.json[0] (task_id 0)") && message.contains("__SHOPPING_ADMIN__"),
        "{message}"
    );

    // A placeholder only in the reference URL is named with that field.
    let mut only_gitlab = SiteMap::new();
    only_gitlab.insert("GITLAB", "http://g:1").unwrap();
    let task = json!({"task_id": 5, "intent": "Open the forum", "start_url": "__GITLAB__",
        "eval": {"eval_types": ["url_match"], "reference_url": "__REDDIT__/f/x"}});
    let e = webarena::map_value(task, "t.json", &only_gitlab).unwrap_err();
    assert!(
        matches!(&e, MapError::Placeholder { name, field: "eval.reference_url", .. } if name == "REDDIT"),
        "{e}"
    );
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn bad_input_names_the_file_and_the_position_or_field() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "broken.json",
        "[\n  {\"task_id\": 1,\n   \"intent\": \"x\" \"eval\": {}}\n]",
    );
    let e = webarena::map_file(&p, &sites()).unwrap_err();
    assert!(
        matches!(
            e,
            MapError::Json {
                line: 3,
                column: 18,
                ..
            }
        ),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("{}:3:18: not valid JSON", p.display())),
        "{message}"
    );

    let p = write(dir.path(), "tasks.jsonl", "{\"id\": \"a\"}\n\n{\"id\": \n");
    let e = osworld::map_file(&p).unwrap_err();
    assert!(matches!(e, MapError::Json { line: 3, .. }), "{e:?}");

    let good = json!({"task_id": 1, "intent": "Find it", "start_url": "__SHOPPING__",
        "eval": {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/a"}});
    let mut no_intent = good.clone();
    no_intent.as_object_mut().unwrap().remove("intent");
    let p = write(
        dir.path(),
        "missing.json",
        &json!([good, no_intent]).to_string(),
    );
    let e = webarena::map_file(&p, &sites()).unwrap_err();
    let message = e.to_string();
    assert!(matches!(e, MapError::Invalid { .. }));
    assert!(
        message.contains("missing.json[1]") && message.contains("missing field `intent`"),
        "{message}"
    );

    let mut blank = good.clone();
    blank["intent"] = json!("  ");
    let e = webarena::map_value(blank, "b.json", &sites()).unwrap_err();
    assert!(e.to_string().contains("`intent` must not be empty"), "{e}");

    let p = write(dir.path(), "number.json", "42");
    let e = webarena::map_file(&p, &sites()).unwrap_err();
    assert!(
        e.to_string()
            .contains("expected a task object or an array of them, found a number"),
        "{e}"
    );

    let p = write(dir.path(), "twice.json", &json!([good, good]).to_string());
    let e = webarena::map_file(&p, &sites()).unwrap_err();
    assert!(
        matches!(&e, MapError::DuplicateId { id, .. } if id == "webarena-1"),
        "{e}"
    );

    let e = webarena::map_file(&dir.path().join("absent.json"), &sites()).unwrap_err();
    assert!(matches!(e, MapError::Read { .. }), "{e}");
}

#[test]
fn osworld_evaluators_are_kept_and_flagged_one_per_function() {
    let all = osworld::map_file(&external("osworld/sample.jsonl")).unwrap();
    assert_eq!(
        all.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
        [
            "osworld-bb5e4c0d-f964-439c-97b6-bdb9747de3f4",
            "osworld-4188d3a4-077d-46b7-9c86-23e1a036f6c1",
            "osworld-6e99a1ad-07d2-4b66-a1ce-ece6d99c20a5",
            "osworld-0c825995-5b70-4526-b663-113f4c999dd2",
            "osworld-f5c13cdd-205c-4719-a562-348ae5cd1d91",
        ]
    );
    for m in &all {
        assert_eq!(m.benchmark, Benchmark::OsWorld);
        assert!(m.task.is_none() && m.checks.is_empty());
        assert_eq!(m.coverage(), Coverage::None);
        assert!(m.blockers.contains(&Blocker::NothingChecked));
        assert!(m.origin.contains("sample.jsonl:"), "{}", m.origin);
    }
    let chrome = &all[1];
    assert_eq!(chrome.category.as_str(), "osworld/chrome");
    assert_eq!(
        chrome.goal,
        "Help me open the page of the product on my bookmarks bar in a new tab."
    );
    assert_eq!(
        chrome.blockers[0],
        Blocker::DesktopSetup {
            snapshot: "chrome".into(),
            steps: vec![
                "launch".into(),
                "launch".into(),
                "chrome_open_tabs".into(),
                "sleep".into()
            ]
        }
    );
    assert_eq!(chrome.unsupported[0].kind, "is_expected_active_tab");
    assert_eq!(
        chrome.unsupported[0].reason,
        Reason::Desktop {
            getters: vec!["active_url_from_accessTree".into(), "rule".into()]
        }
    );

    let calc = &all[2];
    assert_eq!(calc.category.as_str(), "osworld/libreoffice_calc");
    let u = &calc.unsupported[0];
    assert_eq!(u.kind, "compare_table");
    assert_eq!(
        u.reason,
        Reason::Desktop {
            getters: vec!["vm_file".into(), "cloud_file".into()]
        }
    );
    assert_eq!(
        u.detail["options"]["rules"][0],
        json!({"type": "sheet_data", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1"})
    );
    assert_eq!(u.detail["postconfig"].as_array().unwrap().len(), 4);
    assert_eq!(u.detail["result"]["path"], "/home/user/Prices.xlsx");

    let either = &all[3];
    assert_eq!(
        either
            .unsupported
            .iter()
            .map(|u| u.kind.as_str())
            .collect::<Vec<_>>(),
        ["check_include_exclude", "compare_docx_files"]
    );
    assert_eq!(either.notes, [Note::AnyCheckPasses]);
    // Each function keeps its own slice of result, expected and options.
    let first = &either.unsupported[0].detail;
    assert_eq!(first["result"]["type"], "vm_command_line");
    assert_eq!(
        first["expected"]["rules"]["exclude"],
        json!(["draft figures"])
    );
    assert_eq!(first["options"], json!({}));
    assert_eq!(first["conj"], "or");
    assert_eq!(
        either.unsupported[1].detail["options"],
        json!({"ignore_blanks": true})
    );

    let infeasible = &all[4];
    assert_eq!(infeasible.unsupported[0].reason, Reason::Infeasible);
    assert_eq!(
        infeasible.unsupported[0].detail,
        json!({"func": "infeasible"})
    );
}

#[test]
fn osworld_reads_directories_and_names_bad_fields() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("chrome")).unwrap();
    let task = |id: &str, evaluator: Value| json!({"id": id, "snapshot": "chrome", "instruction": "Do it", "config": [], "evaluator": evaluator});
    write(
        &dir.path().join("chrome"),
        "b.json",
        &task(
            "B",
            json!({"func": "exact_match", "result": {"type": "profile_name"}}),
        )
        .to_string(),
    );
    write(
        dir.path(),
        "a.json",
        &task("a", json!({"func": "infeasible"})).to_string(),
    );
    let all = osworld::map_file(dir.path()).unwrap();
    assert_eq!(
        all.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
        ["osworld-a", "osworld-b"]
    );
    assert_eq!(all[1].upstream_id, "B");

    let mismatched = task(
        "c",
        json!({"func": ["exact_match", "exact_match"], "result": [{"type": "vm_file"}]}),
    );
    let e = osworld::map_value(mismatched, "c.json").unwrap_err();
    assert!(
        e.to_string()
            .contains("`evaluator.result` must list one entry per function (2)"),
        "{e}"
    );
    let mut no_instruction = task("d", json!({"func": "infeasible"}));
    no_instruction
        .as_object_mut()
        .unwrap()
        .remove("instruction");
    let e = osworld::map_value(no_instruction, "d.json").unwrap_err();
    assert!(e.to_string().contains("missing field `instruction`"), "{e}");
}

/// The mapped checks of a WebArena task, evaluated in Chromium on a fixture page: upstream
/// compares case-insensitively after trimming, so must our patterns.
#[tokio::test(flavor = "multi_thread")]
async fn mapped_checks_hold_and_fail_on_a_real_page() {
    let p = common::Page::open("form.html?ref=arc&q=a%20b").await;
    let origin = p.eval("location.origin").await;
    let mut sites = SiteMap::new();
    sites.insert("SITE", origin.as_str().unwrap()).unwrap();
    let target = |locator: &str, contents: Value| json!({"url": "last", "locator": locator, "required_contents": contents});
    let task = json!({
        "task_id": "live", "sites": ["site"], "intent": "Fill in the first name",
        "start_url": "__SITE__/form.html",
        "eval": {
            "eval_types": ["url_match", "program_html"],
            "reference_url": "__SITE__/form.html?q=a+b",
            "program_html": [
                target("document.querySelector('h1').outerText", json!({"exact_match": " contact US "})),
                target("document.querySelector('#first').value", json!({"must_include": ["ADA", "love |OR| hate"]})),
                target("document.querySelector('h1').outerText", json!({"exact_match": "contact"})),
            ]
        }
    });
    let m = webarena::map_value(task, "live.json", &sites).unwrap();
    assert_eq!(m.coverage(), Coverage::Full);
    p.eval("document.getElementById('first').value = 'Ada Lovelace'")
        .await;
    let mut verdicts = Vec::new();
    for c in &m.checks {
        let mut ok = true;
        for a in &c.assertions {
            let o = page::check(p.session(), a, None).await;
            ok &= o.passed();
        }
        verdicts.push((c.kind.as_str(), ok));
    }
    assert_eq!(
        verdicts,
        [
            ("url_match", true),
            ("program_html[0]", true),
            ("program_html[1]", true),
            // "Contact us" is not exactly "contact".
            ("program_html[2]", false),
        ]
    );
}
