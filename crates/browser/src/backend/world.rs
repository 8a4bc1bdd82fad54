//! Isolated worlds: one per frame document, holding `js/world.js` (called with the
//! role/name engine, `js/aria.js`). Our helpers run there so a page can neither observe
//! nor monkey-patch them, while they see the same DOM.

use super::raw::NodeHandle;
use crate::cdp::methods::{dom, page, runtime};
use crate::cdp::{ExecutionContextId, FrameId, LoaderId, RemoteObjectId};
use crate::{BrowserError, CdpError, PageSession};
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// The one in-page role and accessible-name engine: a JavaScript expression whose value
/// is `{roleOf, nameOf, shownName, textOf, disabledOf, …}`. The scan and arc-eval's
/// assertion engine are both functions called with it, so they name elements alike.
pub const ARIA_JS: &str = include_str!("js/aria.js");
/// `world.js` is `((aria) => {…})`: applied to the engine here, once, at build time.
const LIBRARY: &str = concat!(
    include_str!("js/world.js"),
    "(",
    include_str!("js/aria.js"),
    ");"
);
const WORLD: &str = "arc-cua";
/// The change notice: a binding in our worlds only (`world.js` calls it as `NOTICE`).
pub const NOTICE: &str = "arcCuaChanged";

/// Installs the change notice in every world of ours on `page`, now and later.
pub async fn add_notice(page: &PageSession) -> Result<(), BrowserError> {
    page.call(runtime::AddBinding {
        name: NOTICE.into(),
        execution_context_name: WORLD.into(),
    })
    .await?;
    Ok(())
}
/// Handles resolved for one step live in this group and are released together.
pub const OBJECT_GROUP: &str = "arc-cua-step";

#[derive(Default)]
pub struct Worlds {
    contexts: HashMap<FrameId, (LoaderId, ExecutionContextId)>,
}

impl Worlds {
    /// Forgets every context (after a navigation or a tab switch).
    pub fn clear(&mut self) {
        self.contexts.clear();
    }

    /// The isolated world of `frame`'s current document, created on first use.
    pub async fn context(
        &mut self,
        page: &PageSession,
        frame: &FrameId,
        loader: &LoaderId,
    ) -> Result<ExecutionContextId, BrowserError> {
        if let Some((l, ctx)) = self.contexts.get(frame) {
            if l == loader {
                return Ok(*ctx);
            }
        }
        let created = page
            .call(page::CreateIsolatedWorld {
                frame_id: frame.clone(),
                world_name: Some(WORLD.into()),
                grant_universal_access: None,
            })
            .await?;
        let ctx = created.execution_context_id;
        let mut install = runtime::Evaluate::by_value(LIBRARY);
        install.context_id = Some(ctx);
        check(page.call(install).await?, "installing the page helpers")?;
        self.contexts.insert(frame.clone(), (loader.clone(), ctx));
        Ok(ctx)
    }

    /// The world of `frame` as last created for `loader`, if any (it may have died since:
    /// [`Worlds::eval_in`] then fails with a lost context).
    pub fn known(&self, frame: &FrameId, loader: &LoaderId) -> Option<ExecutionContextId> {
        self.contexts
            .get(frame)
            .filter(|(l, _)| l == loader)
            .map(|(_, ctx)| *ctx)
    }

    /// Evaluates `expression` in the world `ctx`, once. A world lives exactly as long as
    /// the document it was created in, so a reply proves that document is still shown;
    /// after a navigation this fails with an error [`is_lost_world`] recognizes.
    pub async fn eval_in<T: DeserializeOwned>(
        &self,
        page: &PageSession,
        ctx: ExecutionContextId,
        expression: &str,
    ) -> Result<T, BrowserError> {
        let mut call = runtime::Evaluate::by_value(expression);
        call.context_id = Some(ctx);
        decode(check(page.call(call).await?, expression)?, expression)
    }

    /// Evaluates `expression` in the frame's world and returns its JSON value. A context
    /// that vanished (navigation) is recreated once.
    pub async fn eval<T: DeserializeOwned>(
        &mut self,
        page: &PageSession,
        frame: &FrameId,
        loader: &LoaderId,
        expression: &str,
    ) -> Result<T, BrowserError> {
        for attempt in 0..2 {
            let ctx = self.context(page, frame, loader).await?;
            let mut call = runtime::Evaluate::by_value(expression);
            call.context_id = Some(ctx);
            match page.call(call).await {
                Ok(reply) => return decode(check(reply, expression)?, expression),
                Err(e) if attempt == 0 && is_lost_context(&e) => {
                    self.contexts.remove(frame);
                }
                Err(e) => return Err(e.into()),
            }
        }
        unreachable!("the loop returns on its second attempt")
    }

