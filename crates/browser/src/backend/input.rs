//! Every action kind, with trusted `Input.*` events where a person would use the mouse
//! or keyboard, and through the DOM where typing is not the way (SET_VALUE,
//! SELECT_OPTION). Pointer actions aim at the target's live position after scrolling it
//! into view, hit-test that point, move there, and hit-test again before pressing: a
//! target that moved or got covered is reported stale and nothing is pressed; the page
//! then says which element the press reached (`press.rs`). HOVER is
//! the first half of a click: aimed and hit-tested the same way, then only the move.

use super::ids::Origin;
use super::keys::{editing_command, held_bits, key_def, modifier_bits, modifier_key};
use super::raw::NodeHandle;
use super::{failed, origin, BrowserBackend, INPUT_TIMEOUT};
use crate::cdp::methods::input::{
    DispatchKeyEvent, DispatchMouseEvent, InsertText, KeyEventType, MouseButton, MouseEventType,
};
use crate::cdp::{FrameId, Method, RemoteObjectId};
use crate::{BrowserError, PageSession};
use arc_core::{
    Action, BackendError, ClickModifier, ElementId, ExecutableAction, InvalidDecision, Key,
    Modifier, ScrollDirection, Snapshot,
};
use serde::Deserialize;

/// Steps a drag moves through, so pages that track `mousemove` see a path.
const DRAG_STEPS: usize = 8;

#[derive(Deserialize)]
struct Located {
    #[serde(default)]
    gone: bool,
    #[serde(default)]
    offscreen: bool,
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    lx: f64,
    #[serde(default)]
    ly: f64,
    #[serde(default)]
    hit: bool,
    #[serde(default)]
    covered: String,
}

/// Where a mouse selection of an element's text starts and ends (`__arc.textSpan`).
#[derive(Deserialize)]
struct TextSpan {
    #[serde(default)]
    gone: bool,
    #[serde(default)]
    empty: bool,
    #[serde(default)]
    offscreen: bool,
    #[serde(default)]
    covered: Option<String>,
    #[serde(default)]
    from: Option<(f64, f64)>,
    #[serde(default)]
    to: Option<(f64, f64)>,
}

/// A page element resolved for an action: a handle in our world of its frame, and the
/// session that frame is read through (the page's, or a frame's of another renderer).
pub(super) struct Resolved {
    pub object: RemoteObjectId,
    pub page: PageSession,
    pub frame: FrameId,
}

/// Where to aim at an element (in the page's viewport), and the handle to re-check it by.
struct Aim {
    target: Resolved,
    x: f64,
    y: f64,
    lx: f64,
    ly: f64,
}

