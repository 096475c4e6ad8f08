//! The documents the console downloads as PDF: the formal letter to the successor for service (Zustellung),
//! laid out after DIN 5008 form B, and a public announcement (docs/console.md, "Documents").
//!
//! This module only lays out: the letter's words are the core's ([`nachfolge_core::texts::letter`]: letterhead,
//! return address, recipient, information block, subject, page numbers) and the successor's e-mail text
//! (`config/templates/mail/`, rendered with `letter: true`); an announcement's are its stored text.
//! [`pdf`] writes the pages as a tagged PDF (PDF/UA-1) with the fonts embedded. Every field keeps to its box of
//! DIN 5008 form B ([`din`]): a long council or person name is shrunk, then wrapped, never cut or set past it.

pub mod font;
pub mod pdf;

use nachfolge_core::texts::letter::{page_number, LetterFrame};
use pdf::{Document, Metrics, Part, Style, Tag, Unprintable};
use unicode_normalization::UnicodeNormalization;

/// The fields of DIN 5008 form B on an A4 page, in millimetres from its top left corner: every word of a letter
/// lies inside one of them (docs/architecture.md, "Documents"; tested by reading the PDF back with positions).
pub mod din {
    /// A rectangle of the page (millimetres from the top left corner).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Field {
        pub left: f32,
        pub top: f32,
        pub right: f32,
        pub bottom: f32,
    }

    impl Field {
        pub fn width(&self) -> f32 {
            self.right - self.left
        }
        pub fn height(&self) -> f32 {
            self.bottom - self.top
        }
    }

    /// The Briefkopf (letterhead) of form B: the top 45 mm, between the margins (25 mm left, 20 mm right),
    /// 10 mm clear of the sheet's top edge.
    pub const LETTERHEAD: Field = Field { left: 25.0, top: 10.0, right: 190.0, bottom: 45.0 };
    /// The Zusatz- und Vermerkzone with the Rücksendeangabe (return address): the top 17.7 mm of the
    /// Anschriftfeld (45 mm from the top, 20 mm from the left, 85 mm wide; the text 5 mm in, at 25 mm).
    pub const RETURN: Field = Field { left: 25.0, top: 45.0, right: 105.0, bottom: 62.7 };
    /// The Anschriftzone (recipient): the lower 27.3 mm of the Anschriftfeld, up to 90 mm.
    pub const ADDRESS: Field = Field { left: 25.0, top: 62.7, right: 105.0, bottom: 90.0 };
    /// The Informationsblock: 125 mm from the left edge, its first line at 50 mm (form B; the 8-pt label's
    /// top 2.6 mm above), 75 mm wide; it ends above the Betreff.
    pub const INFO: Field = Field { left: 125.0, top: 47.4, right: 200.0, bottom: 96.0 };
    /// The Betreff (subject) and the text on the first page: between the margins, from below the address
    /// field and the information block to the foot of the page.
    pub const FIRST_TEXT: Field = Field { left: 25.0, top: 96.0, right: 190.0, bottom: 280.0 };
    /// The text of a following page (and of an announcement's pages).
    pub const TEXT: Field = Field { left: 25.0, top: 20.0, right: 190.0, bottom: 280.0 };
    /// The page number at the foot of every page of a document of more than one page.
    pub const FOOTER: Field = Field { left: 25.0, top: 280.0, right: 190.0, bottom: 292.0 };
}

use din::Field;

/// The left edge of the text (DIN 5008: 25 mm) and the right one (20 mm margin), in millimetres.
const LEFT: f32 = din::TEXT.left;
const RIGHT: f32 = din::TEXT.right;
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
/// Line spacing as a multiple of the size (the body text's 4.6 mm at 11 pt).
const SPACING: f32 = LEADING / SIZE;
/// The smallest share of its size a field's text is shrunk to before it is wrapped instead, and the
/// smallest share at all (DIN 5008 gives 8 pt for the return address; 8 of 11 pt for the address).
const SHRINK: f32 = 0.72;
const FLOOR: f32 = 0.5;

/// Why a document cannot be written. Its text is German: the console shows it to the official.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentError {
    /// Characters the embedded fonts lack.
    Unprintable(Unprintable),
    /// A field's text does not fit its DIN 5008 field even at half its size (the field's German name).
    TooLong(&'static str),
}

impl std::fmt::Display for DocumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DocumentError::Unprintable(u) => u.fmt(f),
            DocumentError::TooLong(field) => write!(
                f,
                "Das Schriftstück kann nicht erstellt werden: Die Angaben für {field} sind zu lang für das Feld \
                 nach DIN 5008. Bitte kürzen Sie sie."
            ),
        }
    }
}

