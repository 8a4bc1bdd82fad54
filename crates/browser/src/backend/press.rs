//! What a press presses, read in the page: for the risk gate, the target's visible text
//! and the form Enter would submit (`__arc.pressFacts`); after a click, which element the
//! page says received the trusted press (`__arc.pressLanding`, armed by the last hit
//! test), so a press an overlay took is reported as what it was.

use super::doc::{frame_held, Doc, MAX_FRAME_DEPTH};
use super::{failed, BrowserBackend};
use crate::cdp::methods::dom::NodeRef;
use arc_core::{
    risk, Action, BackendError, ElementId, ExecutableAction, Key, LandedElsewhere, PressFacts,
    Pressable, Snapshot,
};
use serde::Deserialize;
use std::time::Duration;

/// A landing read is one small evaluate; past this the page is busy elsewhere (a
/// navigation the click started) and the landing stays unknown.
const LANDING_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFacts {
    #[serde(default)]
    pressed: Vec<Pressable>,
    #[serde(default)]
    submitter: Option<Pressable>,
}

impl From<RawFacts> for PressFacts {
    fn from(raw: RawFacts) -> PressFacts {
        PressFacts {
            pressed: raw.pressed,
            submitter: raw.submitter,
        }
    }
}

impl BrowserBackend {
    /// The live facts the gate classifies for `action`; empty for actions that press
    /// nothing, for targets that are not page elements (dialogs, tabs) and for targets
    /// already gone (freshness then reports them stale).
    pub(super) async fn press_facts_of(
        &mut self,
        snapshot: &Snapshot,
        action: &ExecutableAction,
    ) -> Result<PressFacts, BackendError> {
        // While a JavaScript dialog is open the page answers nothing; the dialog's
        // buttons are elements of their own, named by Chromium.
        if self.shared.lock().dialog.is_some() {
            return Ok(PressFacts::default());
        }
        if risk::presses_focused(action) {
            return self.focused_press_facts(enter_of(action)).await;
        }
        // Enter after typing is pressed in the target field: its form's submitter counts.
        let enter = risk::presses_enter(action);
        let mut facts = PressFacts::default();
        for target in risk::pressed_targets(action, snapshot) {
            let resolved = match self.resolve(target.id).await {
                Ok(resolved) => resolved,
                Err(BackendError::Stale { .. }) => continue,
                Err(e) => return Err(e),
            };
            let raw: RawFacts = self
                .worlds
                .call_on(
                    &resolved.page,
                    &resolved.object,
                    "function(enter, own) { return __arc.pressFacts(this, enter, own); }",
                    vec![enter.into(), target.own.into()],
                )
                .await
                .map_err(failed)?;
            facts.merge(raw.into());
        }
        Ok(facts)
    }

    /// What Enter/Space press on the focused element, followed wherever the focus is: the
    /// element the document shows as focused, then inside closed shadow roots (the page
    /// shows only their host), then inside a frame our world of the document cannot enter
    /// (a cross-origin frame, of the page's renderer or with a target of its own), up to
    /// [`MAX_FRAME_DEPTH`] frames deep. A failed read fails the press: nothing is pressed
    /// unjudged.
    async fn focused_press_facts(&mut self, enter: bool) -> Result<PressFacts, BackendError> {
        let Some((frame, loader)) = self.main_frame().cloned() else {
            return Ok(PressFacts::default());
        };
        let mut doc = Doc::Own { frame, loader };
        let mut facts = PressFacts::default();
        for depth in 0..=MAX_FRAME_DEPTH {
            let raw: RawFacts = self
                .doc_eval(&mut doc, &format!("__arc.pressFacts(null, {enter}, true)"))
                .await
                .map_err(failed)?;
            facts.merge(raw.into());
            if let Some(inner) = self.focus_in_closed_roots(&mut doc, enter).await {
                facts.merge(inner);
            }
            if depth == MAX_FRAME_DEPTH {
                break;
            }
            let Some(element) = self
                .doc_eval_object(&mut doc, "__arc.focusedFrame()")
                .await
                .map_err(failed)?
            else {
                break;
            };
            let described = self.doc_describe(&doc, NodeRef::Object(element)).await;
            let Some(inner) = described.as_ref().and_then(frame_held) else {
                break;
            };
            match self.doc_of_frame(&inner.clone()).await {
                Some(next) => doc = next,
                None => {
                    return Err(failed(format!(
                    "the focus is inside frame {inner}, which cannot be read: nothing was pressed"
                )))
                }
            }
        }
        Ok(facts)
    }