    /// Evaluates `expression` in the frame's world and returns a handle to its value (in
    /// [`OBJECT_GROUP`]); None for a value that is no object (null).
    pub async fn eval_object(
        &mut self,
        page: &PageSession,
        frame: &FrameId,
        loader: &LoaderId,
        expression: &str,
    ) -> Result<Option<RemoteObjectId>, BrowserError> {
        let ctx = self.context(page, frame, loader).await?;
        let mut call = runtime::Evaluate::by_value(expression);
        call.context_id = Some(ctx);
        call.return_by_value = Some(false);
        call.object_group = Some(OBJECT_GROUP.into());
        Ok(check(page.call(call).await?, expression)?.object_id)
    }

    /// A handle to `node` inside the frame's world (in [`OBJECT_GROUP`]).
    pub async fn resolve(
        &mut self,
        page: &PageSession,
        handle: &NodeHandle,
        loader: &LoaderId,
    ) -> Result<Option<RemoteObjectId>, BrowserError> {
        let ctx = self.context(page, handle.frame(), loader).await?;
        match handle {
            NodeHandle::Backend { node, .. } => {
                let mut call = dom::ResolveNode::new(*node);
                call.execution_context_id = Some(ctx);
                call.object_group = Some(OBJECT_GROUP.into());
                match page.call(call).await {
                    Ok(r) => Ok(r.object.object_id),
                    // "No node with given id found": the node is gone.
                    Err(CdpError::Protocol { .. }) => Ok(None),
                    Err(e) => Err(e.into()),
                }
            }
            NodeHandle::Scan { key, .. } => {
                let mut call = runtime::Evaluate::by_value(format!("__arc.byKey({key})"));
                call.context_id = Some(ctx);
                call.return_by_value = Some(false);
                call.object_group = Some(OBJECT_GROUP.into());
                let reply = check(page.call(call).await?, "looking up a scanned node")?;
                Ok(reply.object_id)
            }
        }
    }

    /// Calls `function` (a JS function declaration) with `this` = the resolved node.
    pub async fn call_on<T: DeserializeOwned>(
        &self,
        page: &PageSession,
        object: &RemoteObjectId,
        function: &str,
        args: Vec<serde_json::Value>,
    ) -> Result<T, BrowserError> {
        let call = runtime::CallFunctionOn {
            function_declaration: function.into(),
            object_id: Some(object.clone()),
            arguments: Some(args.into_iter().map(runtime::CallArgument::value).collect()),
            return_by_value: Some(true),
            ..Default::default()
        };
        decode(check(page.call(call).await?, function)?, function)
    }

    /// Calls `function` with `this` = the resolved node and returns a handle to its value
    /// (in [`OBJECT_GROUP`]); None for a value that is no object (null).
    pub async fn call_on_object(
        &self,
        page: &PageSession,
        object: &RemoteObjectId,
        function: &str,
    ) -> Result<Option<RemoteObjectId>, BrowserError> {
        let call = runtime::CallFunctionOn {
            function_declaration: function.into(),
            object_id: Some(object.clone()),
            return_by_value: Some(false),
            object_group: Some(OBJECT_GROUP.into()),
            ..Default::default()
        };
        Ok(check(page.call(call).await?, function)?.object_id)
    }

    /// Releases every handle resolved since the last release.
    pub async fn release(&self, page: &PageSession) {
        let _ = page
            .call(runtime::ReleaseObjectGroup {
                object_group: OBJECT_GROUP.into(),
            })
            .await;
    }
}

/// Whether `e` says the world evaluated in no longer exists (its document is gone).
pub fn is_lost_world(e: &BrowserError) -> bool {
    matches!(e, BrowserError::Cdp(c) if is_lost_context(c))
}

fn is_lost_context(e: &CdpError) -> bool {
    matches!(e, CdpError::Protocol { message, .. } if message.contains("context"))
}

fn check(
    reply: runtime::EvaluateReturns,
    what: &str,
) -> Result<runtime::RemoteObject, BrowserError> {
    if let Some(details) = reply.exception_details {
        return Err(BrowserError::JavaScript {
            expression: short(what),
            text: details.message(),
        });
    }
    Ok(reply.result)
}

fn decode<T: DeserializeOwned>(
    object: runtime::RemoteObject,
    what: &str,
) -> Result<T, BrowserError> {
    let value = object.value.unwrap_or(serde_json::Value::Null);
    serde_json::from_value(value).map_err(|source| {
        CdpError::Deserialize {
            method: format!("Runtime ({})", short(what)),
            source,
        }
        .into()
    })
}

fn short(s: &str) -> String {
    let s = s.trim();
    if s.len() > 60 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(60).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_calls_the_notice_the_backend_installs() {
        let declared = format!("const NOTICE = '{}';", super::NOTICE);
        assert!(include_str!("js/world.js").contains(&declared));
    }
}