impl BrowserBackend {
    pub(super) async fn act(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<(), BackendError> {
        if action.target().is_some_and(|t| self.canvas.owns(t)) {
            let text = action.text().into_owned();
            return self.act_on_canvas(action, &text).await;
        }
        self.shared.lock().action_serial += 1;
        self.landed = None;
        let text = action.text().into_owned();
        if let Some(target) = action.target() {
            if let Some(done) = self.act_on_dialog(target, action.kind(), &text).await {
                return done;
            }
        }
        let dialog = self.shared.lock().dialog.clone();
        if let Some(d) = dialog {
            return match action.action {
                Action::PressKey { key: Key::Enter } => self.answer_dialog(true, &d).await,
                Action::PressKey { key: Key::Escape } => self.answer_dialog(false, &d).await,
                _ => Err(BackendError::stale(
                    action.target(),
                    "a JavaScript dialog is open; answer it first",
                )),
            };
        }
        if let Some(target) = action.target() {
            if let Some(result) = self.act_on_tab(target).await {
                return result;
            }
        }
        match &action.action {
            Action::Click { target, modifier } => {
                let held = modifier.map(ClickModifier::modifier);
                self.click(target, MouseButton::Left, 1, held).await
            }
            Action::DoubleClick { target } => self.click(target, MouseButton::Left, 2, None).await,
            Action::RightClick { target } => self.click(target, MouseButton::Right, 1, None).await,
            Action::Hover { target } => self.hover(target).await,
            Action::SelectText { target } => self.select_text(target).await,
            Action::TypeText { target, submit, .. } => {
                self.type_text(target, &text).await?;
                // The key a person presses next, in the field that now holds the value:
                // Enter submits its form (or runs the search), Tab moves on.
                match submit {
                    Some(key) => self.press(key.key(), 0, None).await,
                    None => Ok(()),
                }
            }
            Action::SetValue { target, .. } if is_file_input(snapshot, target) => {
                self.set_files(target, &text).await
            }
            Action::SetValue { target, .. } => self.dom_call(target, "setValue", &text).await,
            Action::SelectOption { target, .. } => {
                self.dom_call(target, "selectOption", &text).await
            }
            Action::PressKey { key } => self.press(*key, 0, None).await,
            Action::Hotkey { chord } => {
                self.press(chord.key, modifier_bits(chord), editing_command(chord))
                    .await
            }
            Action::Scroll { direction, target } => {
                self.scroll(snapshot, *direction, target.as_ref()).await
            }
            Action::DragTo {
                target,
                destination,
            } => {
                let to = self.aim(destination, false).await?;
                self.drag(target, |_| (to.x, to.y)).await
            }
            Action::DragBy { target, dx, dy } => {
                let (dx, dy) = (*dx, *dy);
                self.drag(target, move |from: &Aim| (from.x + dx, from.y + dy))
                    .await
            }
            Action::Navigate { .. } => self.navigate(&text).await,
            Action::Wait => Ok(()),
        }
    }

    /// Resolves, scrolls into view and hit-tests a page element.
    async fn aim(&mut self, id: &ElementId, need_hit: bool) -> Result<Aim, BackendError> {
        let target = self.resolve(id).await?;
        let at: Located = self
            .worlds
            .call_on(
                &target.page,
                &target.object,
                "function() { return __arc.locate(this); }",
                vec![],
            )
            .await
            .map_err(failed)?;
        if at.gone {
            return Err(BackendError::stale(Some(id), "the element left the page"));
        }
        if at.offscreen {
            return Err(BackendError::stale(
                Some(id),
                "the element has no visible box, even scrolled into view",
            ));
        }
        if need_hit && !at.hit {
            return Err(BackendError::stale(
                Some(id),
                format!("the element is covered by {}", at.covered),
            ));
        }
        // A frame entered apart places its nodes in its own viewport.
        let (ox, oy) = self.offset_of(&target.frame).await?;
        Ok(Aim {
            target,
            x: at.x + ox,
            y: at.y + oy,
            lx: at.lx,
            ly: at.ly,
        })
    }

    pub(super) async fn resolve(&mut self, id: &ElementId) -> Result<Resolved, BackendError> {
        let Some((loader, handle)) = self.ids.resolve(id).map(|(l, h)| (l.clone(), h.clone()))
        else {
            return Err(BackendError::stale(
                Some(id),
                "the element is not on the current page",
            ));
        };
        let live_loader = match (Origin::of(&loader), &handle) {
            (Origin::Page(l), NodeHandle::Backend { frame, .. }) if self.is_current(frame, &l) => l,
            (Origin::Scan { loader: l, world }, NodeHandle::Scan { frame, .. })
                if self.is_current_world(frame, &l, world).await? =>
            {
                l
            }
            _ => return Err(BackendError::stale(Some(id), "its document was replaced")),
        };
        let page = self.session_of(handle.frame()).clone();
        match self
            .worlds
            .resolve(&page, &handle, &live_loader)
            .await
            .map_err(failed)?
        {
            Some(object) => Ok(Resolved {
                object,
                page,
                frame: handle.frame().clone(),
            }),
            None => Err(BackendError::stale(Some(id), "the element left the page")),
        }
    }

    /// `count` presses of `button` on the element, with `held` down around them when given
    /// (its key pressed before and released after, and set on every mouse event).
    async fn click(
        &mut self,
        id: &ElementId,
        button: MouseButton,
        count: i64,
        held: Option<Modifier>,
    ) -> Result<(), BackendError> {
        let aim = self.move_onto(id).await?;
        // The pointer's arrival can change the page (hover menus, a target that flees).
        let covered: String = self
            .worlds
            .call_on(
                &aim.target.page,
                &aim.target.object,
                "function(x, y) { return __arc.hitAt(this, x, y); }",
                vec![aim.lx.into(), aim.ly.into()],
            )
            .await
            .map_err(failed)?;
        if !covered.is_empty() {
            return Err(BackendError::stale(
                Some(id),
                format!(
                    "the point moved off the element when the pointer arrived (now over {covered})"
                ),
            ));
        }
        match held {
            None => self.presses(aim.x, aim.y, button, count, 0).await?,
            Some(m) => {
                let bits = held_bits(&[m]);
                self.hold(m, bits).await?;
                let pressed = self.presses(aim.x, aim.y, button, count, bits).await;
                // Released whatever the press did: a key left down would modify the next.
                let released = self.release(m).await;
                pressed?;
                released?;
            }
        }
        self.landed = self.landing(id, &aim.target).await;
        Ok(())
    }

    /// `count` presses and releases at (x, y) where the pointer already is, the events
    /// carrying `modifiers` (CDP bits: the page's `ctrlKey`, `shiftKey`…).
    pub(super) async fn presses(
        &self,
        x: f64,
        y: f64,
        button: MouseButton,
        count: i64,
        modifiers: i64,
    ) -> Result<(), BackendError> {
        for n in 1..=count {
            for kind in [MouseEventType::MousePressed, MouseEventType::MouseReleased] {
                let mut e = mouse_event(kind, x, y, button, n);
                e.modifiers = (modifiers != 0).then_some(modifiers);
                self.input(e).await?;
            }
        }
        Ok(())
    }

    /// Puts `m`'s key down (its keydown reaches the focused element, as a person's does);
    /// `bits` is every modifier down once it is.
    async fn hold(&self, m: Modifier, bits: i64) -> Result<(), BackendError> {
        let def = modifier_key(m);
        let mut down = DispatchKeyEvent::new(KeyEventType::RawKeyDown);
        down.key = Some(def.key);
        down.code = Some(def.code);
        down.windows_virtual_key_code = Some(def.vk);
        down.modifiers = Some(bits);
        self.input(down).await
    }

    /// Lets `m`'s key up.
    async fn release(&self, m: Modifier) -> Result<(), BackendError> {
        let def = modifier_key(m);
        let mut up = DispatchKeyEvent::new(KeyEventType::KeyUp);
        up.key = Some(def.key);
        up.code = Some(def.code);
        up.windows_virtual_key_code = Some(def.vk);
        up.modifiers = Some(0);
        self.input(up).await
    }

    /// Selects all the text the element shows with one press-drag-release from just
    /// inside its first character to just inside its last, then reads the page's
    /// selection back: anything but that text (a page that forbids selecting, a drag a
    /// listener took over) fails the action, never a highlight reported as done.
    async fn select_text(&mut self, id: &ElementId) -> Result<(), BackendError> {
        let target = self.resolve(id).await?;
        let span: TextSpan = self
            .worlds
            .call_on(
                &target.page,
                &target.object,
                "function() { return __arc.textSpan(this); }",
                vec![],
            )
            .await
            .map_err(failed)?;
        let refused = if span.gone {
            Some("the element left the page".to_owned())
        } else if span.empty {
            Some("the element shows no text to select".to_owned())
        } else if span.offscreen {
            Some("the element's text does not fit the viewport at once".to_owned())
        } else {
            span.covered
                .map(|c| format!("the start of its text is covered by {c}"))
        };
        if let Some(why) = refused {
            return Err(BackendError::stale(Some(id), why));
        }
        let (Some(from), Some(to)) = (span.from, span.to) else {
            return Err(failed("the page returned no span for the element's text"));
        };
        let (ox, oy) = self.offset_of(&target.frame).await?;
        let moved = |(x, y): (f64, f64)| (x + ox, y + oy);
        self.drag_along(&[moved(from), moved(to)]).await?;
        let wrong: String = self
            .worlds
            .call_on(
                &target.page,
                &target.object,
                "function() { return __arc.selectionMismatch(this); }",
                vec![],
            )
            .await
            .map_err(failed)?;
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(failed(format!(
                "after the drag the page's selection holds {wrong}, not the element's text"
            )))
        }
    }