    /// What Enter/Space press when the focus is inside closed shadow roots (one inside
    /// another): the document shows only the outer host as focused, so each root (found
    /// through `DOM.describeNode`, which pierces it) is asked for its own focused element.
    /// None when the focus is not in one, or a read fails.
    async fn focus_in_closed_roots(&mut self, doc: &mut Doc, enter: bool) -> Option<PressFacts> {
        /// Closed roots followed, one inside another.
        const MAX_NESTED_ROOTS: usize = 16;
        let mut host = self
            .doc_eval_object(doc, "__arc.focusedHost()")
            .await
            .ok()??;
        let mut facts = PressFacts::default();
        for _ in 0..MAX_NESTED_ROOTS {
            let node = self.doc_describe(doc, NodeRef::Object(host)).await?;
            let Some(root) = node.shadow_roots.and_then(|r| r.into_iter().next()) else {
                break;
            };
            let object = self.doc_resolve(doc, root.backend_node_id).await.ok()??;
            let raw: RawFacts = self
                .doc_call_on(
                    doc,
                    &object,
                    "function(enter) { return __arc.pressFactsInRoot(this, enter); }",
                    vec![enter.into()],
                )
                .await
                .ok()?;
            facts.merge(raw.into());
            match self
                .doc_call_on_object(
                    doc,
                    &object,
                    "function() { return __arc.focusedHostIn(this); }",
                )
                .await
            {
                Ok(Some(next)) => host = next,
                _ => break,
            }
        }
        Some(facts)
    }

    /// After a click's presses: where the page says the press went, when not on `id`.
    /// Unknown (None) when a dialog opened (the page answers nothing until it closes) or
    /// the read fails (the click navigated away).
    pub(super) async fn landing(
        &mut self,
        id: &ElementId,
        target: &super::input::Resolved,
    ) -> Option<LandedElsewhere> {
        if self.shared.lock().dialog.is_some() {
            return None;
        }
        let read = self.worlds.call_on::<Option<Landing>>(
            &target.page,
            &target.object,
            "function() { return __arc.pressLanding(); }",
            vec![],
        );
        match tokio::time::timeout(LANDING_TIMEOUT, read).await {
            Ok(Ok(Some(landing))) => Some(LandedElsewhere {
                intended: id.clone(),
                element: landing.element,
                began_on_target: landing.began,
            }),
            Ok(Ok(None)) => None,
            Ok(Err(e)) => {
                tracing::debug!("landing of the press on {id} unknown: {e}");
                None
            }
            Err(_) => None,
        }
    }
}

impl BrowserBackend {
    /// After a point click: where the page says the press went, when not on what the
    /// point's gate judged. Unknown (None) as `landing` is.
    pub(super) async fn landing_at(&mut self) -> Option<super::PointLanding> {
        const READ: &str = "__arc.pressLanding()";
        let landing = match self.point_doc.take() {
            Some(mut doc) => {
                let read = self.doc_eval::<Option<Landing>>(&mut doc, READ);
                tokio::time::timeout(LANDING_TIMEOUT, read)
                    .await
                    .map(|r| r.map(Some).map_err(failed))
            }
            None => {
                tokio::time::timeout(LANDING_TIMEOUT, self.page_read::<Option<Landing>>(READ)).await
            }
        };
        match landing {
            Ok(Ok(Some(Some(l)))) => Some(super::PointLanding {
                element: l.element,
                began: l.began,
            }),
            Ok(Err(e)) => {
                tracing::debug!("landing of the point press unknown: {e}");
                None
            }
            _ => None,
        }
    }
}

/// `pressLanding`'s answer: what received the press, and whether it began on the target.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Landing {
    element: Pressable,
    #[serde(default)]
    began: bool,
}

/// Whether the key pressed on the focused element is Enter (which may submit its form).
fn enter_of(action: &ExecutableAction) -> bool {
    match &action.action {
        Action::PressKey { key } => *key == Key::Enter,
        Action::Hotkey { chord } => chord.key == Key::Enter,
        _ => false,
    }
}
