//! A cheap layout pass before Tesseract: where an image's text lines are, from pixels
//! alone, so Tesseract reads only those boxes (single-line mode) instead of laying out the
//! whole upscaled frame (≈ 4 M pixels for a 1280×800 window at 2×, most of them empty).
//!
//! Edges, not ink: a pixel differing from its right or lower neighbour by
//! [`EDGE_CONTRAST`] is marked, so dark-on-light and light-on-dark text both show and a
//! flat area of any colour costs nothing. The marks' 8-connected components are glyphs,
//! except: taller than a text line; a long thin rule; a frame (a hollow component around
//! another one, the ground inside it showing again outside — a button's or field's border); a long,
//! empty outline. Glyphs
//! overlapping vertically with a gap under [`SPLIT_GAP_LINE_HEIGHTS`] form a line (the
//! engine's own rule: two buttons on one row are two lines).
//!
//! `None` when the image is too busy for this (a photo, noise): the caller reads it whole.

use crate::image::GrayImage;

/// A grey-level step between neighbours that counts as an edge (as `input_box.rs`).
pub(crate) const EDGE_CONTRAST: i32 = 48;
/// Tallest text line, in screen pixels: taller components are panels and pictures.
const MAX_TEXT_HEIGHT: f64 = 64.0;
/// Shortest text line, in screen pixels: below this nothing is readable (a lone dot).
const MIN_TEXT_HEIGHT: f64 = 5.0;
/// A horizontal gap wider than this many line heights ends a line.
const SPLIT_GAP_LINE_HEIGHTS: f64 = 1.2;
/// Busy-image bounds: beyond these the pass gives up and the image is read whole.
const MAX_RUNS: usize = 300_000;
const MAX_COMPONENTS: usize = 20_000;
const MAX_LINES: usize = 256;

/// A text line's box in image pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineBox {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

#[derive(Clone, Copy, Debug)]
struct Comp {
    x0: u32,
    y0: u32,
    x1: u32, // inclusive
    y1: u32, // inclusive
    pixels: u32,
}

impl Comp {
    fn w(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    fn h(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    fn centre(&self) -> (u32, u32) {
        ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)
    }
    fn contains(&self, (x, y): (u32, u32)) -> bool {
        self.x0 < x && x < self.x1 && self.y0 < y && y < self.y1
    }
    fn merge(&mut self, o: &Comp) {
        self.x0 = self.x0.min(o.x0);
        self.y0 = self.y0.min(o.y0);
        self.x1 = self.x1.max(o.x1);
        self.y1 = self.y1.max(o.y1);
        self.pixels += o.pixels;
    }
}

/// The text lines of `img`, top to bottom then left to right. `unit`: image pixels per
/// screen pixel (1 for a window capture, 2 for a 2× screenshot), which scales the size
/// limits. `None`: too busy to lay out cheaply.
pub fn text_lines(img: &GrayImage, unit: f64) -> Option<Vec<LineBox>> {
    let comps = components(img)?;
    let glyphs = glyphs(img, &comps, unit)?;
    let lines = lines(glyphs, unit)?;
    (lines.len() <= MAX_LINES).then(|| {
        lines
            .into_iter()
            .map(|c| LineBox {
                x: c.x0,
                y: c.y0,
                width: c.w(),
                height: c.h(),
            })
            .collect()
    })
}

/// One row's edge marks as runs `[x0, x1)`.
fn row_runs(img: &GrayImage, y: usize, out: &mut Vec<(u32, u32)>) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let px = img.pixels();
    let row = &px[y * w..(y + 1) * w];
    let below = (y + 1 < h).then(|| &px[(y + 1) * w..(y + 2) * w]);
    let mut start: Option<usize> = None;
    for x in 0..w {
        let p = row[x] as i32;
        let right = x + 1 < w && (p - row[x + 1] as i32).abs() >= EDGE_CONTRAST;
        let down = below.is_some_and(|b| (p - b[x] as i32).abs() >= EDGE_CONTRAST);
        match (right || down, start) {
            (true, None) => start = Some(x),
            (false, Some(s)) => {
                out.push((s as u32, x as u32));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s as u32, w as u32));
    }
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[i as usize];
        parent[i as usize] = parent[p as usize];
        i = p;
    }
    i
}

