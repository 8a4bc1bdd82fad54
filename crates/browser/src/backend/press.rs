//! What a press presses, read in the page: for the risk gate, the target's visible text
//! and the form Enter would submit (`__arc.pressFacts`); after a click, which element the
//! page says received the trusted press (`__arc.pressLanding`, armed by the last hit
//! test), so a press an overlay took is reported as what it was.

use super::raw::NodeHandle;
use super::{failed, BrowserBackend};
use crate::cdp::methods::dom::{DescribeNode, NodeRef};
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
            let Some((frame, loader)) = self.main_frame().cloned() else {
                return Ok(PressFacts::default());
            };
            let enter = enter_of(action);
            let raw: RawFacts = self
                .worlds
                .eval(
                    &self.page,
                    &frame,
                    &loader,
                    &format!("__arc.pressFacts(null, {enter}, true)"),
                )
                .await
                .map_err(failed)?;
            let mut facts: PressFacts = raw.into();
            if let Some(inner) = self.focus_in_closed_root(enter).await {
                facts.pressed.extend(inner.pressed);
                facts.submitter = facts.submitter.or(inner.submitter);
            }
            return Ok(facts);
        }
        let mut facts = PressFacts::default();
        for target in risk::pressed_targets(action, snapshot) {
            let object = match self.resolve(target.id).await {
                Ok(object) => object,
                Err(BackendError::Stale { .. }) => continue,
                Err(e) => return Err(e),
            };
            let raw: RawFacts = self
                .worlds
                .call_on(
                    &self.page,
                    &object,
                    "function(own) { return __arc.pressFacts(this, false, own); }",
                    vec![target.own.into()],
                )
                .await
                .map_err(failed)?;
            facts.pressed.extend(raw.pressed);
        }
        Ok(facts)
    }

    /// What Enter/Space press when the focus is inside a closed shadow root: the page
    /// shows only its host as focused, so the root (found through `DOM.describeNode`,
    /// which pierces it) is asked for its own focused element. None when the focus is
    /// not in one, or any read fails.
    async fn focus_in_closed_root(&mut self, enter: bool) -> Option<PressFacts> {
        let (frame, loader) = self.main_frame().cloned()?;
        let host = self
            .worlds
            .eval_object(&self.page, &frame, &loader, "__arc.focusedHost()")
            .await
            .ok()??;
        let mut describe = DescribeNode::new(NodeRef::Object(host));
        describe.pierce = Some(true);
        let node = self.page.call(describe).await.ok()?.node;
        let root = node.shadow_roots?.into_iter().next()?.backend_node_id;
        let handle = NodeHandle::Backend { frame, node: root };
        let object = self
            .worlds
            .resolve(&self.page, &handle, &loader)
            .await
            .ok()??;
        let raw: RawFacts = self
            .worlds
            .call_on(
                &self.page,
                &object,
                "function(enter) { return __arc.pressFactsInRoot(this, enter); }",
                vec![enter.into()],
            )
            .await
            .ok()?;
        Some(raw.into())
    }

    /// After a click's presses: where the page says the press went, when not on `id`.
    /// Unknown (None) when a dialog opened (the page answers nothing until it closes) or
    /// the read fails (the click navigated away).
    pub(super) async fn landing(
        &mut self,
        id: &ElementId,
        object: &crate::cdp::RemoteObjectId,
    ) -> Option<LandedElsewhere> {
        if self.shared.lock().dialog.is_some() {
            return None;
        }
        let read = self.worlds.call_on::<Option<Landing>>(
            &self.page,
            object,
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
        let read = self.page_read::<Option<Landing>>("__arc.pressLanding()");
        match tokio::time::timeout(LANDING_TIMEOUT, read).await {
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
