//! `arc-cua bench ocr`: OCR latency on a desktop window (`--app`/`--pid`: X11 capture and
//! OCR timed apart) or on a PNG (`--image`), with the provider the backends use.

use super::bench::percentile;
use crate::desktop_args::DesktopArgs;
use crate::exit::{Exit, Failure};
use arc_core::{Backend, Bounds, Element};
use arc_desktop::capture::Screen;
use arc_vision::{Frame, GrayImage, OcrEngine, OcrMode, OcrProvider};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct OcrBench {
    /// A PNG to read instead of a desktop window.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["app", "pid"])]
    image: Option<PathBuf>,
    /// Reads per target (after one warm-up, which also starts the engine).
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Print the row as JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    desktop: DesktopArgs,
}

#[derive(Serialize)]
struct Row {
    target: String,
    width: u32,
    height: u32,
    runs: usize,
    ocr_threads: i32,
    engine_start_ms: f64,
    capture_p50_ms: Option<f64>,
    capture_p95_ms: Option<f64>,
    ocr_p50_ms: f64,
    ocr_p95_ms: f64,
    ocr_max_ms: f64,
    regions: usize,
}

fn env(e: impl std::fmt::Display) -> Failure {
    (Exit::Environment, e.to_string())
}

pub async fn run(args: OcrBench) -> Result<Exit, Failure> {
    if args.runs == 0 {
        return Err((Exit::BadInput, "--runs must be at least 1".into()));
    }
    let (target, image, origin, existing, captures) = match &args.image {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| (Exit::BadInput, format!("--image {}: {e}", path.display())))?;
            let image = GrayImage::from_png(&bytes)
                .map_err(|e| (Exit::BadInput, format!("--image {}: {e}", path.display())))?;
            (
                path.display().to_string(),
                image,
                (0.0, 0.0),
                Vec::new(),
                Vec::new(),
            )
        }
        None => window(&args).await?,
    };
    let started = Instant::now();
    let mut provider = OcrProvider::new().map_err(env)?;
    let engine_start_ms = started.elapsed().as_secs_f64() * 1e3;
    let frame = || Frame {
        image: &image,
        origin,
        scale: 1.0,
        parent: None,
    };
    provider.perceive(&[frame()], &existing).map_err(env)?;
    let mut times = Vec::with_capacity(args.runs);
    let mut regions = 0;
    for _ in 0..args.runs {
        // The provider skips pixels it read last time: time a real Tesseract pass.
        provider.forget_reads();
        let t = Instant::now();
        regions = provider.perceive(&[frame()], &existing).map_err(env)?.len();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let has_captures = !captures.is_empty();
    let row = Row {
        target,
        width: image.width(),
        height: image.height(),
        runs: args.runs,
        ocr_threads: OcrEngine::thread_limit(),
        engine_start_ms,
        capture_p50_ms: has_captures.then(|| percentile(&captures, 0.50)),
        capture_p95_ms: has_captures.then(|| percentile(&captures, 0.95)),
        ocr_p50_ms: percentile(&times, 0.50),
        ocr_p95_ms: percentile(&times, 0.95),
        ocr_max_ms: times.last().copied().unwrap_or_default(),
        regions,
    };
    if args.json {
        crate::out::json_line(&row)?;
    } else {
        crate::outln!(
            "{} ({}×{}): OCR p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms over {} runs; {} regions; \
             capture p50 {} ms; engine start {:.1} ms; {} OCR thread(s)",
            row.target,
            row.width,
            row.height,
            row.ocr_p50_ms,
            row.ocr_p95_ms,
            row.ocr_max_ms,
            row.runs,
            row.regions,
            row.capture_p50_ms
                .map_or("n/a".into(), |c| format!("{c:.1}")),
            row.engine_start_ms,
            row.ocr_threads
        )?;
    }
    Ok(Exit::Ok)
}

type Window = (String, GrayImage, (f64, f64), Vec<Element>, Vec<f64>);

/// The bound application's window: its accessible elements, one capture to read and
/// the capture times.
async fn window(args: &OcrBench) -> Result<Window, Failure> {
    let mut backend = args.desktop.open(OcrMode::Never).await?;
    let snapshot = backend.observe().await.map_err(env)?;
    let bounds: Bounds = snapshot.viewport.ok_or_else(|| {
        (
            Exit::Environment,
            format!("{:?} reports no window box", backend.app().name),
        )
    })?;
    let screen = Screen::connect(None).map_err(env)?;
    let mut captures = Vec::with_capacity(args.runs);
    let mut grabbed = screen.grab(&bounds).map_err(env)?;
    for _ in 0..args.runs {
        let t = Instant::now();
        grabbed = screen.grab(&bounds).map_err(env)?;
        captures.push(t.elapsed().as_secs_f64() * 1e3);
    }
    captures.sort_by(f64::total_cmp);
    let (image, origin) = grabbed;
    let target = format!("atspi:{}", backend.app().name);
    Ok((target, image, origin, snapshot.elements.to_vec(), captures))
}
