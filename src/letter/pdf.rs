//! A4 pages of text and hairlines, written as a tagged PDF (PDF/UA-1) with `pdf-writer`, with the DejaVu Sans
//! subsets of `assets/fonts/` embedded (docs/architecture.md, "Documents").
//!
//! Each font is a Type 0 font over a CIDFontType2 (TrueType) font, the font file embedded whole (`FontFile2`).
//! Every distinct character of the document gets a CID of its own; `CIDToGIDMap` maps it to the font's glyph
//! and the `ToUnicode` map back to the character, so the text layer holds exactly the text written
//! (extractable, searchable, read aloud). A character the fonts lack is refused ([`Unprintable`]) before a
//! document is written: no glyph 0 (the empty box) is ever set.
//!
//! Every run of text is a marked-content sequence with an MCID under a structure element (`Document` with
//! `H1` and `P`), the page numbers and the hairlines are artifacts; the catalog says `/MarkInfo
//! <</Marked true>>`, `/Lang (de-DE)`, `/DisplayDocTitle true`, and the XMP metadata carry the title and the
//! PDF/UA identification (`pdfuaid:part 1`).

use std::collections::BTreeMap;
use std::fmt;

use pdf_writer::types::{ArtifactType, CidFontType, FontFlags, StructRole, SystemInfo, TabOrder, UnicodeCmap};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

/// DejaVu Sans (subset, assets/fonts/README.md): Latin with its extensions and combining marks, Greek,
/// Cyrillic, the general punctuation, €.
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
    pub fn advance(&self, style: Style, c: char) -> f32 {
        let face = self.face(style);
        let gid = face.glyph_index(c).unwrap_or(0);
        let units = face.glyph_hor_advance(gid).unwrap_or(0);
        f32::from(units) * 1000.0 / f32::from(face.units_per_em())
    }

    /// Whether both faces have a glyph for `c`.
    pub fn prints(&self, c: char) -> bool {
        self.regular.glyph_index(c).is_some() && self.bold.glyph_index(c).is_some()
    }

    /// How far the face reaches above the baseline at `size` points (the descriptor's `Ascent`), in mm.
    pub fn ascent_mm(&self, style: Style, size: f32) -> f32 {
        let face = self.face(style);
        f32::from(face.ascender()) / f32::from(face.units_per_em()) * size / PT_PER_MM
    }

    /// How far the face reaches below the baseline at `size` points (the descriptor's `Descent`), in mm.
    pub fn descent_mm(&self, style: Style, size: f32) -> f32 {
        let face = self.face(style);
        -f32::from(face.descender()) / f32::from(face.units_per_em()) * size / PT_PER_MM
    }

    /// The width of `text` set in `style` at `size` points, in millimetres.
    pub fn width_mm(&self, style: Style, size: f32, text: &str) -> f32 {
        let thousandths: f32 = text.chars().map(|c| self.advance(style, c)).sum();
        thousandths * size / 1000.0 / PT_PER_MM
    }
}

/// What a run of text is in the document's structure tree (ISO 32000-1 § 14.8.4; PDF/UA-1 § 7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// The heading: the letter's subject (Betreff), the announcement's title.
    H1,
    /// A paragraph: each part of the letterhead, the return address, the address, each entry of the
    /// information block, each paragraph or item of the text.
    P,
}

impl Tag {
    fn role(self) -> StructRole {
        match self {
            Tag::H1 => StructRole::H1,
            Tag::P => StructRole::P,
        }
    }

    fn name(self) -> Name<'static> {
        match self {
            Tag::H1 => Name(b"H1"),
            Tag::P => Name(b"P"),
        }
    }
}

/// Where a run of text belongs: a structure element of the document (its index, from [`Document::element`]),
/// or an artifact that is not read aloud (the page numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Element(usize),
    Pagination,
}

/// One run of text: its baseline's left end in millimetres from the page's top left corner.
#[derive(Debug, Clone)]
struct Run {
    x: f32,
    y: f32,
    size: f32,
    style: Style,
    text: String,
    part: Part,
}

/// A page: runs of text and hairlines (from, to; millimetres from the top left corner; artifacts).
#[derive(Debug, Clone, Default)]
pub struct Page {
    runs: Vec<Run>,
    lines: Vec<((f32, f32), (f32, f32))>,
}

