use crate::exit::{Exit, Failure};
use crate::input::read_subtask;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ValidateArgs {
    /// Read the payload from this file instead of stdin.
    #[arg(long, short)]
    file: Option<PathBuf>,
    /// Pretty-print the normalized subtask.
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: ValidateArgs) -> Result<Exit, Failure> {
    let subtask = read_subtask(args.file.as_deref())?;
    let text = if args.pretty {
        serde_json::to_string_pretty(&subtask)
    } else {
        serde_json::to_string(&subtask)
    };
    crate::outln!("{}", text.map_err(|e| (Exit::Environment, e.to_string()))?)?;
    Ok(Exit::Ok)
}
