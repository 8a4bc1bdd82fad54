//! The prices behind the scorecard's cost column, optionally read from a JSON file:
//!
//! ```json
//! {"input_usd_per_million_tokens": 2.5, "output_usd_per_million_tokens": 10,
//!  "runtime_usd_per_hour": 0.05}
//! ```

use crate::error::EvalError;
use crate::result::Tokens;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Zero by default: the reflex and the cascade without a model spend no tokens, and
/// local runtime is not billed. A file may leave out any price (zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pricing {
    #[serde(default)]
    pub input_usd_per_million_tokens: f64,
    #[serde(default)]
    pub output_usd_per_million_tokens: f64,
    /// Infrastructure time (a VM, a hosted browser), per hour of task wall time.
    #[serde(default)]
    pub runtime_usd_per_hour: f64,
}

impl Pricing {
    pub fn cost(&self, tokens: Tokens, wall_ms: u64) -> f64 {
        tokens.input as f64 * self.input_usd_per_million_tokens / 1e6
            + tokens.output as f64 * self.output_usd_per_million_tokens / 1e6
            + wall_ms as f64 / 3.6e6 * self.runtime_usd_per_hour
    }

    /// Reads a pricing file; errors name the file and the field.
    pub fn from_file(path: &Path) -> Result<Pricing, EvalError> {
        let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
            path: path.to_owned(),
            source,
        })?;
        let origin = path.display().to_string();
        let p: Pricing =
            serde_json::from_str(&text).map_err(|e| EvalError::task(&origin, e.to_string()))?;
        let prices = [
            (
                "input_usd_per_million_tokens",
                p.input_usd_per_million_tokens,
            ),
            (
                "output_usd_per_million_tokens",
                p.output_usd_per_million_tokens,
            ),
            ("runtime_usd_per_hour", p.runtime_usd_per_hour),
        ];
        for (field, price) in prices {
            if !(price.is_finite() && price >= 0.0) {
                let msg = format!("`{field}` must be a price ≥ 0, not {price}");
                return Err(EvalError::task(origin, msg));
            }
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_runtime_are_priced() {
        let p = Pricing {
            input_usd_per_million_tokens: 2.0,
            output_usd_per_million_tokens: 8.0,
            runtime_usd_per_hour: 3.6,
        };
        let tokens = Tokens {
            input: 500_000,
            output: 250_000,
        };
        // 1.00 + 2.00 for the tokens, 0.001 for one second of runtime.
        assert!((p.cost(tokens, 1_000) - 3.001).abs() < 1e-9);
        assert_eq!(Pricing::default().cost(tokens, 60_000), 0.0);
    }

    #[test]
    fn a_pricing_file_names_itself_and_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prices.json");
        std::fs::write(&path, r#"{"input_usd_per_million_tokens": 1.5}"#).unwrap();
        let p = Pricing::from_file(&path).unwrap();
        assert_eq!(p.input_usd_per_million_tokens, 1.5);
        assert_eq!(p.runtime_usd_per_hour, 0.0);
        std::fs::write(&path, r#"{"input_usd_per_million": 1}"#).unwrap();
        let e = Pricing::from_file(&path).unwrap_err().to_string();
        assert!(
            e.contains("prices.json") && e.contains("input_usd_per_million"),
            "{e}"
        );
        std::fs::write(&path, r#"{"runtime_usd_per_hour": -1}"#).unwrap();
        let e = Pricing::from_file(&path).unwrap_err().to_string();
        assert!(e.contains("runtime_usd_per_hour"), "{e}");
    }
}
