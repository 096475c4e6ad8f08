//! A4 pages of text and hairlines, written as PDF with `pdf-writer`, with the DejaVu Sans subsets of
//! `assets/fonts/` embedded (docs/architecture.md, "Documents").
//!
//! Each font is a Type 0 font over a CIDFontType2 (TrueType) font, the font file embedded whole (`FontFile2`).
//! Every distinct character of the document gets a CID of its own; `CIDToGIDMap` maps it to the font's glyph
//! (0, the empty box, for a character the subset lacks) and the `ToUnicode` map back to the character, so
//! the text layer holds exactly the text written (extractable, searchable, read aloud), whatever the font shows.

use std::collections::BTreeMap;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

/// DejaVu Sans (subset): Latin, Latin-1, Latin Extended-A, the general punctuation, €.
const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold (the same subset).
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// A4 in points.
const PAGE_WIDTH: f32 = 595.28;
const PAGE_HEIGHT: f32 = 841.89;

/// Points per millimetre.
const PT_PER_MM: f32 = 72.0 / 25.4;

/// The two faces of the documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Style {
    Regular,
    Bold,
}

impl Style {
    fn data(self) -> &'static [u8] {
        match self {
            Style::Regular => REGULAR,
            Style::Bold => BOLD,
        }
    }

    /// The resource name in the page's font dictionary.
    fn resource(self) -> Name<'static> {
        match self {
            Style::Regular => Name(b"F1"),
            Style::Bold => Name(b"F2"),
        }
    }

    /// The PostScript name, with the tag that marks an embedded subset (ISO 32000-1 § 9.6.4).
    fn base_name(self) -> Name<'static> {
        match self {
            Style::Regular => Name(b"NFDJVA+DejaVuSans"),
            Style::Bold => Name(b"NFDJVB+DejaVuSans-Bold"),
        }
    }
}

/// The metrics of the two faces, read once from the embedded files.
pub struct Metrics {
    regular: super::font::Face<'static>,
    bold: super::font::Face<'static>,
}

impl Metrics {
    /// The faces of the embedded fonts; `None` only if a font file is broken (a build error, tested).
    pub fn load() -> Option<Metrics> {
        Some(Metrics { regular: super::font::Face::parse(REGULAR)?, bold: super::font::Face::parse(BOLD)? })
    }

    fn face(&self, style: Style) -> &super::font::Face<'static> {
        match style {
            Style::Regular => &self.regular,
            Style::Bold => &self.bold,
        }
    }

    /// The advance of `c` in thousandths of the font size (0 for a character without a glyph).
    fn advance(&self, style: Style, c: char) -> f32 {
        let face = self.face(style);
        let gid = face.glyph_index(c).unwrap_or(0);
        let units = face.glyph_hor_advance(gid).unwrap_or(0);
        f32::from(units) * 1000.0 / f32::from(face.units_per_em())
    }

    /// The width of `text` set in `style` at `size` points, in millimetres.
    pub fn width_mm(&self, style: Style, size: f32, text: &str) -> f32 {
        let thousandths: f32 = text.chars().map(|c| self.advance(style, c)).sum();
        thousandths * size / 1000.0 / PT_PER_MM
    }
}

/// One run of text: its baseline's left end in millimetres from the page's top left corner.
#[derive(Debug, Clone)]
struct Run {
    x: f32,
    y: f32,
    size: f32,
    style: Style,
    text: String,
}

/// A page: runs of text and hairlines (from, to; millimetres from the top left corner).
#[derive(Debug, Clone, Default)]
pub struct Page {
    runs: Vec<Run>,
    lines: Vec<((f32, f32), (f32, f32))>,
}

impl Page {
    /// Set `text` with its baseline starting at (`x`, `y`) millimetres from the top left corner.
    pub fn text(&mut self, x: f32, y: f32, size: f32, style: Style, text: &str) {
        if !text.is_empty() {
            self.runs.push(Run { x, y, size, style, text: text.to_owned() });
        }
    }

    /// A hairline from `from` to `to` (millimetres from the top left corner).
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32)) {
        self.lines.push((from, to));
    }
}

/// The characters of one face in the document, each with its CID (1, 2, …; 0 is never used).
#[derive(Default)]
struct Cids(BTreeMap<char, u16>);

impl Cids {
    fn encode(&mut self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        for c in text.chars() {
            let next = u16::try_from(self.0.len() + 1).unwrap_or(u16::MAX);
            let cid = *self.0.entry(c).or_insert(next);
            out.extend_from_slice(&cid.to_be_bytes());
        }
        out
    }
}

