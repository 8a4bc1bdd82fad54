use crate::exit::{Exit, Failure};
use arc_policy::trajectory::{label, read_trajectory};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct LabelArgs {
    /// A trajectory written by `run --trajectory`.
    trajectory: PathBuf,
    /// Write stuck.jsonl, milestone.jsonl and summary.json into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(args: LabelArgs) -> Result<Exit, Failure> {
    let records = read_trajectory(&args.trajectory).map_err(|e| (Exit::BadInput, e.to_string()))?;
    let labeled = label(&records);
    if let Some(dir) = &args.out {
        labeled.write_to(dir).map_err(|e| {
            (
                Exit::Environment,
                format!("cannot write {}: {e}", dir.display()),
            )
        })?;
    }
    let summary =
        serde_json::to_string(&labeled.summary).map_err(|e| (Exit::Environment, e.to_string()))?;
    crate::outln!("{summary}")?;
    Ok(Exit::Ok)
}
