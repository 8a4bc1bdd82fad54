//! Tesseract in process: one engine, initialised once (≈ 66 ms) and reused; words read
//! from its TSV output and grouped into text regions.
//!
//! Threads: Debian's libtesseract runs LSTM layers on OpenMP, which on two cores is ≈ 5×
//! slower than one thread (0.85 s vs 0.16 s, platform notes). libgomp reads
//! `OMP_THREAD_LIMIT` when it loads, i.e. before `main`, so the variable has to be in the
//! environment the process starts with: the CLI re-executes itself with it
//! (`arc_vision::SINGLE_THREAD_ENV`), tests get it from `.cargo/config.toml`.
//! [`OcrEngine::thread_limit`] reports what libgomp actually holds.

use crate::error::VisionError;
use crate::image::GrayImage;
use arc_core::element::Bounds;
use leptess::{LepTess, Variable};
use std::os::raw::c_int;

#[link(name = "gomp")]
extern "C" {
    fn omp_get_thread_limit() -> c_int;
}

/// The variable and value the process must start with for one OCR thread.
pub const SINGLE_THREAD_ENV: (&str, &str) = ("OMP_THREAD_LIMIT", "1");

/// Words below this confidence (0–100) are noise: borders read as `|`, icons as letters.
const MIN_WORD_CONFIDENCE: f32 = 40.0;
/// A gap wider than this many line heights splits a line into two regions: two buttons on
/// one row are two targets, not one phrase.
const SPLIT_GAP_LINE_HEIGHTS: f64 = 1.2;

/// One line of text (or one gap-separated part of a line) in image pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct TextRegion {
    pub text: String,
    pub bounds: Bounds,
    /// The lowest word confidence in the region, 0–100.
    pub confidence: f32,
}

pub struct OcrEngine {
    tess: LepTess,
}

#[derive(Debug)]
struct Word {
    line: (u32, u32, u32),
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    conf: f32,
    text: String,
}

impl OcrEngine {
    /// Starts Tesseract with the system's English data.
    pub fn new() -> Result<OcrEngine, VisionError> {
        let mut tess = LepTess::new(None, "eng").map_err(|e| VisionError::Init(e.to_string()))?;
        // Sparse text: a UI is scattered labels, not a page of paragraphs.
        tess.set_variable(Variable::TesseditPagesegMode, "11")
            .map_err(|_| VisionError::Init("setting the page segmentation mode".into()))?;
        // Dark-on-light UI text: no second, inverted pass over every weak line.
        tess.set_variable(Variable::TesseditDoInvert, "0")
            .map_err(|_| VisionError::Init("turning off the inverted pass".into()))?;
        tess.set_variable(Variable::DebugFile, "/dev/null")
            .map_err(|_| VisionError::Init("silencing the debug output".into()))?;
        Ok(OcrEngine { tess })
    }

    /// The linked Tesseract's version (`5.3.0`).
    pub fn version() -> String {
        // SAFETY: TessVersion returns a static NUL-terminated string owned by the library.
        unsafe { std::ffi::CStr::from_ptr(leptess::capi::TessVersion()) }
            .to_string_lossy()
            .into_owned()
    }

    /// The most threads OpenMP lets Tesseract use in this process.
    pub fn thread_limit() -> i32 {
        // SAFETY: a plain getter of libgomp (which libtesseract links) with no arguments.
        unsafe { omp_get_thread_limit() }
    }

    /// The text regions of `image`, boxes in `image`'s pixels. The image is upscaled 2×
    /// first when `upscale` (screen pixels; a CDP screenshot taken at 2× needs none).
    pub fn read(
        &mut self,
        image: &GrayImage,
        upscale: bool,
    ) -> Result<Vec<TextRegion>, VisionError> {
        let (pgm, factor) = if upscale {
            (image.upscale2()?.to_pgm(), 2.0)
        } else {
            (image.to_pgm(), 1.0)
        };
        self.tess
            .set_image_from_mem(&pgm)
            .map_err(|e| VisionError::BadImage(format!("Leptonica: {e}")))?;
        self.tess.set_source_resolution(144);
        let tsv = self
            .tess
            .get_tsv_text(0)
            .map_err(|e| VisionError::Ocr(format!("TSV output: {e}")))?;
        Ok(group(parse_tsv(&tsv, factor)))
    }
}

