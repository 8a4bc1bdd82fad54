use crate::exit::{Exit, Failure};
use clap::{Args, ValueEnum};

#[derive(Args)]
pub struct SchemaArgs {
    /// Which payload.
    #[arg(value_enum)]
    what: Payload,
}

#[derive(Clone, Copy, ValueEnum)]
enum Payload {
    /// The subtask `run`, `validate`, the host's `run_subtask` and MCP's take.
    Subtask,
}

pub fn run(args: SchemaArgs) -> Result<Exit, Failure> {
    let schema = match args.what {
        Payload::Subtask => arc_core::schema::subtask(),
    };
    let text =
        serde_json::to_string_pretty(&schema).map_err(|e| (Exit::Environment, e.to_string()))?;
    crate::outln!("{text}")?;
    Ok(Exit::Ok)
}
