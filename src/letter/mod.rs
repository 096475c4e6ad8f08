//! The documents the console downloads as PDF: the formal letter to the successor for service (Zustellung),
//! laid out after DIN 5008 form B, and a public announcement (docs/console.md, "Documents").
//!
//! This module only lays out: the letter's words are the core's ([`nachfolge_core::texts::letter`]: letterhead,
//! return address, recipient, information block, subject, page numbers) and the successor's e-mail text
//! (`config/templates/mail/`, rendered with `letter: true`); an announcement's are its stored text.
//! [`pdf`] writes the pages with the fonts embedded.

pub mod font;
pub mod pdf;

use nachfolge_core::texts::letter::{page_number, LetterFrame};
use pdf::{Metrics, Page, Style};

/// The left edge of the text (DIN 5008: 25 mm) and the right one (20 mm margin), in millimetres.
const LEFT: f32 = 25.0;
const RIGHT: f32 = 190.0;
/// The body text's size (points) and line spacing (millimetres).
const SIZE: f32 = 11.0;
const LEADING: f32 = 4.6;
/// An empty line of the text.
const GAP: f32 = 2.8;
/// The most lines of a paragraph kept on one page.
const KEEP: usize = 6;
/// The last baseline of a page, the first of a following page, and the page number's (millimetres).
const BOTTOM: f32 = 277.0;
const TOP: f32 = 25.0;
const FOOTER: f32 = 287.0;

/// The formal letter: `frame` around `text` (the e-mail's text in its letter form).
pub fn letter_pdf(frame: &LetterFrame, text: &str, metrics: &Metrics) -> Vec<u8> {
    let mut first = Page::default();
    // letterhead: the council, then the office
    for (i, line) in frame.letterhead.iter().enumerate() {
        let (size, style) = if i == 0 { (14.0, Style::Bold) } else { (SIZE, Style::Regular) };
        first.text(LEFT, 20.0 + 6.0 * i as f32, size, style, line);
    }
    // DIN 5008 form B: fold marks at 105 and 210 mm, the punch mark at 148.5 mm
    first.line((4.0, 105.0), (9.0, 105.0));
    first.line((4.0, 148.5), (11.0, 148.5));
    first.line((4.0, 210.0), (9.0, 210.0));
    // the address field (45 to 90 mm, 85 mm wide): the return address at the foot of its note zone, then
    // the recipient from 62.7 mm on
    let size = fitting(metrics, 8.0, &frame.return_address, 80.0);
    let lines = wrap(metrics, Style::Regular, size, &frame.return_address, 80.0);
    for (i, line) in lines.iter().rev().take(4).enumerate() {
        first.text(LEFT, 59.0 - 3.0 * i as f32, size, Style::Regular, line);
    }
    first.line((LEFT, 60.5), (LEFT + 80.0, 60.5));
    for (i, line) in frame.recipient.iter().take(6).enumerate() {
        first.text(LEFT, 67.0 + 4.5 * i as f32, SIZE, Style::Regular, line);
    }
    // the information block, right of the address field from 50 mm on: a label over its value; a long value
    // is set smaller, and past that wrapped
    let mut y = 50.0;
    for (label, value) in &frame.info {
        first.text(125.0, y, 8.0, Style::Regular, label);
        let size = fitting(metrics, 10.0, value, RIGHT - 125.0);
        for line in wrap(metrics, Style::Regular, size, value, RIGHT - 125.0) {
            y += 4.0;
            first.text(125.0, y, size, Style::Regular, &line);
        }
        y += 5.0;
    }
    let mut flow = Flow { metrics, pages: vec![first], y: 100.0 };
    for line in frame.subject.lines() {
        flow.line(line, Style::Bold, SIZE);
    }
    flow.y += 2.0 * LEADING;
    flow.text(text);
    finish(flow.pages, &frame.subject, metrics)
}

/// An announcement: its first line (the title) in bold, then the rest of its text.
pub fn announcement_pdf(text: &str, metrics: &Metrics) -> Vec<u8> {
    let text = text.trim_start_matches('\n');
    let (title, rest) = text.split_once('\n').unwrap_or((text, ""));
    let mut flow = Flow { metrics, pages: vec![Page::default()], y: TOP };
    flow.line(title, Style::Bold, 13.0);
    flow.y += GAP;
    flow.text(rest);
    finish(flow.pages, title, metrics)
}