/// 8-connected components of the edge marks, by runs and union-find.
fn components(img: &GrayImage) -> Option<Vec<Comp>> {
    let mut runs: Vec<(u32, u32, u32)> = Vec::new(); // (y, x0, x1)
    let mut parent: Vec<u32> = Vec::new();
    let mut row = Vec::new();
    let mut prev = 0..0; // the previous row's runs in `runs`
    for y in 0..img.height() as usize {
        row.clear();
        row_runs(img, y, &mut row);
        let first = runs.len();
        let mut j = prev.start;
        for &(x0, x1) in &row {
            let me = runs.len() as u32;
            runs.push((y as u32, x0, x1));
            parent.push(me);
            // Previous-row runs touching [x0 - 1, x1] (diagonals included).
            while j < prev.end && runs[j].2 < x0 {
                j += 1;
            }
            let mut k = j;
            while k < prev.end && runs[k].1 <= x1 {
                let (a, b) = (find(&mut parent, me), find(&mut parent, k as u32));
                if a != b {
                    parent[a.max(b) as usize] = a.min(b);
                }
                k += 1;
            }
        }
        if runs.len() > MAX_RUNS {
            return None;
        }
        prev = first..runs.len();
    }
    let mut slot: Vec<u32> = vec![u32::MAX; runs.len()];
    let mut comps: Vec<Comp> = Vec::new();
    for (i, &(y, x0, x1)) in runs.iter().enumerate() {
        let root = find(&mut parent, i as u32) as usize;
        let c = Comp {
            x0,
            y0: y,
            x1: x1 - 1,
            y1: y,
            pixels: x1 - x0,
        };
        if slot[root] == u32::MAX {
            slot[root] = comps.len() as u32;
            comps.push(c);
            if comps.len() > MAX_COMPONENTS {
                return None;
            }
        } else {
            comps[slot[root] as usize].merge(&c);
        }
    }
    Some(comps)
}

/// The components that look like (parts of) glyphs.
fn glyphs(img: &GrayImage, comps: &[Comp], unit: f64) -> Option<Vec<Comp>> {
    let max_h = (MAX_TEXT_HEIGHT * unit) as u32;
    let thin = (3.0 * unit) as u32;
    let frame_min = (12.0 * unit) as u32;
    let border = (3.0 * unit) as u32 + 1;
    let sized: Vec<&Comp> = comps
        .iter()
        .filter(|c| {
            let (w, h) = (c.w(), c.h());
            h <= max_h
                && c.pixels >= 2
                && !(h <= thin && w >= 8 * h) // a horizontal rule
                && !(w <= thin && h >= 10 * w) // a vertical rule
        })
        .collect();
    // Hollow and big enough to hold text: a border, or a bold glyph's outer contour.
    let hollow = |c: &Comp| {
        c.w() >= frame_min
            && c.h() >= frame_min
            && (c.pixels as f64) < 0.35 * (c.w() as f64 * c.h() as f64)
    };
    if sized.iter().filter(|c| hollow(c)).count() > MAX_LINES * 4 {
        return None;
    }
    Some(
        sized
            .iter()
            .filter(|c| {
                if !hollow(c) {
                    return true;
                }
                let holds = sized
                    .iter()
                    .any(|o| !std::ptr::eq(*o, **c) && frames(img, c, o, border));
                // An empty field's or rule box's outline: long, thin-walled, holding nothing.
                let (w, h) = (c.w(), c.h());
                let outline =
                    (c.pixels as f64) < 0.12 * (w as f64 * h as f64) && (w >= 3 * h || h >= 3 * w);
                !holds && !outline
            })
            .map(|c| **c)
            .collect(),
    )
}

/// Whether `c` is a border around `o`: `o`'s centre is inside `c`, and the ground
/// between `c`'s top and `o` shows again just above `c`, past at most a border's width
/// (`max_border`). A bold glyph's outer contour has its stroke there and paper above it
/// (an `O` is no frame around its counter); a thick border's inner contour has the
/// border above it, then the outside ground.
fn frames(img: &GrayImage, c: &Comp, o: &Comp, max_border: u32) -> bool {
    let (ox, oy) = o.centre();
    if !c.contains((ox, oy)) || o.y0 <= c.y0 {
        return false;
    }
    let x = ox as i64;
    let inside = img.get(x, (c.y0 as i64 + o.y0 as i64) / 2) as i32;
    (0..=max_border as i64)
        .any(|k| (img.get(x, c.y0 as i64 - k) as i32 - inside).abs() < EDGE_CONTRAST)
}