/// Word rows (level 5) of Tesseract's TSV, boxes divided by `factor`.
fn parse_tsv(tsv: &str, factor: f64) -> Vec<Word> {
    tsv.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.splitn(12, '\t').collect();
            if f.len() < 12 || f[0] != "5" {
                return None;
            }
            let n = |i: usize| f[i].trim().parse::<f64>().ok();
            let text = f[11].trim();
            let conf = f[10].trim().parse::<f32>().ok()?;
            if text.is_empty() || conf < MIN_WORD_CONFIDENCE {
                return None;
            }
            Some(Word {
                line: (n(2)? as u32, n(3)? as u32, n(4)? as u32),
                left: n(6)? / factor,
                top: n(7)? / factor,
                width: n(8)? / factor,
                height: n(9)? / factor,
                conf,
                text: text.to_owned(),
            })
        })
        .collect()
}

/// Words of one line joined left to right; a wide gap starts a new region. Regions with
/// no letter or digit (rules, icons) are dropped.
fn group(mut words: Vec<Word>) -> Vec<TextRegion> {
    words.sort_by(|a, b| a.line.cmp(&b.line).then(a.left.total_cmp(&b.left)));
    let mut out: Vec<TextRegion> = Vec::new();
    let mut prev: Option<&Word> = None;
    let mut current: Option<TextRegion> = None;
    for w in &words {
        let split = match prev {
            None => true,
            Some(p) => {
                let gap = w.left - (p.left + p.width);
                p.line != w.line || gap > SPLIT_GAP_LINE_HEIGHTS * p.height.max(w.height)
            }
        };
        if split {
            out.extend(current.take());
            current = Some(TextRegion {
                text: w.text.clone(),
                bounds: Bounds {
                    x: w.left,
                    y: w.top,
                    width: w.width,
                    height: w.height,
                },
                confidence: w.conf,
            });
        } else if let Some(r) = current.as_mut() {
            r.text.push(' ');
            r.text.push_str(&w.text);
            r.bounds = union(&r.bounds, w.left, w.top, w.width, w.height);
            r.confidence = r.confidence.min(w.conf);
        }
        prev = Some(w);
    }
    out.extend(current);
    out.retain(|r| r.text.chars().any(char::is_alphanumeric));
    out
}

fn union(b: &Bounds, x: f64, y: f64, w: f64, h: f64) -> Bounds {
    let x0 = b.x.min(x);
    let y0 = b.y.min(y);
    let x1 = (b.x + b.width).max(x + w);
    let y1 = (b.y + b.height).max(y + h);
    Bounds {
        x: x0,
        y: y0,
        width: x1 - x0,
        height: y1 - y0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t
5\t1\t1\t1\t1\t1\t20\t40\t60\t20\t95.1\tSave
5\t1\t1\t1\t1\t2\t90\t40\t40\t20\t93.0\tall
5\t1\t1\t1\t1\t3\t400\t40\t80\t20\t91.0\tCancel
5\t1\t2\t1\t1\t1\t20\t200\t10\t20\t12.0\t|
5\t1\t2\t1\t1\t2\t50\t200\t10\t20\t80.0\t—
";

    #[test]
    fn words_group_into_lines_split_at_wide_gaps() {
        let regions = group(parse_tsv(TSV, 2.0));
        let texts: Vec<&str> = regions.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["Save all", "Cancel"]);
        assert_eq!(
            regions[0].bounds,
            Bounds {
                x: 10.0,
                y: 20.0,
                width: 55.0,
                height: 10.0
            }
        );
        assert_eq!(regions[0].confidence, 93.0);
    }
}