/// The size (at most `size`, at least 70 % of it) at which `text` fits into `width` millimetres on one line, as
/// far as it can: the return address and the information block's values are shrunk (and past that wrapped),
/// never cut.
fn fitting(metrics: &Metrics, size: f32, text: &str, width: f32) -> f32 {
    let wide = metrics.width_mm(Style::Regular, size, text);
    if wide > width {
        (size * width / wide).max(size * 0.7)
    } else {
        size
    }
}

/// Page numbers on every page of a document of more than one page, then the PDF.
fn finish(mut pages: Vec<Page>, title: &str, metrics: &Metrics) -> Vec<u8> {
    let count = pages.len();
    if count > 1 {
        for (i, page) in pages.iter_mut().enumerate() {
            let label = page_number(i + 1, count);
            let x = RIGHT - metrics.width_mm(Style::Regular, 9.0, &label);
            page.text(x, FOOTER, 9.0, Style::Regular, &label);
        }
    }
    pdf::write(&pages, title, metrics)
}

/// Text set from the top of the page down, onto new pages as needed.
struct Flow<'m> {
    metrics: &'m Metrics,
    pages: Vec<Page>,
    /// The next baseline on the last page (millimetres from the top).
    y: f32,
}

impl Flow<'_> {
    /// The lines of `text`: an empty line is a gap, a line starting with `- ` an item (its continuation lines
    /// indented past the dash), leading spaces an indent. A paragraph of at most [`KEEP`] lines is not split
    /// across pages (the closing and the signature stay together).
    fn text(&mut self, text: &str) {
        let mut paragraph: Vec<&str> = Vec::new();
        for line in text.lines().chain([""]) {
            if !line.trim().is_empty() {
                paragraph.push(line);
                continue;
            }
            if !paragraph.is_empty() {
                let height: usize = paragraph.iter().map(|l| self.lines_of(l)).sum();
                if height <= KEEP && self.y + LEADING * (height - 1) as f32 > BOTTOM && self.y > TOP {
                    self.y = BOTTOM + 1.0;
                }
                for l in paragraph.drain(..) {
                    self.line(l, Style::Regular, SIZE);
                }
            }
            self.y += GAP;
        }
    }

    /// How many lines `line` takes in the body text.
    fn lines_of(&self, line: &str) -> usize {
        let trimmed = line.trim_start_matches(' ');
        let mut indent = self.metrics.width_mm(Style::Regular, SIZE, &line[..line.len() - trimmed.len()]);
        let rest = match trimmed.strip_prefix("- ") {
            Some(rest) => {
                indent += self.metrics.width_mm(Style::Regular, SIZE, "- ");
                rest
            }
            None => trimmed,
        };
        wrap(self.metrics, Style::Regular, SIZE, rest, RIGHT - LEFT - indent).len()
    }

    /// One line of the source, wrapped between the margins.
    fn line(&mut self, line: &str, style: Style, size: f32) {
        let trimmed = line.trim_start_matches(' ');
        let mut x = LEFT + self.metrics.width_mm(style, size, &line[..line.len() - trimmed.len()]);
        let (mark, rest) = match trimmed.strip_prefix("- ") {
            Some(rest) => ("- ", rest),
            None => ("", trimmed),
        };
        if !mark.is_empty() {
            self.room();
            let y = self.y;
            self.last().text(x, y, size, style, mark);
            x += self.metrics.width_mm(style, size, mark);
        }
        for part in wrap(self.metrics, style, size, rest, RIGHT - x) {
            self.room();
            let y = self.y;
            self.last().text(x, y, size, style, &part);
            self.y += LEADING * size / SIZE;
        }
    }

    /// A new page if the next line would not fit on this one.
    fn room(&mut self) {
        if self.y > BOTTOM {
            self.pages.push(Page::default());
            self.y = TOP;
        }
    }

    fn last(&mut self) -> &mut Page {
        if self.pages.is_empty() {
            self.pages.push(Page::default());
        }
        let at = self.pages.len() - 1;
        &mut self.pages[at]
    }
}

/// `text` broken into lines no wider than `width` millimetres: at spaces, and inside a word only where the
/// word alone is wider.
fn wrap(metrics: &Metrics, style: Style, size: f32, text: &str, width: f32) -> Vec<String> {
    let fits = |s: &str| metrics.width_mm(style, size, s) <= width;
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if current.is_empty() { word.to_owned() } else { format!("{current} {word}") };
        if fits(&candidate) {
            current = candidate;
            continue;
        }
        if !current.is_empty() {
            lines.push(std::mem::take(&mut current));
        }
        for c in word.chars() {
            current.push(c);
            if !fits(&current) && current.chars().count() > 1 {
                current.pop();
                lines.push(std::mem::take(&mut current));
                current.push(c);
            }
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests;
