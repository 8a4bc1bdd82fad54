//! Tesseract in process: one engine, initialised once (≈ 66 ms) and reused; words read
//! from its TSV output and grouped into text regions. The library is loaded at run time,
//! on the first engine (`tess.rs`): building needs no Tesseract, and only OCR needs it
//! installed.
//!
//! Threads: Debian's libtesseract runs LSTM layers on OpenMP, which on two cores is ≈ 5×
//! slower than one thread (0.85 s vs 0.16 s, platform notes). libgomp reads
//! `OMP_THREAD_LIMIT` when it loads (with libtesseract), and changing the environment of a
//! running, threaded process is not sound, so the variable has to be in the environment the
//! process starts with: the CLI re-executes itself with it (`arc_vision::SINGLE_THREAD_ENV`),
//! tests get it from `.cargo/config.toml`. [`OcrEngine::thread_limit`] reports what libgomp
//! actually holds.

use crate::error::VisionError;
use crate::image::GrayImage;
use crate::layout::{self, LineBox};
use crate::tess::{self, Handle};
use arc_core::element::Bounds;
use std::ffi::CStr;

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
    tess: Handle,
    /// The page segmentation mode set now (changed only when a read needs another).
    psm: Psm,
    /// The crop handed to Tesseract, reused from line to line.
    crop: Vec<u8>,
}

/// Tesseract's page segmentation modes used here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Psm {
    /// 11, sparse text: a whole frame, a UI's scattered labels.
    Sparse,
    /// 7, one line: a line the layout pass found.
    Line,
}

impl Psm {
    fn value(self) -> &'static CStr {
        match self {
            Psm::Sparse => c"11",
            Psm::Line => c"7",
        }
    }
}

/// Lines shorter than this many screen pixels (text under ≈ 12 px) are upscaled 2× before
/// Tesseract, which misreads small text at 1× (platform notes). Taller lines read as they
/// are: on the 1280×800 canvas fixture (lines 14–20 px) upscaling them cost ≈ 30 % more
/// time and read the same 14 texts.
const UPSCALE_BELOW: f64 = 14.0;
/// Background margin around a line crop (image pixels at 1×): Tesseract wants some paper
/// around a line, and a synthetic one cannot hold a neighbour's border.
const CROP_MARGIN: u32 = 8;
/// Real pixels kept around a line's box: antialiased edges the layout's marks miss.
const CROP_SLACK: u32 = 2;

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

fn var(tess: &mut Handle, name: &CStr, value: &CStr, what: &str) -> Result<(), VisionError> {
    if tess.set_variable(name, value) {
        Ok(())
    } else {
        Err(VisionError::Init(what.into()))
    }
}

/// Tesseract's variable for the page segmentation mode.
const PSM: &CStr = c"tessedit_pageseg_mode";

impl OcrEngine {
    /// Starts Tesseract with the system's English data, loading the library first if this
    /// is the process's first engine ([`VisionError::NoTesseract`] when it is not
    /// installed).
    pub fn new() -> Result<OcrEngine, VisionError> {
        let mut tess = Handle::new(tess::api()?, c"eng")?;
        var(
            &mut tess,
            PSM,
            Psm::Sparse.value(),
            "setting the page segmentation mode",
        )?;
        // Dark-on-light text (a light-on-dark line is inverted first): no second,
        // inverted pass over every weak line.
        var(
            &mut tess,
            c"tessedit_do_invert",
            c"0",
            "turning off the inverted pass",
        )?;
        var(
            &mut tess,
            c"debug_file",
            c"/dev/null",
            "silencing the debug output",
        )?;
        Ok(OcrEngine {
            tess,
            psm: Psm::Sparse,
            crop: Vec::new(),
        })
    }

    /// The loaded Tesseract's version (`5.3.0`); `unavailable` when the library cannot be
    /// loaded ([`OcrEngine::new`] says why).
    pub fn version() -> String {
        tess::api().map_or_else(|_| "unavailable".into(), |t| t.version())
    }

    /// The most threads OpenMP lets Tesseract use in this process (libgomp's
    /// `omp_get_thread_limit`, loaded with libtesseract); 1 for a Tesseract without OpenMP
    /// or none at all.
    pub fn thread_limit() -> i32 {
        tess::api().map_or(1, |t| t.thread_limit())
    }