    /// Moves the pointer onto the element's visible box, aimed and hit-tested as a click
    /// is, and presses nothing: the page sees mouseover/mouseenter/mousemove only.
    async fn hover(&mut self, id: &ElementId) -> Result<(), BackendError> {
        self.move_onto(id).await.map(drop)
    }

    /// Aims at the element (hit-tested) and moves the pointer there: a hover, and the
    /// first half of a click.
    async fn move_onto(&mut self, id: &ElementId) -> Result<Aim, BackendError> {
        let aim = self.aim(id, true).await?;
        self.mouse(
            MouseEventType::MouseMoved,
            aim.x,
            aim.y,
            MouseButton::None,
            0,
        )
        .await?;
        Ok(aim)
    }

    pub(super) async fn mouse(
        &self,
        kind: MouseEventType,
        x: f64,
        y: f64,
        button: MouseButton,
        clicks: i64,
    ) -> Result<(), BackendError> {
        self.input(mouse_event(kind, x, y, button, clicks)).await
    }

    /// Sends one input event. If it opens a JavaScript dialog, Chromium only answers the
    /// call once the dialog is closed: the action has landed, so stop waiting.
    pub(super) async fn input<M: Method>(&self, call: M) -> Result<(), BackendError> {
        let mut opened = self.shared.dialog_opened();
        opened.borrow_and_update();
        tokio::select! {
            r = tokio::time::timeout(INPUT_TIMEOUT, self.page.call(call)) => match r {
                Ok(Ok(_)) => Ok(()),
                Ok(Err(e)) => Err(failed(e)),
                Err(_) => Err(failed(format!("{} got no answer within {} s", M::NAME, INPUT_TIMEOUT.as_secs()))),
            },
            _ = opened.changed() => Ok(()),
        }
    }

