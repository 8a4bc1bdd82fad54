//! A JSON object that keeps insertion order. serde_json's map sorts its keys, and the
//! order of heads is part of the request's meaning (a model answers front to back).

use serde::ser::{Serialize, SerializeMap, Serializer};

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ordered<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Ordered<K, V> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<K: Serialize, V: Serialize> Serialize for Ordered<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
