//! A request stated in fields beside its free wording (`{task, by, to, message}`): the
//! planner reads the fields by their names, as an LLM planner reads a structured request,
//! and restates the goal in plain imperative words; the free wording ("Could you find
//! Ann's e-mail and send it along to Bo?") is not parsed. Only the fields' meanings are
//! known here — `task` the verb, `by` the item's sender, `to` a recipient (with no verb,
//! a recipient means the item is passed on), `message` the words to write — never a
//! task's name; a verb it does not know falls back to reading the utterance.

use super::{Field, Reading};
use arc_core::{Check, Items, Risk};
use std::collections::BTreeMap;

/// The restated goal and what the planner read from the fields; `None` when the fields
/// state no request this reader knows.
pub fn statement(fields: &BTreeMap<String, String>) -> Option<(String, Reading)> {
    let get = |k: &str| {
        fields
            .get(k)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty() && !v.contains('"'))
    };
    // A recipient with no verb: the item is passed on.
    let task = match get("task") {
        Some(t) => t.to_lowercase(),
        None if get("to").is_some() => "forward".to_owned(),
        None => return None,
    };
    let by = get("by")?;
    let item = format!("Find the message by {by}");
    let mut r = Reading::default();
    let goal = match task.as_str() {
        "reply" => {
            let message = get("message")?;
            r.inputs.push(literal("text", message));
            r.criterion("the form has been submitted".to_owned());
            format!("{item} and reply to them with the text \"{message}\".")
        }
        "forward" => {
            let to = get("to")?;
            r.inputs.push(literal("to", to));
            r.criterion("the form has been submitted".to_owned());
            format!("{item} and forward that message to {to}.")
        }
        // A control named by what it does: pressed in the item, once.
        "delete" | "star" => {
            r.check(Check::Clicked {
                element: Some(task.clone()),
                role: None,
                within: Some(Items {
                    text: by.to_owned(),
                    count: None,
                    every: false,
                }),
                nth: None,
            });
            r.clicks = 1;
            format!("{item} and click \"{task}\".")
        }
        _ => return None,
    };
    // The verb's own risk ("delete", "forward"): the restated goal quotes some verbs.
    r.risks = Risk::ALL
        .into_iter()
        .filter(|risk| risk.words().contains(&task.as_str()))
        .collect();
    Some((goal, r))
}

fn literal(key: &str, value: &str) -> Field {
    Field {
        key: key.to_owned(),
        value: value.to_owned(),
        secret: false,
    }
}

#[cfg(test)]
mod tests {
    use super::statement;
    use arc_core::{Check, Items, Risk};
    use std::collections::BTreeMap;

    fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_forward_names_its_recipient_as_an_input_and_allows_the_send() {
        let (goal, r) = statement(&fields(&[("task", "forward"), ("by", "Ann"), ("to", "Bo")]))
            .expect("a forward");
        assert_eq!(
            goal,
            "Find the message by Ann and forward that message to Bo."
        );
        assert_eq!(r.inputs[0].key, "to");
        assert_eq!(r.inputs[0].value, "Bo");
        assert_eq!(r.criteria, ["the form has been submitted"]);
        assert!(r.risks.contains(&Risk::Send));
    }

    #[test]
    fn a_delete_is_a_click_in_the_item_and_allows_the_deletion() {
        let (goal, r) = statement(&fields(&[("task", "delete"), ("by", "Ann")])).expect("a delete");
        assert_eq!(goal, "Find the message by Ann and click \"delete\".");
        assert!(r.criteria.is_empty(), "{:?}", r.criteria);
        assert_eq!(
            r.checks,
            [Check::Clicked {
                element: Some("delete".into()),
                role: None,
                within: Some(Items {
                    text: "Ann".into(),
                    count: None,
                    every: false
                }),
                nth: None
            }]
        );
        assert!(r.risks.contains(&Risk::Delete));
    }

    #[test]
    fn a_recipient_without_a_verb_is_a_forward() {
        let (goal, _) = statement(&fields(&[("by", "Ann"), ("to", "Bo")])).expect("a forward");
        assert_eq!(
            goal,
            "Find the message by Ann and forward that message to Bo."
        );
    }

    #[test]
    fn unknown_verbs_and_missing_fields_state_nothing() {
        assert!(statement(&fields(&[("task", "archive"), ("by", "Ann")])).is_none());
        assert!(statement(&fields(&[("task", "reply"), ("by", "Ann")])).is_none());
        assert!(statement(&fields(&[("by", "Ann")])).is_none());
    }
}