/// The pages as a PDF document with the title `title` (document information and the viewer's title bar),
/// in German (`/Lang de-DE`).
pub fn write(pages: &[Page], title: &str, metrics: &Metrics) -> Vec<u8> {
    let mut next = 1;
    let mut alloc = || {
        let r = Ref::new(next);
        next += 1;
        r
    };
    let catalog = alloc();
    let tree = alloc();
    let info = alloc();
    let page_ids: Vec<(Ref, Ref)> = pages.iter().map(|_| (alloc(), alloc())).collect();
    let fonts = [Style::Regular, Style::Bold].map(|s| (s, [alloc(), alloc(), alloc(), alloc(), alloc(), alloc()]));

    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree).lang(TextStr("de-DE"));
    pdf.pages(tree).kids(page_ids.iter().map(|(p, _)| *p)).count(page_ids.len() as i32);
    pdf.document_info(info).title(TextStr(title)).producer(TextStr("nachfolge"));

    let mut cids: BTreeMap<Style, Cids> = BTreeMap::new();
    for (page, (page_id, content_id)) in pages.iter().zip(&page_ids) {
        let mut content = Content::new();
        if !page.lines.is_empty() {
            content.set_line_width(0.4);
            for ((x1, y1), (x2, y2)) in &page.lines {
                content.move_to(x1 * PT_PER_MM, PAGE_HEIGHT - y1 * PT_PER_MM);
                content.line_to(x2 * PT_PER_MM, PAGE_HEIGHT - y2 * PT_PER_MM);
            }
            content.stroke();
        }
        for run in &page.runs {
            let bytes = cids.entry(run.style).or_default().encode(&run.text);
            content.begin_text();
            content.set_font(run.style.resource(), run.size);
            content.next_line(run.x * PT_PER_MM, PAGE_HEIGHT - run.y * PT_PER_MM);
            content.show(Str(&bytes));
            content.end_text();
        }
        let stream = content.finish();
        let mut p = pdf.page(*page_id);
        p.media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT)).parent(tree).contents(*content_id);
        let mut resources = p.resources();
        let mut dict = resources.fonts();
        for (style, ids) in &fonts {
            dict.pair(style.resource(), ids[0]);
        }
        dict.finish();
        resources.finish();
        p.finish();
        pdf.stream(*content_id, &stream);
    }

    for (style, [type0, cid_font, descriptor, file, to_unicode, gid_map]) in fonts {
        let face = metrics.face(style);
        let used = cids.remove(&style).unwrap_or_default().0;
        let units = f32::from(face.units_per_em());
        let scale = |v: f32| v * 1000.0 / units;
        let by_cid: BTreeMap<u16, char> = used.iter().map(|(c, cid)| (*cid, *c)).collect();

        pdf.type0_font(type0)
            .base_font(style.base_name())
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid_font)
            .to_unicode(to_unicode);
        let system = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };
        let mut cid = pdf.cid_font(cid_font);
        cid.subtype(CidFontType::Type2)
            .base_font(style.base_name())
            .system_info(system)
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_stream(gid_map);
        cid.widths().consecutive(1, by_cid.values().map(|c| metrics.advance(style, *c)));
        cid.finish();

        let bbox = face.global_bounding_box();
        pdf.font_descriptor(descriptor)
            .name(style.base_name())
            .flags(FontFlags::NON_SYMBOLIC)
            .bbox(Rect::new(
                scale(f32::from(bbox.x_min)),
                scale(f32::from(bbox.y_min)),
                scale(f32::from(bbox.x_max)),
                scale(f32::from(bbox.y_max)),
            ))
            .italic_angle(0.0)
            .ascent(scale(f32::from(face.ascender())))
            .descent(scale(f32::from(face.descender())))
            .cap_height(scale(f32::from(face.capital_height().unwrap_or(face.ascender()))))
            .stem_v(if style == Style::Bold { 120.0 } else { 80.0 })
            .font_file2(file);
        let data = style.data();
        pdf.stream(file, data).pair(Name(b"Length1"), data.len() as i32);

        // CID → glyph: two bytes per CID from 0 on
        let mut map = vec![0u8; 2 * (by_cid.len() + 1)];
        for (cid, c) in &by_cid {
            let gid = face.glyph_index(*c).unwrap_or(0);
            let at = 2 * usize::from(*cid);
            map[at..at + 2].copy_from_slice(&gid.to_be_bytes());
        }
        pdf.stream(gid_map, &map);

        let mut cmap = UnicodeCmap::new(Name(b"nachfolge-UCS"), system);
        for (cid, c) in &by_cid {
            cmap.pair(*cid, *c);
        }
        pdf.cmap(to_unicode, &cmap.finish());
    }
    pdf.finish()
}
