//! The result's `verification`: each of the planner's criteria as judged on the last
//! snapshot — read into which check, whether it held, and the elements and text that
//! decided it (or why not). A sentence read clause by clause holds when every clause does.

use super::facts::Facts;
use super::verify::{acknowledged, judge, Criterion};
use arc_core::{ActionRecord, Evidence, Role, Snapshot, Verdict};

/// How a verdict held on the page's acknowledgement says so.
const ACKNOWLEDGED: &str = "; held as acknowledged: every step done, the page answered the run's commit with new text, and that text (with what holds it) and the fields the commit sent say every content word";

/// How much of an element's text evidence quotes.
const QUOTE_CHARS: usize = 120;

/// `complete`: the run is ending SUBTASK_COMPLETE, so a check judged on the page as it
/// stood at the final click (`at_click`) counts, as it did for the decision.
pub fn verdicts(
    f: &Facts,
    h: &[ActionRecord],
    criteria: &[Criterion],
    given: &[arc_core::Criterion],
    at_click: Option<&Snapshot>,
    complete: bool,
) -> Vec<Verdict> {
    let before = at_click.filter(|_| complete).map(Facts::new);
    given
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let clauses: Vec<&Criterion> = criteria.iter().filter(|r| r.of == k).collect();
            let mut held = true;
            let mut ids = Vec::new();
            let mut said: Vec<String> = Vec::new();
            let mut acked = false;
            for r in &clauses {
                let judged = judge(f, h, r)
                    .map(|els| (f, els))
                    .or_else(
                        |why| match before.as_ref().filter(|_| r.check.holds_at_click()) {
                            Some(b) => judge(b, h, r).map(|els| (b, els)).map_err(|_| why),
                            None => Err(why),
                        },
                    )
                    .or_else(|why| match at_click.filter(|_| complete) {
                        // The decision completed on the page's acknowledgement (`plan`).
                        Some(b) => acknowledged(f, h, r, b)
                            .map(|els| {
                                acked = true;
                                (f, els)
                            })
                            .map_err(|_| why),
                        None => Err(why),
                    });
                match judged {
                    Ok(_) if r.check.about_download() && !downloads(h).is_empty() => {
                        said.push(downloads(h))
                    }
                    Ok((on, els)) if els.is_empty() => said.push(no_element(on, r)),
                    Ok((on, els)) => {
                        for i in els {
                            ids.push(on.els[i].id.clone());
                            said.push(quote(on, i));
                        }
                    }
                    Err(why) => {
                        if held {
                            said.clear();
                            ids.clear();
                        }
                        held = false;
                        said.push(why);
                    }
                }
            }
            if clauses.is_empty() {
                held = false;
                said.push("not read".into());
            }
            let unread = !held && clauses.iter().all(|r| r.check.unread());
            Verdict {
                unread,
                criterion: c.text().into_owned(),
                check: clauses
                    .iter()
                    .map(|r| r.check.describe())
                    .collect::<Vec<_>>()
                    .join(" and ")
                    + if acked { ACKNOWLEDGED } else { "" },
                holds: held,
                evidence: Evidence {
                    elements: if held { ids } else { Vec::new() },
                    text: said.join("; "),
                },
            }
        })
        .collect()
}

/// The files the run downloaded, as evidence names them: step, name, size, hash.
fn downloads(h: &[ActionRecord]) -> String {
    h.iter()
        .flat_map(|r| {
            r.downloads.iter().map(move |d| {
                format!(
                    "step {} downloaded {:?} ({} bytes, sha256 {}) to {:?}",
                    r.step, d.name, d.bytes, d.sha256, d.path
                )
            })
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// An element as evidence quotes it: its id, role, name and (never a password's) value.
fn quote(f: &Facts, i: usize) -> String {
    let e = &f.els[i];
    let clip = |s: &str| arc_core::clip(s.trim(), QUOTE_CHARS).into_owned();
    let value = match &e.value {
        Some(_) if e.role == Role::PasswordField => " = [secret]".to_owned(),
        Some(v) if !v.as_text().trim().is_empty() => format!(" = {:?}", clip(&v.as_text())),
        _ => String::new(),
    };
    format!("{} {} {:?}{value}", e.id, e.role, clip(&e.name))
}

/// What decided a check that no element shows: the URL, the title, an absence, the
/// run's own records.
fn no_element(f: &Facts, r: &Criterion) -> String {
    use super::verify::Check;
    match &r.check {
        Check::UrlContains(_) | Check::UrlIs(_) => {
            format!("the URL is {:?}", f.url().unwrap_or_default())
        }
        Check::TitleContains(_) | Check::TitleIs(_) => {
            format!("the title is {:?}", f.snapshot.title())
        }
        Check::PageLacks(_) | Check::LacksIn(..) | Check::Count(..) => {
            "nothing on the page shows it".into()
        }
        // An outcome held with no element: its subject went ("Bob Stone removed").
        Check::Happened(_) | Check::Either(..) => {
            "nothing on the page shows it any more; it was shown before the run acted".into()
        }
        c if !c.reads_the_page() => {
            "the run's own records (each press hit-tested on its target)".into()
        }
        _ => "the page".into(),
    }
}
