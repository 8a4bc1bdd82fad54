//! Fitting the view into the token budget.
//!
//! Elements come in keep order (most valuable first, see [`super::tier`]); the view keeps
//! the longest prefix of that order whose lines fit beside the notice. Lines are rendered
//! and tokenized lazily in that order, so a 25,000-element page costs about a budget's
//! worth of tokenizing, not 25,000 lines' worth.
//!
//! Each line is counted together with the newline after it. o200k_base's split regex
//! never lets a piece run from one line into the next when the next starts with `[`, `#`
//! or indentation (a piece may swallow a trailing newline, never what follows it), so
//! the sum of those counts is the count of the joined lines. The final text is still
//! counted once, exactly, and the prefix shortened if it is ever over.

use super::line::write_line;
use super::notice::{Detail, Inventory};
use super::tokens::count_tokens;
use super::tree::Tree;
use super::CompactView;
use arc_core::Snapshot;

/// Deeper nesting is drawn at this depth: past it, more spaces tell a reader nothing.
const MAX_INDENT: u32 = 12;

pub(crate) struct Fitter<'a> {
    snapshot: &'a Snapshot,
    tree: &'a Tree,
    inventory: &'a Inventory<'a>,
    /// Element indices, most valuable first.
    order: Vec<u32>,
    indent: bool,
    budget: usize,
    /// Rendered lines, in keep order, each followed by its newline.
    buf: String,
    /// Byte range of each rendered line in `buf` (newline excluded).
    spans: Vec<(usize, usize)>,
    /// `cum[k]`: tokens of the first `k` lines, each with its newline.
    cum: Vec<usize>,
}

impl<'a> Fitter<'a> {
    pub fn new(
        snapshot: &'a Snapshot,
        tree: &'a Tree,
        inventory: &'a Inventory<'a>,
        order: Vec<u32>,
        indent: bool,
        budget: usize,
    ) -> Self {
        Fitter {
            snapshot,
            tree,
            inventory,
            order,
            indent,
            budget,
            buf: String::new(),
            spans: Vec::new(),
            cum: vec![0],
        }
    }

    pub fn fit(mut self) -> CompactView {
        let all = self.order.len();
        if self.prefix_within(self.budget.saturating_add(1)) == all {
            // The +1: the last line has no newline after it, which may save a token.
            let text = self.assemble(all, None);
            let tokens = count_tokens(&text);
            if tokens <= self.budget {
                return CompactView {
                    text,
                    tokens,
                    truncated: false,
                    notice: None,
                };
            }
        }
        for detail in Detail::ALL {
            if let Some(view) = self.fit_with(detail) {
                return view;
            }
        }
        // Not even `# truncated` fits (a budget of a token or two): say nothing.
        self.view(0, String::new(), 0)
    }

    /// The view with the notice at `detail`, if that notice fits its share of the budget
    /// (see [`share`]).
    fn fit_with(&mut self, detail: Detail) -> Option<CompactView> {
        let last = self.order.len().saturating_sub(1);
        let mut reserve = 0usize;
        // The notice grows as more is evicted (longer role list, more ids), so reserve
        // what the last draft needed and redo; it settles in two or three rounds.
        for _ in 0..8 {
            let limit = self.budget.checked_sub(reserve)?;
            let mut k = self.prefix_within(limit).min(last);
            let mut notice = self.notice_text(k, detail);
            let need = count_tokens(&notice);
            if need > self.budget / share(detail) {
                return None;
            }
            if need > reserve {
                reserve = need;
                continue;
            }
            loop {
                let text = self.assemble(k, Some(&notice));
                let tokens = count_tokens(&text);
                if tokens <= self.budget {
                    return Some(self.view(k, text, tokens));
                }
                if k == 0 {
                    return None;
                }
                // The per-line sum under-counted (should not happen): give up a line.
                k -= 1;
                notice = self.notice_text(k, detail);
            }
        }
        None
    }

    fn notice_text(&self, k: usize, detail: Detail) -> String {
        let elements = &self.snapshot.elements[..];
        let mut out = String::new();
        self.inventory
            .draft(elements, &self.order[..k])
            .write(&mut out, detail);
        out
    }

    fn view(&self, k: usize, text: String, tokens: usize) -> CompactView {
        let notice = self
            .inventory
            .notice(&self.snapshot.elements, &self.order[..k]);
        CompactView {
            text,
            tokens,
            truncated: true,
            notice: Some(notice),
        }
    }

    /// The largest `k` whose first `k` lines cost at most `limit` tokens, rendering and
    /// counting lines only as far as needed.
    fn prefix_within(&mut self, limit: usize) -> usize {
        while self.spans.len() < self.order.len() && *self.cum.last().unwrap_or(&0) <= limit {
            self.render_next();
        }
        self.cum.partition_point(|&c| c <= limit) - 1
    }

    fn render_next(&mut self) {
        let i = self.order[self.spans.len()] as usize;
        let e = &self.snapshot.elements[i];
        let start = self.buf.len();
        if self.indent {
            for _ in 0..self.tree.depth[i].min(MAX_INDENT) {
                self.buf.push_str("  ");
            }
        }
        write_line(&mut self.buf, e, self.snapshot.on_screen(e));
        let end = self.buf.len();
        self.buf.push('\n');
        let tokens = count_tokens(&self.buf[start..]);
        self.spans.push((start, end));
        let total = self.cum.last().unwrap_or(&0) + tokens;
        self.cum.push(total);
    }

    /// The first `k` lines in document order, then the notice.
    fn assemble(&self, k: usize, notice: Option<&str>) -> String {
        let mut lines: Vec<(u32, (usize, usize))> = self.order[..k]
            .iter()
            .copied()
            .zip(self.spans[..k].iter().copied())
            .collect();
        lines.sort_unstable_by_key(|(i, _)| *i);
        let len: usize = lines.iter().map(|(_, (s, e))| e - s + 1).sum();
        let mut text = String::with_capacity(len + notice.map_or(0, str::len));
        for (_, (s, e)) in lines {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&self.buf[s..e]);
        }
        if let Some(notice) = notice {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(notice);
        }
        text
    }
}

/// The notice at `detail` may take at most `budget / share(detail)` tokens: lines are
/// worth more than a list of ids, so a tight budget gets a terser notice.
fn share(detail: Detail) -> usize {
    match detail {
        Detail::Full => 4,
        Detail::Short => 3,
        Detail::Counts => 2,
        Detail::Bare => 1,
    }
}
