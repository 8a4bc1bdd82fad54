//! A digest of the page's state, taken before a run and compared after it by the
//! `state_changed` assertion. In a browser: the markup, every form control's value and
//! checkedness, the URL and the title, hashed in the page (a big page's markup never
//! crosses the wire). On the simulated app: the snapshot revision.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Fingerprint(pub String);
