//! Sliders that are not native range inputs (an ARIA `role=slider`, or a thumb the scan
//! recognised inside its track): set by keyboard, as a person would — focus the thumb,
//! then PageUp/PageDown and the arrow keys — reading the value back after every key.
//!
//! Nothing is assumed about the range or the step sizes: each key's effect is read from
//! the run's records (the value at each decision is stored in its `raw`, `mod.rs`). A page
//! key goes first while the distance is at least a page (or the page size is not known
//! yet), overshooting only when that leaves fewer arrow presses to come back; then
//! arrows. A key that moves nothing, an arrow that jumps over the target, or more than
//! [`MAX_KEYS`] keys is a hand-back naming the value reached — never a loop.

use super::facts::Facts;
use super::history;
use super::inputs::{describe, Input};
use super::step::{Act, Outcome, Status, StepKind};
use arc_core::{Action, ActionKind, ActionRecord, Key, Role};

/// Keys pressed on one slider before the run hands back.
pub const MAX_KEYS: usize = 40;

/// A slider the reflex moves by keys: not a native input (SET_VALUE serves those).
pub fn is_keyed(f: &Facts, i: usize) -> bool {
    let e = &f.els[i];
    e.role == Role::Slider && e.visible && e.facts.input_type.is_none()
}

/// The number a slider shows: the leading number of its value ("35 %" → 35).
pub fn value(f: &Facts, i: usize) -> Option<f64> {
    let v = f.els[i].value.as_ref()?.as_text();
    number(&v)
}

fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(k, c)| !(c.is_ascii_digit() || c == '.' || (k == 0 && c == '-')))
        .map_or(s.len(), |(k, _)| k);
    s[..end].parse().ok()
}

/// One slide key the run pressed: which key, and the value when it was decided.
struct Press {
    key: Key,
    from: f64,
}

/// The run's slide keys on slider `id`, oldest first.
fn presses(h: &[ActionRecord], id: &str) -> Vec<Press> {
    h.iter()
        .filter(|r| history::tag(r) == Some(StepKind::Slide.as_str()))
        .filter_map(|r| {
            let raw = r.decision.raw.as_ref()?.get("reflex")?;
            if raw.get("slider")?.as_str()? != id {
                return None;
            }
            let from = raw.get("from")?.as_f64()?;
            match &r.action.action {
                Action::PressKey { key } => Some(Press { key: *key, from }),
                _ => None,
            }
        })
        .collect()
}

/// The effect of press `k`: the value at the next press, or now for the last one.
fn effect(p: &[Press], k: usize, now: f64) -> f64 {
    p.get(k + 1).map_or(now, |n| n.from) - p[k].from
}

fn is_page(k: Key) -> bool {
    matches!(k, Key::PageUp | Key::PageDown)
}

/// The last nonzero effect of a page key (or of an arrow), as a size.
fn learned(p: &[Press], now: f64, page: bool) -> Option<f64> {
    (0..p.len())
        .rev()
        .filter(|&k| is_page(p[k].key) == page)
        .map(|k| effect(p, k, now).abs())
        .find(|&d| d > 0.0)
}

/// Whether the last press of this kind moved nothing.
fn dead(p: &[Press], now: f64, page: bool) -> bool {
    (0..p.len())
        .rev()
        .find(|&k| is_page(p[k].key) == page)
        .is_some_and(|k| effect(p, k, now) == 0.0)
}

pub fn step(
    f: &Facts,
    h: &[ActionRecord],
    input: &Input,
    idx: usize,
    confidence: f64,
    margin: f64,
) -> Status {
    let e = &f.els[idx];
    let stop = |why: String| Status::Stop(Outcome::NeedsAgent(why));
    let Some(want) = number(&input.literal.as_text()) else {
        return stop(format!(
            "input {:?} grounds to slider {} but is not a number",
            input.key,
            describe(f, idx)
        ));
    };
    let Some(now) = value(f, idx) else {
        return stop(format!(
            "slider {} shows no value to read back (input {:?})",
            describe(f, idx),
            input.key
        ));
    };
    if now == want {
        return Status::Done;
    }
    let act = |action: Action, why: String| {
        Status::Pending(Act {
            action,
            kind: StepKind::Slide,
            confidence,
            margin,
            why: format!("input {:?} → {}: {why}", input.key, describe(f, idx)),
            order: idx,
        })
    };
    if !e.focused {
        if !f.offers(idx, ActionKind::Click) {
            return stop(format!("slider {} cannot be focused", describe(f, idx)));
        }
        return act(
            Action::click(e.id.clone()),
            format!("focus the slider (at {now}, to {want})"),
        );
    }
    let p = presses(h, e.id.as_str());
    let reached = |why: &str| {
        stop(format!(
            "slider {} is at {now}, not {want} (input {:?}): {why}",
            describe(f, idx),
            input.key
        ))
    };
    if p.len() >= MAX_KEYS {
        return reached(&format!("{MAX_KEYS} keys pressed"));
    }
    let d = want - now;
    let up = d > 0.0;
    // An arrow that moved toward the target and jumped over it: the step cannot land on it.
    if let Some(last) = p.last().filter(|l| !is_page(l.key)) {
        let moved = now - last.from;
        if moved != 0.0
            && (want - last.from).signum() == moved.signum()
            && d.signum() != (want - last.from).signum()
        {
            return reached("its step jumps over the value");
        }
    }
    let page = learned(&p, now, true);
    let arrow = learned(&p, now, false).unwrap_or(1.0);
    let page_dead = dead(&p, now, true);
    let use_page = !page_dead
        && match page {
            None => d.abs() > arrow,
            // Overshoot by a page only when coming back takes fewer arrows than going on.
            Some(size) => d.abs() >= size || (d.abs() > size / 2.0 && size - d.abs() < d.abs()),
        };
    let key = match (use_page, up) {
        (true, true) => Key::PageUp,
        (true, false) => Key::PageDown,
        (false, true) => Key::ArrowRight,
        (false, false) => Key::ArrowLeft,
    };
    if !use_page && dead(&p, now, false) && p.last().is_some_and(|l| l.key == key) {
        return reached("the arrow key moves it no further");
    }
    act(
        Action::PressKey { key },
        format!("{key:?} (at {now}, to {want})"),
    )
}
