//! Latency percentiles, nearest-rank (a reported p95 is a latency that occurred).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Percentiles {
    pub count: usize,
    pub p50: u64,
    pub p95: u64,
    pub p99: u64,
    pub max: u64,
}

impl Percentiles {
    /// None for no samples.
    pub fn of(values: &[u64]) -> Option<Percentiles> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_unstable();
        let rank = |p: usize| {
            let i = (p * v.len()).div_ceil(100);
            v[i.clamp(1, v.len()) - 1]
        };
        Some(Percentiles {
            count: v.len(),
            p50: rank(50),
            p95: rank(95),
            p99: rank(99),
            max: v[v.len() - 1],
        })
    }
}

/// The arithmetic mean; None for no samples.
pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The lower median (a value that occurred); None for no samples.
pub fn median(values: impl IntoIterator<Item = u64>) -> Option<u64> {
    let mut v: Vec<u64> = values.into_iter().collect();
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    Some(v[(v.len() - 1) / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let p = Percentiles::of(&(1..=100).rev().collect::<Vec<u64>>()).unwrap();
        assert_eq!(
            (p.p50, p.p95, p.p99, p.max, p.count),
            (50, 95, 99, 100, 100)
        );
        let one = Percentiles::of(&[7]).unwrap();
        assert_eq!((one.p50, one.p99), (7, 7));
        assert_eq!(Percentiles::of(&[]), None);
        assert_eq!(mean([1.0, 2.0]), Some(1.5));
        assert_eq!(mean([]), None);
        assert_eq!(median([30, 10, 20, 40]), Some(20));
        assert_eq!(median([]), None);
    }
}