    async fn type_text(&mut self, id: &ElementId, text: &str) -> Result<(), BackendError> {
        let target = self.resolve(id).await?;
        let focused: bool = self
            .worlds
            .call_on(
                &target.page,
                &target.object,
                "function() { return __arc.focusSelect(this); }",
                vec![],
            )
            .await
            .map_err(failed)?;
        if !focused {
            return Err(BackendError::stale(
                Some(id),
                "the element did not take focus",
            ));
        }
        // One trusted insertion (beforeinput/input fire as for an IME commit): typing
        // per key would cost two round trips per character.
        self.input(InsertText {
            text: text.to_owned(),
        })
        .await
    }

    /// SET_VALUE / SELECT_OPTION through the page helpers.
    /// A file input takes the file at `path` (core checked that the subtask lists it;
    /// here, that it is still a readable file within the bound).
    async fn set_files(&mut self, id: &ElementId, path: &str) -> Result<(), BackendError> {
        let file = crate::upload::check_file(path)
            .map_err(|why| BackendError::from(InvalidDecision::new("input_key", why)))?;
        let target = self.resolve(id).await?;
        target
            .page
            .call(crate::cdp::methods::dom::SetFileInputFiles {
                files: vec![file.path],
                object_id: target.object,
            })
            .await
            .map(|_| ())
            .map_err(failed)
    }