impl Page {
    /// Set `text` (in NFC) with its baseline starting at (`x`, `y`) millimetres from the top left corner, as a
    /// part of `part`.
    pub fn text(&mut self, x: f32, y: f32, size: f32, style: Style, text: &str, part: Part) {
        if !text.is_empty() {
            self.runs.push(Run { x, y, size, style, text: text.to_owned(), part });
        }
    }

    /// A hairline from `from` to `to` (millimetres from the top left corner).
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32)) {
        self.lines.push((from, to));
    }
}

/// The pages of a document and the structure elements their text belongs to, in reading order.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub pages: Vec<Page>,
    elements: Vec<Tag>,
}

impl Document {
    /// A new structure element, after those made before in reading order.
    pub fn element(&mut self, tag: Tag) -> Part {
        self.elements.push(tag);
        Part::Element(self.elements.len() - 1)
    }
}

/// Characters the embedded fonts cannot show: the document is not written (docs/architecture.md,
/// "Documents"). Its text is what the console shows the official.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unprintable(pub Vec<char>);

impl fmt::Display for Unprintable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list: Vec<String> = self.0.iter().map(|c| format!("„{c}“ (U+{:04X})", u32::from(*c))).collect();
        write!(
            f,
            "Das Schriftstück kann nicht erstellt werden: Die Schrift des Schreibens enthält diese Zeichen nicht: {}. \
             Bitte prüfen Sie die Schreibweise der Angaben.",
            list.join(", ")
        )
    }
}

impl std::error::Error for Unprintable {}

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

/// `text` escaped for XML character data.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The XMP metadata: the title, the language, the producer and the PDF/UA-1 identification (ISO 14289-1 § 5).
fn xmp(title: &str) -> Vec<u8> {
    format!(
        "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n\
         <x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n\
         <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n\
         <rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
         xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\" xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\">\n\
         <dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt></dc:title>\n\
         <dc:language><rdf:Bag><rdf:li>de-DE</rdf:li></rdf:Bag></dc:language>\n\
         <dc:format>application/pdf</dc:format>\n\
         <pdf:Producer>nachfolge</pdf:Producer>\n\
         <pdfuaid:part>1</pdfuaid:part>\n\
         </rdf:Description>\n\
         </rdf:RDF>\n\
         </x:xmpmeta>\n\
         <?xpacket end=\"w\"?>",
        xml(title)
    )
    .into_bytes()
}

