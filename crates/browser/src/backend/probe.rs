//! The settle probe: one cheap sample of the page after an action (URL, readyState,
//! DOM mutations, focus, scroll, in-flight requests) and, with an expected effect,
//! whether it is on the page, in the same evaluate.

use super::ids::Origin;
use super::raw::NodeHandle;
use super::{failed, BrowserBackend};
use crate::cdp::methods::page;
use crate::cdp::{FrameId, LoaderId};
use arc_core::{BackendError, EffectSample, ElementId, ExpectedEffect, SettleSample};
use serde::Serialize;
use std::time::{SystemTime, UNIX_EPOCH};
use xxhash_rust::xxh3::xxh3_64;

impl BrowserBackend {
    /// One cheap sample: URL, readyState, DOM mutation count, focus and scroll from the
    /// page helpers, plus in-flight requests started since the action; with an expected
    /// effect, also whether it is on the page (same evaluate). `false` when it cannot be
    /// checked: a target the last scan did not key in the live main-frame world.
    pub(super) async fn probe(
        &mut self,
        effect: &ExpectedEffect,
    ) -> Result<EffectSample, BackendError> {
        let mut opened = self.shared.dialog_opened();
        opened.borrow_and_update();
        if let Some(d) = self.shared.lock().dialog.clone() {
            return Ok(EffectSample::unchecked(SettleSample {
                fingerprint: d.serial,
                busy: false,
            }));
        }
        let (frame, loader) = match self.main_frame() {
            Some(f) => f.clone(),
            None => {
                let tree = self
                    .page
                    .call(page::GetFrameTree {})
                    .await
                    .map_err(failed)?;
                (tree.frame_tree.frame.id, tree.frame_tree.frame.loader_id)
            }
        };
        let check = self.effect_check(effect, &frame, &loader).await?;
        let expression = match &check {
            Some(c) => format!("__arc.probe({})", serde_json::to_string(c).map_err(failed)?),
            None => "__arc.probe()".to_owned(),
        };
        let sample = tokio::select! {
            r = self.worlds.eval::<serde_json::Value>(&self.page, &frame, &loader, &expression) => r,
            _ = opened.changed() => return Ok(EffectSample::unchecked(
                SettleSample { fingerprint: 0, busy: false },
            )),
        };
        let busy_network = self.shared.lock().busy() || self.downloads.busy();
        match sample {
            Ok(mut v) => {
                // The effect's verdict and the steady count are not part of the
                // fingerprint (it stays comparable with the plain probe's): its landing is
                // not a change to wait out.
                let (landed, steady_count) = match (&check, v.as_array_mut()) {
                    (Some(_), Some(a)) => {
                        let landed = a.pop().and_then(|l| l.as_bool()).unwrap_or(false);
                        (landed, a.pop())
                    }
                    _ => (false, None),
                };
                let loading = v.get(1).and_then(|s| s.as_str()) != Some("complete");
                let fingerprint = xxh3_64(v.to_string().as_bytes());
                // The same sample with the steady mutation count in place of the full one.
                let steady = match (steady_count, v.as_array_mut()) {
                    (Some(n), Some(a)) if a.len() > 2 => {
                        a[2] = n;
                        xxh3_64(v.to_string().as_bytes())
                    }
                    _ => fingerprint,
                };
                Ok(EffectSample {
                    sample: SettleSample {
                        fingerprint,
                        busy: busy_network || loading,
                    },
                    landed,
                    steady,
                })
            }
            // The browser or the renderer is gone: no later sample can differ.
            Err(crate::BrowserError::Cdp(e)) if e.lost().is_some() => Err(failed(e)),
            // Mid-navigation the document (and our world in it) is being replaced: moving.
            Err(e) => {
                tracing::debug!("probe failed mid-change: {e}");
                let jitter = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                Ok(EffectSample::unchecked(SettleSample {
                    fingerprint: jitter,
                    busy: true,
                }))
            }
        }
    }

    /// The page-side form of `effect` (`__arc.probe`'s argument), when it can be checked.
    async fn effect_check(
        &mut self,
        effect: &ExpectedEffect,
        frame: &FrameId,
        loader: &LoaderId,
    ) -> Result<Option<EffectCheck>, BackendError> {
        use ExpectedEffect as E;
        let target = match effect {
            E::Unknown => return Ok(None),
            E::Navigated { url } => return Ok(Some(EffectCheck::Url { v: url.clone() })),
            E::ValueSet { target, .. }
            | E::OptionSelected { target, .. }
            | E::Checked { target, .. }
            | E::FocusMoved { target }
            | E::Expanded { target, .. }
            | E::Selected { target }
            | E::Hidden { target }
            | E::Reaction { target } => target,
        };
        let Some(k) = self.scan_key(target, frame, loader).await? else {
            return Ok(None);
        };
        Ok(Some(match effect {
            E::ValueSet { value, .. } => EffectCheck::Value {
                k,
                v: value.clone(),
            },
            E::OptionSelected { option, .. } => EffectCheck::Option {
                k,
                v: option.clone(),
            },
            E::Checked { checked, .. } => EffectCheck::Checked { k, v: *checked },
            E::Expanded { expanded, .. } => EffectCheck::Expanded { k, v: *expanded },
            E::Selected { .. } => EffectCheck::Selected { k },
            E::Hidden { .. } => EffectCheck::Hidden { k },
            E::Reaction { .. } => EffectCheck::Reaction { k },
            E::FocusMoved { .. } => EffectCheck::Focus { k },
            E::Unknown | E::Navigated { .. } => return Ok(None),
        }))
    }

    /// The scan key of `id` when the main frame's live world keyed it (the world the
    /// probe runs in); `None` for any other element (a full read's, a stale world's).
    async fn scan_key(
        &mut self,
        id: &ElementId,
        frame: &FrameId,
        loader: &LoaderId,
    ) -> Result<Option<u64>, BackendError> {
        let Some((registered, handle)) = self.ids.resolve(id) else {
            return Ok(None);
        };
        let (Origin::Scan { loader: l, world }, NodeHandle::Scan { frame: f, key }) =
            (Origin::of(registered), handle)
        else {
            return Ok(None);
        };
        let key = *key;
        if l != *loader || f != frame {
            return Ok(None);
        }
        let live = self
            .worlds
            .context(&self.page, frame, loader)
            .await
            .map_err(failed)?;
        Ok((live == world).then_some(key))
    }
}

/// `__arc.probe`'s effect argument (see `js/world.js`'s `effectLanded`).
#[derive(Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum EffectCheck {
    Value {
        k: u64,
        v: String,
    },
    Checked {
        k: u64,
        v: bool,
    },
    Option {
        k: u64,
        v: String,
    },
    Focus {
        k: u64,
    },
    Expanded {
        k: u64,
        v: bool,
    },
    Selected {
        k: u64,
    },
    Hidden {
        k: u64,
    },
    /// Settling judges the reaction; the page only counts the steady mutations.
    Reaction {
        k: u64,
    },
    Url {
        v: String,
    },
}