impl std::error::Error for DocumentError {}

impl From<Unprintable> for DocumentError {
    fn from(u: Unprintable) -> Self {
        DocumentError::Unprintable(u)
    }
}

/// `text` in Unicode normalization form C: a name typed as base letter and combining mark („e“ + U+0301) is
/// set and extracted as the composed letter („é“).
fn nfc(text: &str) -> String {
    text.nfc().collect()
}

/// One paragraph of a field: its face, size (points, before shrinking), text, the space after it (millimetres)
/// and the structure element it belongs to.
struct Para<'a> {
    style: Style,
    size: f32,
    text: &'a str,
    after: f32,
    part: Part,
}

/// A paragraph's lines at the share `scale` of its size: (style, size, line, part).
type Line = (Style, f32, String, Part);

/// The paragraphs' lines at `scale`, and the height from the first line's top to the last line's foot.
fn lay(metrics: &Metrics, paras: &[Para], scale: f32, width: f32) -> (Vec<(Line, f32)>, f32) {
    let mut out = Vec::new();
    let mut y = 0.0;
    let mut bottom = 0.0;
    let mut first = true;
    for para in paras {
        let size = para.size * scale;
        for line in wrap(metrics, para.style, size, para.text, width) {
            y += if first { metrics.ascent_mm(para.style, size) } else { SPACING * size };
            first = false;
            bottom = y + metrics.descent_mm(para.style, size);
            out.push(((para.style, size, line, para.part), y));
        }
        y += para.after * scale;
    }
    (out, bottom)
}

/// Set `paras` into `field` (from its top, or ending at its foot if `from_foot`): at the largest size down to
/// [`SHRINK`] of theirs at which each paragraph stays one line, else wrapped at the largest size down to
/// [`FLOOR`] of theirs at which they fit; never cut, never past the field. `None` if they do not fit at all.
fn place(metrics: &Metrics, page: &mut pdf::Page, field: Field, paras: &[Para], from_foot: bool) -> Option<()> {
    let scales: Vec<f32> = (0..=20).map(|i| 1.0 - 0.025 * i as f32).filter(|s| *s >= FLOOR - 0.001).collect();
    let fits = |s: &f32, one_line: bool| {
        let (lines, height) = lay(metrics, paras, *s, field.width());
        (height <= field.height() && (!one_line || lines.len() == paras.len())).then_some((lines, height))
    };
    let (lines, height) = scales
        .iter()
        .filter(|s| **s >= SHRINK)
        .find_map(|s| fits(s, true))
        .or_else(|| scales.iter().find_map(|s| fits(s, false)))?;
    let top = if from_foot { field.bottom - height } else { field.top };
    for ((style, size, line, part), y) in lines {
        page.text(field.left, top + y, size, style, &line, part);
    }
    Some(())
}

/// The formal letter: `frame` around `text` (the e-mail's text in its letter form), laid out after DIN 5008
/// form B ([`din`]); refused if a character cannot be printed or a field's text does not fit.
pub fn letter_pdf(frame: &LetterFrame, text: &str, metrics: &Metrics) -> Result<Vec<u8>, DocumentError> {
    let letterhead: Vec<String> = frame.letterhead.iter().map(|l| nfc(l)).collect();
    let return_address = nfc(&frame.return_address);
    let recipient: Vec<String> = frame.recipient.iter().map(|l| nfc(l)).collect();
    let info: Vec<(String, String)> = frame.info.iter().map(|(l, v)| (nfc(l), nfc(v))).collect();
    let subject = nfc(&frame.subject);
    let text = nfc(text);

    let mut doc = Document::default();
    let mut first = pdf::Page::default();
    // the letterhead: the council, then the office
    let paras: Vec<Para> = letterhead
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let (size, style) = if i == 0 { (14.0, Style::Bold) } else { (SIZE, Style::Regular) };
            Para { style, size, text: line, after: 0.6, part: doc.element(Tag::P) }
        })
        .collect();
    place(metrics, &mut first, din::LETTERHEAD, &paras, false).ok_or(DocumentError::TooLong("den Briefkopf"))?;
    // DIN 5008 form B: fold marks at 105 and 210 mm, the punch mark at 148.5 mm
    first.line((4.0, 105.0), (9.0, 105.0));
    first.line((4.0, 148.5), (11.0, 148.5));
    first.line((4.0, 210.0), (9.0, 210.0));
    // the return address at the foot of the note zone, above a hairline; then the recipient
    let above_rule = Field { bottom: 60.0, ..din::RETURN };
    let paras =
        [Para { style: Style::Regular, size: 8.0, text: &return_address, after: 0.0, part: doc.element(Tag::P) }];
    place(metrics, &mut first, above_rule, &paras, true).ok_or(DocumentError::TooLong("die Rücksendeangabe"))?;
    first.line((LEFT, 60.5), (LEFT + din::RETURN.width(), 60.5));
    let part = doc.element(Tag::P);
    let paras: Vec<Para> =
        recipient.iter().map(|line| Para { style: Style::Regular, size: SIZE, text: line, after: 0.0, part }).collect();
    let address = Field { top: din::ADDRESS.top + 1.0, ..din::ADDRESS };
    place(metrics, &mut first, address, &paras, false).ok_or(DocumentError::TooLong("die Anschrift"))?;
    // the information block: a label over its value
    let mut paras = Vec::new();
    for (label, value) in &info {
        let part = doc.element(Tag::P);
        paras.push(Para { style: Style::Regular, size: 8.0, text: label, after: 0.0, part });
        paras.push(Para { style: Style::Regular, size: 10.0, text: value, after: 1.8, part });
    }
    place(metrics, &mut first, din::INFO, &paras, false).ok_or(DocumentError::TooLong("den Informationsblock"))?;

    doc.pages.push(first);
    let start = din::FIRST_TEXT.top + metrics.ascent_mm(Style::Bold, SIZE);
    let mut flow = Flow { metrics, doc, y: start, part: Part::Pagination };
    flow.part = flow.doc.element(Tag::H1);
    for line in subject.lines() {
        flow.line(line, Style::Bold, SIZE);
    }
    flow.y += 2.0 * LEADING;
    flow.text(&text);
    Ok(finish(flow.doc, &subject, metrics)?)
}