/// The document as a tagged PDF with the title `title` (document information, XMP, the viewer's title bar),
/// in German (`/Lang de-DE`); [`Unprintable`] if a character of its text has no glyph in the embedded fonts.
pub fn write(doc: &Document, title: &str, metrics: &Metrics) -> Result<Vec<u8>, Unprintable> {
    let mut missing: Vec<char> = doc
        .pages
        .iter()
        .flat_map(|p| &p.runs)
        .flat_map(|r| r.text.chars().filter(|c| metrics.face(r.style).glyph_index(*c).is_none()))
        .chain(title.chars().filter(|c| c.is_control()))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        return Err(Unprintable(missing));
    }

    let mut next = 1;
    let mut alloc = || {
        let r = Ref::new(next);
        next += 1;
        r
    };
    let catalog = alloc();
    let tree = alloc();
    let info = alloc();
    let metadata = alloc();
    let struct_root = alloc();
    let document = alloc();
    let element_ids: Vec<Ref> = doc.elements.iter().map(|_| alloc()).collect();
    let page_ids: Vec<(Ref, Ref, Ref)> = doc.pages.iter().map(|_| (alloc(), alloc(), alloc())).collect();
    let fonts = [Style::Regular, Style::Bold].map(|s| (s, [alloc(), alloc(), alloc(), alloc(), alloc(), alloc()]));

    let mut pdf = Pdf::new();
    {
        let mut cat = pdf.catalog(catalog);
        cat.pages(tree).lang(TextStr("de-DE")).metadata(metadata);
        cat.mark_info().marked(true);
        cat.viewer_preferences().display_doc_title(true);
        cat.pair(Name(b"StructTreeRoot"), struct_root);
    }
    pdf.pages(tree).kids(page_ids.iter().map(|(p, _, _)| *p)).count(page_ids.len() as i32);
    pdf.document_info(info).title(TextStr(title)).producer(TextStr("nachfolge"));
    pdf.metadata(metadata, &xmp(title));

    // each element's marked-content sequences: (page, MCID)
    let mut kids: Vec<Vec<(Ref, i32)>> = vec![Vec::new(); doc.elements.len()];
    let mut cids: BTreeMap<Style, Cids> = BTreeMap::new();
    for (index, (page, (page_id, content_id, parents_id))) in doc.pages.iter().zip(&page_ids).enumerate() {
        let mut content = Content::new();
        if !page.lines.is_empty() {
            content
                .begin_marked_content_with_properties(Name(b"Artifact"))
                .properties()
                .artifact()
                .kind(ArtifactType::Layout);
            content.set_line_width(0.4);
            for ((x1, y1), (x2, y2)) in &page.lines {
                content.move_to(x1 * PT_PER_MM, PAGE_HEIGHT - y1 * PT_PER_MM);
                content.line_to(x2 * PT_PER_MM, PAGE_HEIGHT - y2 * PT_PER_MM);
            }
            content.stroke();
            content.end_marked_content();
        }
        let mut on_page: Vec<Ref> = Vec::new();
        for run in &page.runs {
            match run.part {
                Part::Element(e) => {
                    let (Some(tag), Some(element)) = (doc.elements.get(e), element_ids.get(e)) else { continue };
                    let mcid = on_page.len() as i32;
                    content.begin_marked_content_with_properties(tag.name()).properties().identify(mcid);
                    on_page.push(*element);
                    kids[e].push((*page_id, mcid));
                }
                Part::Pagination => {
                    content
                        .begin_marked_content_with_properties(Name(b"Artifact"))
                        .properties()
                        .artifact()
                        .kind(ArtifactType::Pagination);
                }
            }
            let bytes = cids.entry(run.style).or_default().encode(&run.text);
            content.begin_text();
            content.set_font(run.style.resource(), run.size);
            content.next_line(run.x * PT_PER_MM, PAGE_HEIGHT - run.y * PT_PER_MM);
            content.show(Str(&bytes));
            content.end_text();
            content.end_marked_content();
        }
        let stream = content.finish();
        let mut p = pdf.page(*page_id);
        p.media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT))
            .parent(tree)
            .contents(*content_id)
            .struct_parents(index as i32)
            .tab_order(TabOrder::StructureOrder);
        let mut resources = p.resources();
        let mut dict = resources.fonts();
        for (style, ids) in &fonts {
            dict.pair(style.resource(), ids[0]);
        }
        dict.finish();
        resources.finish();
        p.finish();
        pdf.stream(*content_id, &stream);
        // the page's entry in the parent tree: the element of each MCID, in order
        pdf.indirect(*parents_id).array().items(on_page.iter().copied());
    }

    // the structure tree: Document, its elements in reading order, their marked content
    {
        let mut root = pdf.indirect(struct_root).dict();
        root.pair(Name(b"Type"), Name(b"StructTreeRoot"));
        root.pair(Name(b"K"), document);
        {
            let mut tree_entries = root.insert(Name(b"ParentTree")).dict();
            let mut nums = tree_entries.insert(Name(b"Nums")).array();
            for (index, (_, _, parents_id)) in page_ids.iter().enumerate() {
                nums.item(index as i32);
                nums.item(*parents_id);
            }
        }
        root.pair(Name(b"ParentTreeNextKey"), page_ids.len() as i32);
    }
    pdf.struct_element(document)
        .kind(StructRole::Document)
        .parent(struct_root)
        .children()
        .items(element_ids.iter().copied());
    for ((tag, id), kids) in doc.elements.iter().zip(&element_ids).zip(&kids) {
        let mut element = pdf.struct_element(*id);
        element.kind(tag.role()).parent(document);
        let mut children = element.children();
        for (page, mcid) in kids {
            children.marked_content_ref().page(*page).marked_content_id(*mcid);
        }
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

        // CID → glyph: two bytes per CID from 0 on (every character has its glyph: checked above)
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
    Ok(pdf.finish())
}
