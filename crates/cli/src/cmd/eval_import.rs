//! `arc-cua eval import <webarena|osworld> FILE`: upstream task files mapped into our task
//! format (`arc_eval::mappers`), the runnable ones written as a suite directory, with a
//! summary of what maps and what is flagged. Nothing is run: that needs WebArena's servers
//! or OSWorld's VMs.

use crate::exit::{Exit, Failure};
use arc_eval::mappers::{osworld, webarena, Coverage, MapError, Mapped, SiteMap};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

const LIVE: &str = "Live runs need WebArena's servers (shopping, shopping admin, reddit, \
gitlab, map, wikipedia) or OSWorld's desktop VMs; this machine has neither, so these tasks \
are mapped, not run.";

#[derive(Args)]
#[command(after_help = LIVE)]
pub struct ImportArgs {
    /// The upstream format of FILE.
    #[arg(value_enum)]
    benchmark: Benchmark,
    /// A task file (a JSON object or array of them, or JSONL) or a directory of such files.
    file: PathBuf,
    /// A WebArena site's base URL, e.g. `--site SHOPPING=http://host:7770` (repeatable).
    /// Also read from WEBARENA_<NAME> variables; the flag wins.
    #[arg(long = "site", value_name = "NAME=URL")]
    sites: Vec<String>,
    /// Write each runnable task as DIR/<id>.json: a suite the eval loader reads.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Also write tasks that check only part of what upstream checks (each one's
    /// description names the checks left out); by default only fully checked tasks.
    #[arg(long)]
    partial: bool,
    /// Print every mapped task as JSON (assertions, flagged checks with their upstream
    /// JSON, blockers, notes) instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Benchmark {
    Webarena,
    Osworld,
}

pub fn run(args: ImportArgs) -> Result<Exit, Failure> {
    let mapped = match args.benchmark {
        Benchmark::Webarena => {
            let mut sites = SiteMap::from_vars(std::env::vars()).map_err(failure)?;
            for entry in &args.sites {
                sites.insert_entry(entry).map_err(failure)?;
            }
            webarena::map_file(&args.file, &sites).map_err(failure)?
        }
        Benchmark::Osworld if !args.sites.is_empty() => {
            return Err((Exit::BadInput, "--site is for WebArena files".into()))
        }
        Benchmark::Osworld => osworld::map_file(&args.file).map_err(failure)?,
    };
    let chosen: Vec<&Mapped> = mapped
        .iter()
        .filter(|m| m.task.is_some() && (args.partial || m.coverage() == Coverage::Full))
        .collect();
    if let Some(dir) = &args.out {
        write(dir, &chosen)?;
    }
    if args.json {
        let json = serde_json::to_string_pretty(&mapped)
            .map_err(|e| (Exit::Environment, e.to_string()))?;
        crate::outln!("{json}")?;
    } else {
        crate::out::write(format_args!(
            "{}",
            table(&mapped, args.out.is_some(), args.partial)
        ))?;
    }
    let runnable = mapped.iter().filter(|m| m.task.is_some()).count();
    let full = mapped
        .iter()
        .filter(|m| m.task.is_some() && m.coverage() == Coverage::Full)
        .count();
    let mut summary = format!(
        "{} tasks: {runnable} runnable ({full} fully checked, {} partly), {} not runnable",
        mapped.len(),
        runnable - full,
        mapped.len() - runnable
    );
    if let Some(dir) = &args.out {
        summary.push_str(&format!("; {} written to {}", chosen.len(), dir.display()));
    }
    // With --json, stdout is the JSON alone.
    let say = |line: &str| {
        if args.json {
            eprintln!("{line}");
            Ok(())
        } else {
            crate::outln!("{line}")
        }
    };
    say(&format!("{summary}."))?;
    say(LIVE)?;
    Ok(Exit::Ok)
}

fn failure(e: MapError) -> Failure {
    match &e {
        MapError::Read { .. } => (Exit::Environment, e.to_string()),
        MapError::Placeholder { name, .. } => (
            Exit::BadInput,
            format!("{e}; give it with --site {name}=URL or WEBARENA_{name}=URL"),
        ),
        _ => (Exit::BadInput, e.to_string()),
    }
}

fn write(dir: &Path, tasks: &[&Mapped]) -> Result<(), Failure> {
    let fail = |path: &Path, e: String| {
        (
            Exit::Environment,
            format!("cannot write {}: {e}", path.display()),
        )
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e.to_string()))?;
    for m in tasks {
        let Some(task) = &m.task else { continue };
        let path = dir.join(format!("{}.json", task.id));
        let json = serde_json::to_string_pretty(task).map_err(|e| fail(&path, e.to_string()))?;
        std::fs::write(&path, json + "\n").map_err(|e| fail(&path, e.to_string()))?;
    }
    Ok(())
}

/// One row per task, then every flagged check and note by task.
fn table(mapped: &[Mapped], writing: bool, partial: bool) -> String {
    let status = |m: &Mapped| -> String {
        if m.task.is_none() {
            let why: Vec<String> = m.blockers.iter().map(|b| b.to_string()).collect();
            return format!("not runnable: {}", why.join("; "));
        }
        match (m.coverage(), writing, partial) {
            (Coverage::Full, true, _) => "written".into(),
            (Coverage::Full, false, _) => "runnable".into(),
            (_, true, true) => "written (partly checked)".into(),
            (_, true, false) => "partly checked: not written (--partial)".into(),
            (_, false, _) => "runnable (partly checked)".into(),
        }
    };
    let rows: Vec<[String; 5]> = mapped
        .iter()
        .map(|m| {
            [
                m.id.to_string(),
                m.category.to_string(),
                m.checks.len().to_string(),
                m.unsupported.len().to_string(),
                status(m),
            ]
        })
        .collect();
    let head = ["task", "category", "mapped", "flagged", "status"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].len())
            .chain([head[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..4).map(width).collect();
    let line = |cells: [&str; 5]| {
        format!(
            "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
        )
    };
    let mut out = line(head);
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    let flagged: Vec<String> = mapped
        .iter()
        .flat_map(|m| {
            let checks = m
                .unsupported
                .iter()
                .map(move |u| format!("  {}  {}: {}\n", m.id, u.kind, u.reason));
            let notes = m
                .notes
                .iter()
                .map(move |n| format!("  {}  note: {n}\n", m.id));
            checks.chain(notes)
        })
        .collect();
    if !flagged.is_empty() {
        out.push_str("\nflagged (kept in --json with the upstream JSON, not checked here):\n");
        out.extend(flagged);
    }
    out.push('\n');
    out
}