/// An announcement: its first line (the title) in bold, then the rest of its text; refused if a character
/// cannot be printed.
pub fn announcement_pdf(text: &str, metrics: &Metrics) -> Result<Vec<u8>, DocumentError> {
    let text = nfc(text);
    let text = text.trim_start_matches('\n');
    let (title, rest) = text.split_once('\n').unwrap_or((text, ""));
    let mut doc = Document::default();
    doc.pages.push(pdf::Page::default());
    let mut flow = Flow { metrics, doc, y: TOP, part: Part::Pagination };
    flow.part = flow.doc.element(Tag::H1);
    flow.line(title, Style::Bold, 13.0);
    flow.y += GAP;
    flow.text(rest);
    Ok(finish(flow.doc, title, metrics)?)
}

/// Page numbers (artifacts) on every page of a document of more than one page, then the PDF.
fn finish(mut doc: Document, title: &str, metrics: &Metrics) -> Result<Vec<u8>, Unprintable> {
    let count = doc.pages.len();
    if count > 1 {
        for (i, page) in doc.pages.iter_mut().enumerate() {
            let label = page_number(i + 1, count);
            let x = RIGHT - metrics.width_mm(Style::Regular, 9.0, &label);
            page.text(x, FOOTER, 9.0, Style::Regular, &label, Part::Pagination);
        }
    }
    pdf::write(&doc, title, metrics)
}

/// Text set from the top of the page down, onto new pages as needed.
struct Flow<'m> {
    metrics: &'m Metrics,
    doc: Document,
    /// The next baseline on the last page (millimetres from the top).
    y: f32,
    /// The structure element the next lines belong to.
    part: Part,
}

impl Flow<'_> {
    /// The lines of `text`: an empty line is a gap, a line starting with `- ` an item (its continuation lines
    /// indented past the dash), leading spaces an indent. A paragraph of at most [`KEEP`] lines is not split
    /// across pages (the closing and the signature stay together). Each paragraph and each item is a `P`.
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
                for (i, l) in paragraph.drain(..).enumerate() {
                    if i == 0 || l.trim_start_matches(' ').starts_with("- ") {
                        self.part = self.doc.element(Tag::P);
                    }
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
            let (y, part) = (self.y, self.part);
            self.last().text(x, y, size, style, mark, part);
            x += self.metrics.width_mm(style, size, mark);
        }
        for part in wrap(self.metrics, style, size, rest, RIGHT - x) {
            self.room();
            let (y, element) = (self.y, self.part);
            self.last().text(x, y, size, style, &part, element);
            self.y += LEADING * size / SIZE;
        }
    }

    /// A new page if the next line would not fit on this one.
    fn room(&mut self) {
        if self.y > BOTTOM {
            self.doc.pages.push(pdf::Page::default());
            self.y = TOP;
        }
    }

    fn last(&mut self) -> &mut pdf::Page {
        if self.doc.pages.is_empty() {
            self.doc.pages.push(pdf::Page::default());
        }
        let at = self.doc.pages.len() - 1;
        &mut self.doc.pages[at]
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