    /// The text regions of `image`, boxes in `image`'s pixels. `upscale`: the image is in
    /// screen pixels and small text needs a 2× upscale (a CDP screenshot taken at 2× needs
    /// none). The layout pass (`layout.rs`) finds the lines and Tesseract reads each one;
    /// an image too busy for it is read whole.
    pub fn read(
        &mut self,
        image: &GrayImage,
        upscale: bool,
    ) -> Result<Vec<TextRegion>, VisionError> {
        let unit = if upscale { 1.0 } else { 2.0 };
        let Some(lines) = layout::text_lines(image, unit) else {
            return self.read_whole(image, upscale);
        };
        self.set_psm(Psm::Line)?;
        let mut out = Vec::new();
        for line in &lines {
            let factor = if upscale && (line.height as f64) < UPSCALE_BELOW {
                2
            } else {
                1
            };
            let (w, h, origin) = self.fill_crop(image, line, factor);
            let words = self.recognize(w, h, factor as f64)?;
            out.extend(group(words.into_iter().map(|w| w.offset(origin)).collect()));
        }
        Ok(out)
    }

    /// The whole image in sparse-text mode, upscaled 2× first when `upscale`.
    fn read_whole(
        &mut self,
        image: &GrayImage,
        upscale: bool,
    ) -> Result<Vec<TextRegion>, VisionError> {
        self.set_psm(Psm::Sparse)?;
        let scaled;
        let (img, factor) = if upscale {
            scaled = image.upscale2()?;
            (&scaled, 2.0)
        } else {
            (image, 1.0)
        };
        self.crop.clear();
        self.crop.extend_from_slice(img.pixels());
        let words = self.recognize(img.width(), img.height(), factor)?;
        Ok(group(words))
    }

    fn set_psm(&mut self, psm: Psm) -> Result<(), VisionError> {
        if self.psm != psm {
            var(
                &mut self.tess,
                PSM,
                psm.value(),
                "setting the page segmentation mode",
            )?;
            self.psm = psm;
        }
        Ok(())
    }

    /// Tesseract over `self.crop` (`w`×`h` gray), word boxes divided by `factor`.
    fn recognize(&mut self, w: u32, h: u32, factor: f64) -> Result<Vec<Word>, VisionError> {
        self.tess.set_gray_image(&self.crop, w, h, 144)?;
        let tsv = self.tess.tsv_text(0)?;
        Ok(parse_tsv(&tsv, factor))
    }

    /// Lays `line` (with [`CROP_SLACK`]) into `self.crop` on a margin of its own
    /// background, dark text on light, scaled by `factor`. Returns the crop's size and the
    /// image point its top-left pixel stands for.
    fn fill_crop(
        &mut self,
        image: &GrayImage,
        line: &LineBox,
        factor: u32,
    ) -> (u32, u32, (f64, f64)) {
        let x0 = line.x.saturating_sub(CROP_SLACK);
        let y0 = line.y.saturating_sub(CROP_SLACK);
        let x1 = (line.x + line.width + CROP_SLACK).min(image.width());
        let y1 = (line.y + line.height + CROP_SLACK).min(image.height());
        let (cw, ch) = (x1 - x0, y1 - y0);
        let px = image.pixels();
        let iw = image.width() as usize;
        let at = |x: u32, y: u32| px[y as usize * iw + x as usize];
        // The background: the most common value on the crop's rim.
        let mut hist = [0u32; 256];
        for x in x0..x1 {
            hist[at(x, y0) as usize] += 1;
            hist[at(x, y1 - 1) as usize] += 1;
        }
        for y in y0..y1 {
            hist[at(x0, y) as usize] += 1;
            hist[at(x1 - 1, y) as usize] += 1;
        }
        let bg = (0..256).max_by_key(|&v| hist[v]).unwrap_or(255) as u8;
        // Light text on a dark ground is inverted: the inverted pass is off.
        let (mut sum, mut n) = (0u64, 0u64);
        for y in y0..y1 {
            for x in x0..x1 {
                let p = at(x, y);
                if (p as i32 - bg as i32).abs() >= layout::EDGE_CONTRAST {
                    sum += p as u64;
                    n += 1;
                }
            }
        }
        let invert = n > 0 && sum / n > bg as u64;
        let map = |p: u8| if invert { 255 - p } else { p };
        let m = CROP_MARGIN;
        let (w, h) = ((cw + 2 * m) * factor, (ch + 2 * m) * factor);
        self.crop.clear();
        self.crop.resize(w as usize * h as usize, map(bg));
        for y in 0..ch {
            for rep in 0..factor {
                let row = ((m + y) * factor + rep) as usize * w as usize;
                let mut i = row + (m * factor) as usize;
                for x in 0..cw {
                    let p = map(at(x0 + x, y0 + y));
                    for _ in 0..factor {
                        self.crop[i] = p;
                        i += 1;
                    }
                }
            }
        }
        (w, h, (x0 as f64 - m as f64, y0 as f64 - m as f64))
    }
}

impl Word {
    fn offset(mut self, (x, y): (f64, f64)) -> Word {
        self.left += x;
        self.top += y;
        self
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