    async fn dom_call(
        &mut self,
        id: &ElementId,
        helper: &str,
        text: &str,
    ) -> Result<(), BackendError> {
        let target = self.resolve(id).await?;
        let f = format!("function(v) {{ return __arc.{helper}(this, v); }}");
        match self
            .worlds
            .call_on::<serde_json::Value>(&target.page, &target.object, &f, vec![text.into()])
            .await
        {
            Ok(_) => Ok(()),
            Err(BrowserError::JavaScript { text, .. }) => {
                let message = text
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("Error: ")
                    .to_owned();
                Err(InvalidDecision::new("input_key", message).into())
            }
            Err(e) => Err(failed(e)),
        }
    }

    pub(super) async fn press(
        &self,
        key: Key,
        modifiers: i64,
        command: Option<&str>,
    ) -> Result<(), BackendError> {
        let def = key_def(key);
        let text = if modifiers & !8 == 0 {
            def.text.clone()
        } else {
            None
        };
        let mut down = DispatchKeyEvent::new(if text.is_some() {
            KeyEventType::KeyDown
        } else {
            KeyEventType::RawKeyDown
        });
        down.key = Some(def.key.clone());
        down.code = Some(def.code.clone());
        down.windows_virtual_key_code = Some(def.vk);
        down.modifiers = Some(modifiers);
        down.text = text.clone();
        down.unmodified_text = text;
        down.commands = command.map(|c| vec![c.to_owned()]);
        self.input(down).await?;
        let mut up = DispatchKeyEvent::new(KeyEventType::KeyUp);
        up.key = Some(def.key);
        up.code = Some(def.code);
        up.windows_virtual_key_code = Some(def.vk);
        up.modifiers = Some(modifiers);
        self.input(up).await
    }

    async fn scroll(
        &mut self,
        snapshot: &Snapshot,
        direction: ScrollDirection,
        target: Option<&ElementId>,
    ) -> Result<(), BackendError> {
        let viewport = snapshot.viewport.unwrap_or(arc_core::Bounds {
            x: 0.0,
            y: 0.0,
            width: 1280.0,
            height: 800.0,
        });
        let (x, y) = match target {
            Some(id) => {
                let aim = self.aim(id, false).await?;
                (aim.x, aim.y)
            }
            None => viewport.center(),
        };
        // Most of a screen, so consecutive scrolls overlap a little and nothing is skipped.
        let (v, h) = (viewport.height * 0.8, viewport.width * 0.8);
        let (dx, dy) = match direction {
            ScrollDirection::Up => (0.0, -v),
            ScrollDirection::Down => (0.0, v),
            ScrollDirection::Left => (-h, 0.0),
            ScrollDirection::Right => (h, 0.0),
        };
        self.wheel_at(x, y, dx, dy).await
    }

    /// Moves the pointer to (x, y) and turns the wheel by (dx, dy) CSS pixels there.
    pub(super) async fn wheel_at(
        &self,
        x: f64,
        y: f64,
        dx: f64,
        dy: f64,
    ) -> Result<(), BackendError> {
        self.mouse(MouseEventType::MouseMoved, x, y, MouseButton::None, 0)
            .await?;
        let mut wheel = DispatchMouseEvent::new(MouseEventType::MouseWheel, x, y);
        wheel.delta_x = Some(dx);
        wheel.delta_y = Some(dy);
        self.input(wheel).await
    }

    async fn drag(
        &mut self,
        id: &ElementId,
        to: impl FnOnce(&Aim) -> (f64, f64),
    ) -> Result<(), BackendError> {
        let from = self.aim(id, true).await?;
        let to = to(&from);
        self.drag_along(&[(from.x, from.y), to]).await
    }