/// Glyphs joined into lines: vertical overlap of half the smaller height, horizontal gap
/// under [`SPLIT_GAP_LINE_HEIGHTS`] line heights; then a fragment (an `i`'s dot, an
/// accent) inside a line's span is folded into it, and what is too short to read dropped.
fn lines(mut glyphs: Vec<Comp>, unit: f64) -> Option<Vec<Comp>> {
    glyphs.sort_by_key(|c| (c.x0, c.y0));
    let mut lines: Vec<Comp> = Vec::new();
    for g in &glyphs {
        let best = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                let overlap = l.y1.min(g.y1) as i64 - l.y0.max(g.y0) as i64 + 1;
                let gap = g.x0 as i64 - l.x1 as i64 - 1;
                overlap * 2 >= g.h().min(l.h()) as i64
                    && (gap as f64) <= SPLIT_GAP_LINE_HEIGHTS * l.h().max(g.h()) as f64
            })
            .max_by_key(|(_, l)| l.y1.min(g.y1) as i64 - l.y0.max(g.y0) as i64)
            .map(|(i, _)| i);
        match best {
            Some(i) => lines[i].merge(g),
            None => lines.push(*g),
        }
        // Each glyph scans the open lines: bound the quadratic work on a busy image.
        if lines.len() > MAX_LINES * 4 {
            return None;
        }
    }
    // Fragments: a short line within another's columns and touching its rows (± half its
    // height) belongs to it.
    lines.sort_by_key(|l| std::cmp::Reverse(l.h()));
    let mut kept: Vec<Comp> = Vec::new();
    for l in lines {
        let host = kept.iter_mut().find(|k| {
            let reach = k.h() / 2 + 1;
            l.x0 + 1 >= k.x0 && l.x1 <= k.x1 + 1 && l.y1 + reach >= k.y0 && l.y0 <= k.y1 + reach
        });
        match host {
            Some(k) => k.merge(&l),
            None => kept.push(l),
        }
    }
    let min_h = (MIN_TEXT_HEIGHT * unit) as u32;
    kept.retain(|l| l.h() >= min_h);
    kept.sort_by_key(|l| (l.y0, l.x0));
    Some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fixtures/desktop/canvas_buttons.py --width 1280 --height 800` as Xvfb showed it.
    const CANVAS: &[u8] = include_bytes!("../tests/fixtures/canvas_buttons_1280x800.png");

    /// The fixture's own layout (`layout()` and `FIELD` in the script): 4 buttons of
    /// 200×56 a row from (60, 180), 40 px apart; the field at (60, 96, 520, 44); the title's
    /// baseline at (60, 60), 26 px bold.
    fn drawn_boxes() -> Vec<(i64, i64, i64, i64)> {
        let mut out = vec![(56, 28, 270, 42), (60, 96, 520, 44)];
        for i in 0..12 {
            let (row, col) = (i / 4, i % 4);
            out.push((60 + col * 240, 180 + row * 96, 200, 56));
        }
        out
    }

    fn inside(l: &LineBox, (x, y, w, h): (i64, i64, i64, i64)) -> bool {
        let (lx, ly) = (l.x as i64, l.y as i64);
        lx >= x && ly >= y && lx + l.width as i64 <= x + w && ly + l.height as i64 <= y + h
    }

    #[test]
    fn one_line_per_drawn_label_and_no_border_is_text() {
        let img = GrayImage::from_png(CANVAS).unwrap();
        let lines = text_lines(&img, 1.0).expect("a UI is not too busy");
        let boxes = drawn_boxes();
        // Every line lies strictly inside one drawn box (no border is taken for text) …
        for l in &lines {
            assert_eq!(
                boxes.iter().filter(|b| inside(l, **b)).count(),
                1,
                "{l:?} is not inside exactly one drawn box"
            );
            assert!(
                (8..=40).contains(&l.height),
                "{l:?}: not a text line's height"
            );
        }
        // … and every box holds exactly one line: the 14 labels, none split or lost.
        for b in &boxes {
            let n = lines.iter().filter(|l| inside(l, *b)).count();
            assert_eq!(n, 1, "{b:?} holds {n} lines: {lines:?}");
        }
        // The field's placeholder starts near the field's left edge (an input's text).
        let field = lines.iter().find(|l| inside(l, boxes[1])).unwrap();
        assert!(field.x < 60 + 24, "{field:?}");
    }

    #[test]
    fn a_flat_image_has_no_lines_and_noise_gives_up() {
        let flat = GrayImage::new(640, 400, vec![200; 640 * 400]).unwrap();
        assert_eq!(text_lines(&flat, 1.0), Some(Vec::new()));
        // A dark dot every third pixel each way: ≈ 28,000 specks, far too busy.
        let px = (0..640 * 400)
            .map(|i| {
                if i % 640 % 3 == 0 && i / 640 % 3 == 0 {
                    0
                } else {
                    255
                }
            })
            .collect();
        let noise = GrayImage::new(640, 400, px).unwrap();
        assert_eq!(text_lines(&noise, 1.0), None);
    }

    #[test]
    fn two_labels_on_one_row_are_two_lines_and_scale_with_unit() {
        let img = GrayImage::from_png(CANVAS).unwrap();
        let one = text_lines(&img, 1.0).unwrap();
        // The first button row: four lines at one height.
        let row: Vec<_> = one.iter().filter(|l| l.y > 180 && l.y < 236).collect();
        assert_eq!(row.len(), 4, "{row:?}");
        // The same picture at 2× lays out the same lines at twice the coordinates.
        let two = text_lines(&img.upscale2().unwrap(), 2.0).unwrap();
        assert_eq!(one.len(), two.len(), "{one:?}\n{two:?}");
        for (a, b) in one.iter().zip(&two) {
            assert!((b.x as i64 - 2 * a.x as i64).abs() <= 2, "{a:?} vs {b:?}");
            assert!(
                (b.height as i64 - 2 * a.height as i64).abs() <= 2,
                "{a:?} vs {b:?}"
            );
        }
    }
}
