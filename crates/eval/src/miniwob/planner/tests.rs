//! The planner on the utterance wordings it has templates for (and on some it has not).

use super::*;

fn reading(text: &str) -> Reading {
    read(&Utterance::text(text))
}

fn inputs(r: &Reading) -> Vec<(&str, &str, bool)> {
    r.inputs
        .iter()
        .map(|f| (f.key.as_str(), f.value.as_str(), f.secret))
        .collect()
}

/// The criterion that only says the whole instruction was done: no policy can read it.
fn blocked(r: &Reading) -> bool {
    r.criteria.iter().any(|c| c.starts_with("the instruction "))
}

#[test]
fn a_quoted_value_goes_into_the_named_target() {
    let r = reading(r#"Enter "Tora" into the text field and press Submit."#);
    assert_eq!(inputs(&r), vec![("text_field", "Tora", false)]);
    assert_eq!(
        r.criteria,
        vec![
            r#"the text field contains "Tora""#.to_owned(),
            r#""Submit" has been clicked"#.to_owned()
        ]
    );
    assert!(r.unread.is_empty(), "{:?}", r.unread);
}

#[test]
fn letter_case_instructions_transform_the_literal() {
    let r = reading(r#"Type "tora" in all upper case letters in the text input and press Submit."#);
    assert_eq!(inputs(&r), vec![("text_input", "TORA", false)]);
    assert!(!blocked(&r));
    let r = reading(r#"Type "ToRa" in all lower case letters in the text input."#);
    assert_eq!(inputs(&r), vec![("text_input", "tora", false)]);
}

#[test]
fn labelled_values_name_their_fields_and_passwords_stay_secret() {
    let r = reading(
        r#"Enter the username "thaddeus" and the password "UT" into the text fields and press login."#,
    );
    assert_eq!(
        inputs(&r),
        vec![("username", "thaddeus", false), ("password", "UT", true)]
    );
    assert!(r
        .criteria
        .contains(&r#"the username field contains "thaddeus""#.to_owned()));
    assert!(
        r.criteria.iter().all(|c| !c.contains("\"UT\"")),
        "{:?}",
        r.criteria
    );
    assert!(!blocked(&r), "{:?}", r.unread);
    let s = plan(&Utterance::text(
        r#"Enter the username "a" and the password "b" into the text fields and press login."#,
    ))
    .unwrap();
    assert!(s.is_secret("password"));
    assert_eq!(
        s.goal,
        r#"Enter the username "a" and the password "b" into the text fields and press login."#
    );
}

#[test]
fn both_fields_take_the_literal_and_all_fields_cannot_be_confirmed() {
    // "both text fields": the labelled field and the second text field, both secret.
    let r = reading(r#"Enter the password "rUT3X" into both text fields and press submit."#);
    assert_eq!(
        inputs(&r),
        vec![
            ("password", "rUT3X", true),
            ("2nd_text_fields", "rUT3X", true)
        ]
    );
    assert!(!blocked(&r), "{:?}", r.criteria);
    assert!(
        r.criteria.iter().all(|c| !c.contains("rUT3X")),
        "{:?}",
        r.criteria
    );
    // "all text fields": how many is on the page, not in the utterance — not claimable.
    let r = reading(r#"Enter the password "rUT3X" into all text fields and press submit."#);
    assert!(blocked(&r), "{:?}", r.criteria);
}

#[test]
fn closing_by_a_click_is_read_whole() {
    let r = reading(r#"Close the dialog box by clicking the "x"."#);
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    assert_eq!(
        r.criteria,
        vec![
            r#""x" has been clicked"#.to_owned(),
            "the dialog box is closed".to_owned()
        ]
    );
}

#[test]
fn a_form_the_utterance_fills_without_its_button_must_be_submitted() {
    let r =
        reading(r#"Check the 3rd radio button and enter the number "-7" into the 2nd textbox."#);
    assert_eq!(inputs(&r), vec![("2nd_textbox", "-7", false)]);
    assert!(r
        .criteria
        .contains(&"the 3rd radio button is checked".to_owned()));
    assert!(r
        .criteria
        .contains(&"the form has been submitted".to_owned()));
    let r = reading(r#"Enter "Tora" into the text field and press Submit."#);
    assert!(!r
        .criteria
        .contains(&"the form has been submitted".to_owned()));
}

#[test]
fn values_as_or_with_a_target() {
    let r = reading("Enter 10/20/2017 as the date and hit submit.");
    assert_eq!(inputs(&r), vec![("date", "10/20/2017", false)]);
    assert!(!blocked(&r), "{:?}", r.unread);
    let r = reading("Select 5 with the spinner and hit Submit.");
    assert_eq!(inputs(&r), vec![("spinner", "5", false)]);
    assert!(!r.criteria.iter().any(|c| c.contains("is selected")));
    let r = reading("Select -5 with the spinner and hit Submit.");
    assert_eq!(inputs(&r), vec![("spinner", "-5", false)]);
    let r = reading("Enter 2:53 PM as the time and press submit.");
    assert_eq!(inputs(&r), vec![("time", "2:53 PM", false)]);
    assert!(!blocked(&r), "{:?}", r.unread);
}

#[test]
fn an_item_named_by_its_ends_is_its_prefix_and_a_constraint() {
    let r = reading(r#"Enter an item that starts with "Sa" and ends with "ino"."#);
    assert_eq!(inputs(&r), vec![("text_field", "Sa", false)]);
    assert_eq!(
        r.criteria,
        vec![
            r#"the text field starts with "Sa" and ends with "ino""#.to_owned(),
            "the form has been submitted".to_owned()
        ]
    );
    assert!(!blocked(&r), "{:?}", r.unread);
    let r = reading(r#"Enter an item that starts with "Gre"."#);
    assert_eq!(inputs(&r), vec![("text_field", "Gre", false)]);
    assert_eq!(r.criteria[0], r#"the text field starts with "Gre""#);
}

#[test]
fn a_slider_value_and_a_checkbox_by_position() {
    let r = reading("Select -5 with the slider, click the 2nd checkbox, then hit Submit.");
    assert_eq!(inputs(&r), vec![("slider", "-5", false)]);
    assert!(r
        .criteria
        .contains(&"the 2nd checkbox is checked".to_owned()));
    assert!(!blocked(&r), "{:?}", r.unread);
}

#[test]
fn a_list_of_values_for_like_controls_goes_in_page_order() {
    let r = reading("Set the sliders to the combination [3,17,5] and submit.");
    assert_eq!(
        inputs(&r),
        vec![
            ("1st_slider", "3", false),
            ("2nd_slider", "17", false),
            ("3rd_slider", "5", false)
        ]
    );
    assert_eq!(r.criteria[1], r#"the 2nd slider shows "17""#);
    assert!(!blocked(&r), "{:?}", r.unread);
}

#[test]
fn selections_become_criteria_and_a_list_gets_its_literal() {
    let r = reading("Select ZrLIee, RKPgD, 3mJ5 and click Submit.");
    assert!(r.inputs.is_empty());
    assert_eq!(
        &r.criteria[..3],
        &[
            r#""ZrLIee" is selected"#.to_owned(),
            r#""RKPgD" is selected"#.to_owned(),
            r#""3mJ5" is selected"#.to_owned()
        ]
    );
    assert!(!blocked(&r));
    let r = reading("Select Solomon Islands from the list and click Submit.");
    assert_eq!(inputs(&r), vec![("list", "Solomon Islands", false)]);
    assert!(r
        .criteria
        .contains(&r#""Solomon Islands" is selected"#.to_owned()));
    let r = reading("Select Brazil, Mauritania from the scroll list and click Submit.");
    assert_eq!(r.inputs.len(), 2);
    assert!(r
        .criteria
        .contains(&r#""Mauritania" is selected"#.to_owned()));
    let r = reading("Select the words: alpha, beta and click Submit.");
    assert!(r.criteria.contains(&r#""alpha" is selected"#.to_owned()));
    assert!(r.criteria.contains(&r#""beta" is selected"#.to_owned()));
    // Several choices from one list: one literal each.
    let r = reading("Select Brazil, Mauritania from the scroll list and click Submit.");
    assert_eq!(
        inputs(&r),
        vec![
            ("choice_1", "Brazil", false),
            ("choice_2", "Mauritania", false)
        ]
    );
}

#[test]
fn selecting_nothing_is_not_confirmable() {
    let r = reading("Select nothing and click Submit.");
    assert!(r
        .criteria
        .contains(&"every option is left unselected".to_owned()));
}

#[test]
fn click_targets_and_their_evidence() {
    let c = |t: &str| reading(t).criteria;
    assert_eq!(c("Click the button."), vec!["the button has been clicked"]);
    assert_eq!(
        c("Click button ONE."),
        vec![r#"the "ONE" button has been clicked"#]
    );
    assert_eq!(
        c(r#"Click on the "No" button."#),
        vec![r#"the "No" button has been clicked"#]
    );
    assert_eq!(
        c("Click button ONE, then click button TWO."),
        vec![r#"the "TWO" button has been clicked"#]
    );
    assert_eq!(
        c(r#"Click on the link "In"."#),
        vec![r#"the "In" link has been clicked"#]
    );
    assert_eq!(c("Click on Tab #2."), vec![r#""Tab #2" is selected"#]);
    assert_eq!(
        c(r#"Click the button in the dialog box labeled "x"."#),
        vec![r#"the "x" button has been clicked"#]
    );
    for t in [
        "Click the button.",
        "Click button ONE, then click button TWO.",
        r#"Click the button in the dialog box labeled "x"."#,
        "Click on Tab #2.",
    ] {
        assert!(reading(t).unread.is_empty(), "{t}: {:?}", reading(t).unread);
    }
}

#[test]
fn what_no_template_reads_blocks_completion() {
    for t in [
        r#"Find the 1st word in the paragraph, type that into the textbox and press "Submit"."#,
        r#"Use the textbox to enter "Truman" and press "Search", then find and click the 5th search result."#,
        "Enter the value of Language into the text field and press Submit.",
        r#"Enter an item that starts with "Sa" and ends with "ino"."#,
        "Find the email by Deva and click the star icon to mark it as important.",
        "Focus into the 3rd input textbox.",
    ] {
        let r = reading(t);
        let ok = blocked(&r)
            || r.criteria
                .iter()
                .all(|c| !c.contains("is focused") || t.contains("Focus"));
        assert!(ok, "{t}: {:?} (unread {:?})", r.criteria, r.unread);
    }
    assert!(blocked(&reading(
        r#"Find the 1st word in the paragraph, type that into the textbox and press "Submit"."#
    )));
}

#[test]
fn searches_whose_outcome_is_the_click_are_read() {
    let c = |t: &str| reading(t).criteria;
    assert_eq!(
        c(r#"Switch between the tabs to find and click on the link "ut."."#),
        vec![r#"the "ut." link has been clicked"#]
    );
    assert_eq!(
        c(r#"Navigate through the file tree. Find and click on the folder or file named "Emile"."#),
        vec![r#""Emile" has been clicked"#]
    );
    assert_eq!(
        c(r#"Find and click on the "OK" button."#),
        vec![r#"the "OK" button has been clicked"#]
    );
    // Opening what hides the target, then a purpose clause: the click is the outcome.
    assert_eq!(
        c(r#"Expand the sections below, to find and click on the link "ut."."#),
        vec![r#"the "ut." link has been clicked"#]
    );
    // Without the purpose clause, the expansion is itself the request.
    assert_eq!(
        c("Expand the section below."),
        vec!["the section below is expanded"]
    );
    // Only a search for a target the click names; where to look, only in those words.
    for t in [
        r#"Switch off the lamp to find and click on the link "ut."."#,
        r#"Navigate through the file tree and delete it. Find and click on "Emile"."#,
    ] {
        assert!(blocked(&reading(t)), "{t}: {:?}", reading(t).criteria);
    }
    // An item named by a word it shows: the click inside that item is the outcome.
    let r = reading("Find the email by Deva and click the star icon to mark it as important.");
    assert!(r.criteria.is_empty() && !blocked(&r), "{:?}", r.criteria);
    assert!(
        matches!(&r.checks[..], [arc_core::Check::Clicked { within: Some(i), .. }] if i.text == "Deva"),
        "{:?}",
        r.checks
    );
}

#[test]
fn search_phrases_name_their_attributes() {
    let r = reading("Search for surreal movies directed by Baxter from year 1995.");
    assert_eq!(
        inputs(&r),
        vec![
            ("genre", "surreal", false),
            ("director", "Baxter", false),
            ("year", "1995", false)
        ]
    );
    assert!(r.unread.is_empty(), "{:?}", r.unread);
}

#[test]
fn risks_are_allowed_only_when_the_utterance_asks() {
    assert!(reading(r#"Close the dialog box by clicking the "x"."#)
        .risks
        .contains(&Risk::Close));
    // The "x" of a dialog is its close control: asking to click it asks to close.
    assert_eq!(
        reading(r#"Click the button in the dialog box labeled "x"."#).risks,
        BTreeSet::from([Risk::Close])
    );
    assert!(reading(r#"Click on the "No" button."#).risks.is_empty());
    assert!(
        reading("Find the email by Helena and click the trash icon to delete it.")
            .risks
            .contains(&Risk::Delete)
    );
    assert!(
        reading(r#"Find the email by Ann and reply to them with the text "hi"."#)
            .risks
            .contains(&Risk::Send)
    );
}

#[test]
fn object_utterances_use_their_fields() {
    let mut u = Utterance::text("Forward the email from Ann to Bo.");
    u.fields.insert("to".into(), "Bo".into());
    let s = plan(&u).unwrap();
    assert_eq!(
        s.input("to").map(|v| v.as_text().into_owned()),
        Some("Bo".into())
    );
    assert!(s.allows(Risk::Send));
}

#[test]
fn the_planner_is_deterministic_and_valid_for_every_wording() {
    for t in [
        "Click the button.",
        "Select Xaviera>Laurie>Melinde",
        r#"Check the 3rd radio button and enter the number "-7" into the 2nd textbox."#,
        "Expand the section below and click submit.",
        "Focus into the textbox.",
        "x",
    ] {
        let a = plan(&Utterance::text(t)).unwrap();
        assert_eq!(a, plan(&Utterance::text(t)).unwrap());
        assert_eq!(a.goal, t);
    }
}

#[test]
fn a_copy_and_its_paste_are_read_as_one_transfer() {
    let r =
        reading("Copy the text in the textarea below, paste it into the textbox and press Submit.");
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    assert!(
        r.inputs.is_empty(),
        "the text is on the page: {:?}",
        r.inputs
    );
    assert!(!blocked(&r), "{:?}", r.criteria);
    // A copy with nowhere to paste states no outcome.
    assert!(blocked(&reading(
        "Copy the text in the textarea below and press Submit."
    )));
}

#[test]
fn a_scroll_to_an_end_of_an_element_is_read() {
    let r = reading(
        r#"Scroll to the bottom of the textarea, enter the name "Lyda" then press "Agree""#,
    );
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    assert_eq!(inputs(&r), vec![("name", "Lyda", false)]);
    assert!(!blocked(&r), "{:?}", r.criteria);
    let r = reading("Scroll the textarea to the top of the text hit submit.");
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    assert!(!blocked(&r), "{:?}", r.criteria);
}

#[test]
fn a_passage_to_highlight_becomes_a_criterion_the_runtime_reads() {
    let r = reading("Highlight the text in the 2nd paragraph and click submit.");
    assert!(!blocked(&r), "{:?}", r.criteria);
    assert!(r.inputs.is_empty());
    assert!(
        r.criteria
            .contains(&"the text in the 2nd paragraph is highlighted".to_owned()),
        "{:?}",
        r.criteria
    );
    let r = reading(r#"Highlight "the quick fox" and press Done."#);
    assert!(
        r.criteria
            .contains(&r#""the quick fox" is highlighted"#.to_owned()),
        "{:?}",
        r.criteria
    );
    assert!(!blocked(&r), "{:?}", r.criteria);
    // Nothing named: nothing checkable.
    assert!(blocked(&reading("Highlight and click submit.")));
}

#[test]
fn find_and_click_a_labelled_item_is_one_click_on_it() {
    let r = reading(
        r#"Click the "Menu" button, and then find and click on the item labeled "Zoom In"."#,
    );
    assert_eq!(
        r.criteria,
        vec![r#"the "Zoom In" item has been clicked"#.to_owned()]
    );
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    assert_eq!(r.clicks, 2);
}

#[test]
fn a_value_the_page_shows_goes_in_without_an_input() {
    let r = reading("Enter the value of Year of Birth into the text field and press Submit.");
    assert!(r.inputs.is_empty(), "{:?}", r.inputs);
    assert_eq!(
        r.checks,
        [arc_core::Check::FieldValue {
            field: "the text field".into(),
            equals: None,
            contains: None,
            shown_for: Some("Year of Birth".into()),
        }]
    );
    assert!(!blocked(&r), "{:?} {:?}", r.criteria, r.unread);
}

#[test]
fn a_reply_or_a_forward_is_a_literal_and_a_submission() {
    let r = reading(
        r#"Find the email by Celestyn and reply to them with the text "Mi enim sapien, massa."."#,
    );
    assert_eq!(inputs(&r), vec![("text", "Mi enim sapien, massa.", false)]);
    assert_eq!(r.criteria, vec!["the form has been submitted".to_owned()]);
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    let r = reading("Find the email by Rochella and forward that email to Brooke.");
    assert_eq!(inputs(&r), vec![("to", "Brooke", false)]);
    assert_eq!(r.criteria, vec!["the form has been submitted".to_owned()]);
    assert!(r.unread.is_empty(), "{:?}", r.unread);
}

#[test]
fn a_quoted_kind_of_widget_is_a_click_target() {
    assert_eq!(
        reading(r#"Click on a "textarea" widget."#).criteria,
        vec![r#"the "textarea" widget has been clicked"#.to_owned()]
    );
}

#[test]
fn a_quoted_control_to_press_allows_its_risk_a_quoted_literal_does_not() {
    let s = plan(&Utterance::text(
        r#"For the user @ann, click on the "Reply" button."#,
    ))
    .unwrap();
    assert!(s.allows(Risk::Send));
    let s = plan(&Utterance::text(
        r#"Enter "reply all" into the text field."#,
    ))
    .unwrap();
    assert!(!s.allows(Risk::Send));
}

#[test]
fn a_value_per_label_is_the_pages_own_and_the_form_is_submitted() {
    let r = reading(
        "Enter the value that corresponds with each label into the form and submit when done.",
    );
    assert!(r.inputs.is_empty());
    assert_eq!(r.criteria, vec!["the form has been submitted".to_owned()]);
    assert_eq!(r.checks, [arc_core::Check::ValuesByLabel {}]);
}

#[test]
fn the_nth_search_result_is_a_click_the_runtime_counts() {
    let r = reading(
        r#"Use the textbox to enter "Truman" and press "Search", then find and click the 5th search result."#,
    );
    assert!(r.unread.is_empty(), "{:?}", r.unread);
    assert!(r
        .criteria
        .contains(&"the 5th search result has been clicked".to_owned()));
}