    /// Presses the left button at the first point, moves through the others in
    /// `DRAG_STEPS` steps a segment (pages that track `mousemove` see a path), and
    /// releases at the last. Fewer than two points is a no-op.
    pub(super) async fn drag_along(&self, points: &[(f64, f64)]) -> Result<(), BackendError> {
        let (Some(&(fx, fy)), Some(&(tx, ty))) = (points.first(), points.last()) else {
            return Ok(());
        };
        if points.len() < 2 {
            return Ok(());
        }
        self.mouse(MouseEventType::MouseMoved, fx, fy, MouseButton::None, 0)
            .await?;
        self.mouse(MouseEventType::MousePressed, fx, fy, MouseButton::Left, 1)
            .await?;
        for pair in points.windows(2) {
            let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
            for step in 1..=DRAG_STEPS {
                let t = step as f64 / DRAG_STEPS as f64;
                let mut m = DispatchMouseEvent::new(
                    MouseEventType::MouseMoved,
                    ax + (bx - ax) * t,
                    ay + (by - ay) * t,
                );
                m.button = Some(MouseButton::Left);
                m.buttons = Some(1);
                self.input(m).await?;
            }
        }
        self.mouse(MouseEventType::MouseReleased, tx, ty, MouseButton::Left, 1)
            .await
    }

    async fn navigate(&mut self, url: &str) -> Result<(), BackendError> {
        let scheme = url.split(':').next().unwrap_or("").to_ascii_lowercase();
        let allowed = matches!(scheme.as_str(), "http" | "https")
            || (scheme == "file" && self.options.allow_file_urls);
        if !allowed || !url.contains("://") {
            return Err(InvalidDecision::new(
                "input_key",
                format!(
                    "NAVIGATE only goes to http(s) URLs{}; got {url:?}",
                    if self.options.allow_file_urls {
                        " or file://"
                    } else {
                        ""
                    }
                ),
            )
            .into());
        }
        self.shared.lock().blocked = None;
        if let Err(e) = self.page.navigate(url).await {
            // Stopped by `confine.rs` (here or at a redirect): certainly not done.
            let blocked = self.shared.lock().blocked.clone();
            return Err(match blocked {
                Some(to) => InvalidDecision::new(
                    "url",
                    format!(
                        "the navigation was stopped: it led to {}, which is not one of the page's allowed origins",
                        origin(&to).unwrap_or_else(|| arc_core::clip(&to, 64).into_owned())
                    ),
                )
                .into(),
                None => failed(e),
            });
        }
        self.worlds.clear();
        Ok(())
    }

    /// CLICK on a tab the page opened switches the session to it.
    async fn act_on_tab(&mut self, id: &ElementId) -> Option<Result<(), BackendError>> {
        let (loader, handle) = self.ids.resolve(id).map(|(l, h)| (l.clone(), h.clone()))?;
        if Origin::of(&loader) != Origin::Popups {
            return None;
        }
        let target = crate::cdp::TargetId(handle.frame().0.clone());
        self.shared.lock().popups.retain(|p| p.target_id != target);
        Some(self.switch_to(target).await.map_err(failed))
    }
}

/// One mouse event: `button` held while pressed, `clicks` its click count.
fn mouse_event(
    kind: MouseEventType,
    x: f64,
    y: f64,
    button: MouseButton,
    clicks: i64,
) -> DispatchMouseEvent {
    let mut e = DispatchMouseEvent::new(kind, x, y);
    e.button = Some(button);
    e.click_count = Some(clicks);
    e.buttons = Some(match (kind, button) {
        (MouseEventType::MousePressed, MouseButton::Left) => 1,
        (MouseEventType::MousePressed, MouseButton::Right) => 2,
        _ => 0,
    });
    e
}

/// Whether the snapshot shows `id` as an `<input type=file>`.
fn is_file_input(snapshot: &Snapshot, id: &ElementId) -> bool {
    snapshot
        .element(id.as_str())
        .is_some_and(|el| el.facts.input_type == Some(arc_core::InputType::File))
}
