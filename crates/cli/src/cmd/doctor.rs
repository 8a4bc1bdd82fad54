//! `arc-cua doctor`: whether each thing a backend needs is usable here, and how to fix
//! what is not. Every check really uses the thing (connects, launches), never just
//! looks for a file.

use crate::exit::{Exit, Failure};
use arc_browser::{Chromium, LaunchOptions};
use arc_desktop::input::xtest::XInput;
use clap::Args;
use serde::Serialize;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct DoctorArgs {
    /// Print one JSON object per check instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Ok,
    Missing,
}

#[derive(Serialize)]
struct Check {
    check: &'static str,
    status: Status,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<&'static str>,
}

/// The longest any one check may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(15);

pub async fn run(args: DoctorArgs) -> Result<Exit, Failure> {
    let checks = vec![
        accessibility_bus().await,
        x_display(),
        chromium().await,
        tesseract(),
    ];
    for c in &checks {
        if args.json {
            crate::out::json_line(c)?;
        } else {
            let mark = match c.status {
                Status::Ok => "ok     ",
                Status::Missing => "MISSING",
            };
            crate::outln!("{mark} {}: {}", c.check, c.detail)?;
            if let Some(fix) = c.fix {
                crate::outln!("        fix: {fix}")?;
            }
        }
    }
    let missing = checks
        .iter()
        .filter(|c| c.status == Status::Missing)
        .count();
    if missing == 0 {
        Ok(Exit::Ok)
    } else {
        Err((
            Exit::Environment,
            format!("{missing} of {} checks failed", checks.len()),
        ))
    }
}

async fn accessibility_bus() -> Check {
    let check = "accessibility bus";
    let fix = Some(
        "install at-spi2-core (scripts/setup-system.sh) and run inside a D-Bus session \
         (e.g. `dbus-run-session -- arc-cua …`); GTK apps must not set NO_AT_BRIDGE",
    );
    let probe = async {
        let bus = arc_desktop::connect_bus(None)
            .await
            .map_err(|e| e.to_string())?;
        arc_desktop::apps::list(bus.connection())
            .await
            .map_err(|e| e.to_string())
    };
    match tokio::time::timeout(CHECK_TIMEOUT, probe).await {
        Ok(Ok(apps)) => {
            let names: Vec<&str> = apps.iter().map(|a| a.name.as_str()).collect();
            Check {
                check,
                status: Status::Ok,
                detail: format!("{} application(s) registered: {names:?}", apps.len()),
                fix: None,
            }
        }
        Ok(Err(e)) => Check {
            check,
            status: Status::Missing,
            detail: e,
            fix,
        },
        Err(_) => Check {
            check,
            status: Status::Missing,
            detail: format!("no answer within {CHECK_TIMEOUT:?}"),
            fix,
        },
    }
}

fn x_display() -> Check {
    let check = "X display (XTest input)";
    let display = std::env::var("DISPLAY").unwrap_or_default();
    match XInput::connect(None) {
        Ok(x) => Check {
            check,
            status: Status::Ok,
            detail: format!(
                "DISPLAY={display} with XTEST; pointer at {:?}",
                x.pointer().unwrap_or_default()
            ),
            fix: None,
        },
        Err(e) => Check {
            check,
            status: Status::Missing,
            detail: format!("DISPLAY={display:?}: {e}"),
            fix: Some(
                "set DISPLAY to a running X server; headless: `Xvfb :99 -screen 0 1280x800x24 &` \
                 then `export DISPLAY=:99` (apt: xvfb)",
            ),
        },
    }
}

async fn chromium() -> Check {
    let check = "Chromium";
    let options = LaunchOptions::default();
    let path = options.resolved_executable();
    let started = Instant::now();
    let fix = Some("install Debian's chromium (scripts/setup-system.sh) or set ARC_CUA_CHROMIUM");
    match tokio::time::timeout(CHECK_TIMEOUT, Chromium::launch(options)).await {
        Ok(Ok(browser)) => {
            let _ = browser.close().await;
            Check {
                check,
                status: Status::Ok,
                detail: format!(
                    "{} launched headless in {} ms",
                    path.display(),
                    started.elapsed().as_millis()
                ),
                fix: None,
            }
        }
        Ok(Err(e)) => Check {
            check,
            status: Status::Missing,
            detail: format!("{}: {e}", path.display()),
            fix,
        },
        Err(_) => Check {
            check,
            status: Status::Missing,
            detail: format!("{} did not answer within {CHECK_TIMEOUT:?}", path.display()),
            fix,
        },
    }
}

/// Starts the engine the OCR provider uses (English data loaded, as `observe --ocr`
/// does) and reports its version and OpenMP's thread limit in this process.
fn tesseract() -> Check {
    let check = "Tesseract (OCR)";
    let started = Instant::now();
    match arc_vision::OcrEngine::new() {
        Ok(_) => {
            let threads = arc_vision::OcrEngine::thread_limit();
            Check {
                check,
                status: Status::Ok,
                detail: format!(
                    "Tesseract {} with English data, started in {} ms; OCR threads: {}",
                    arc_vision::OcrEngine::version(),
                    started.elapsed().as_millis(),
                    if threads == 1 {
                        "1".to_owned()
                    } else {
                        format!("{threads} (OMP_THREAD_LIMIT=1 at start is faster on few cores)")
                    }
                ),
                fix: None,
            }
        }
        Err(e) => Check {
            check,
            status: Status::Missing,
            detail: e.to_string(),
            fix: Some(
                "install tesseract-ocr and tesseract-ocr-eng (scripts/setup-system.sh); \
                 TESSDATA_PREFIX, if set, must hold eng.traineddata",
            ),
        },
    }
}
