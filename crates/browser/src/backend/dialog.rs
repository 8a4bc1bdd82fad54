//! JavaScript dialogs (alert, confirm, prompt, beforeunload) as elements: while one is
//! open the page is inert, so the snapshot is the dialog; OK, Cancel and the prompt's
//! field answer it through `Page.handleJavaScriptDialog`.

use super::ids::{Origin, POPUPS};
use super::pump::OpenDialog;
use super::raw::NodeHandle;
use super::{failed, BrowserBackend};
use crate::cdp::methods::page::{DialogType, HandleJavaScriptDialog};
use crate::cdp::{FrameId, LoaderId};
use arc_core::{
    ActionKind, ActionSet, BackendError, Element, ElementId, Guard, Role, Snapshot, Source,
};

const DIALOG: u64 = 0;
const OK: u64 = 1;
const CANCEL: u64 = 2;
const FIELD: u64 = 3;

fn loader_of(serial: u64) -> LoaderId {
    Origin::dialog_loader(serial)
}

fn part(key: u64) -> NodeHandle {
    NodeHandle::Scan {
        frame: FrameId("dialog".into()),
        key,
    }
}

impl BrowserBackend {
    pub(super) fn dialog_snapshot(&mut self, d: &OpenDialog) -> Snapshot {
        let elements = self.dialog_elements(d);
        let mut s = Snapshot::new("Chromium", "JavaScript dialog", elements);
        s.facts.dialog = Some(d.serial);
        s
    }

    fn dialog_elements(&mut self, d: &OpenDialog) -> Vec<Element> {
        let loader = loader_of(d.serial);
        let mut id = |key| self.ids.id_for(&loader, &part(key));
        let kind = match d.kind {
            DialogType::Alert => "alert",
            DialogType::Confirm => "confirm",
            DialogType::Prompt => "prompt",
            DialogType::Beforeunload => "leave page?",
            DialogType::Other => "dialog",
        };
        let dialog_id = id(DIALOG);
        let mut out = vec![Element::new(
            dialog_id.clone(),
            Role::Dialog,
            format!("{kind}: {}", d.message),
        )];
        let mut button = |key, name: &str| {
            let mut b = Element::new(id(key), Role::Button, name);
            b.actions = ActionSet::from([ActionKind::Click]);
            b.parent_id = Some(dialog_id.clone());
            b
        };
        out.push(button(OK, "OK"));
        if d.kind != DialogType::Alert {
            out.push(button(CANCEL, "Cancel"));
        }
        if d.kind == DialogType::Prompt {
            let text = self
                .shared
                .lock()
                .prompt_text
                .clone()
                .unwrap_or_else(|| d.default_prompt.clone());
            let mut field = Element::new(
                self.ids.id_for(&loader, &part(FIELD)),
                Role::TextField,
                d.message.clone(),
            );
            field.actions = ActionSet::from([ActionKind::TypeText, ActionKind::SetValue]);
            field.value = Some(text.into());
            field.parent_id = Some(dialog_id);
            out.push(field);
        }
        for e in &mut out {
            e.source = Source::Cdp;
        }
        out
    }

    /// The guard of a dialog part or tab as it is now (`None`: gone).
    pub(super) fn synthetic_guard(
        &mut self,
        loader: &LoaderId,
        handle: &NodeHandle,
    ) -> Option<Guard> {
        let elements = if loader.0 == POPUPS {
            self.popup_elements()
        } else {
            let d = self.shared.lock().dialog.clone()?;
            if loader_of(d.serial) != *loader {
                return None;
            }
            self.dialog_elements(&d)
        };
        let id = self.ids.id_for(loader, handle);
        elements
            .into_iter()
            .find(|e| e.id == id)
            .map(|e| e.effective_guard())
    }

    /// Answers the open dialog through one of its parts; `None` if `id` is not a dialog
    /// part (the caller handles it as a page element).
    pub(super) async fn act_on_dialog(
        &mut self,
        id: &ElementId,
        kind: ActionKind,
        text: &str,
    ) -> Option<Result<(), BackendError>> {
        let (loader, handle) = self.ids.resolve(id).map(|(l, h)| (l.clone(), h.clone()))?;
        if Origin::of(&loader) != Origin::Dialog {
            return None;
        }
        let current = self.shared.lock().dialog.clone();
        let Some(d) = current.filter(|d| loader_of(d.serial) == loader) else {
            return Some(Err(BackendError::stale(
                Some(id),
                "that dialog is no longer open",
            )));
        };
        let NodeHandle::Scan { key, .. } = handle else {
            return None;
        };
        Some(match (key, kind) {
            (FIELD, ActionKind::TypeText | ActionKind::SetValue) => {
                self.shared.lock().prompt_text = Some(text.to_owned());
                Ok(())
            }
            (OK, ActionKind::Click) => self.answer_dialog(true, &d).await,
            (CANCEL, ActionKind::Click) => self.answer_dialog(false, &d).await,
            _ => Err(BackendError::Unsupported {
                kind,
                backend: "cdp dialog",
            }),
        })
    }

    /// Answers dialog `d`. Only `d`'s state is cleared after: the page may raise the next
    /// dialog the moment this one closes, and the pump may have recorded it before the
    /// answer's reply arrives — wiping it would leave a page blocked on a dialog nobody
    /// knows of, whose every read then waits out the call timeout.
    pub(super) async fn answer_dialog(
        &mut self,
        accept: bool,
        d: &OpenDialog,
    ) -> Result<(), BackendError> {
        let prompt_text = if accept && d.kind == DialogType::Prompt {
            let s = self.shared.lock();
            Some(
                s.prompt_text
                    .clone()
                    .unwrap_or_else(|| d.default_prompt.clone()),
            )
        } else {
            None
        };
        self.page
            .call(HandleJavaScriptDialog {
                accept,
                prompt_text,
            })
            .await
            .map_err(failed)?;
        let mut s = self.shared.lock();
        if s.dialog.as_ref().map(|open| open.serial) == Some(d.serial) {
            s.dialog = None;
            s.prompt_text = None;
        }
        Ok(())
    }
}
