//! The few TrueType tables the letter needs from its two embedded fonts (`assets/fonts/`): the character map
//! (`cmap` formats 4 and 12), the advances (`hhea`, `hmtx`), and the descriptor's metrics (`head`, `hhea`,
//! `OS/2`). The input is the committed font files, compiled in; every read is bounds-checked, and a file this
//! reader cannot read makes [`Face::parse`] answer `None` (tested for both files).
//!
//! Written instead of depending on `ttf-parser`, which RustSec lists as unmaintained (RUSTSEC-2026-0192); the
//! maintained replacement (`skrifa`) would bring a font stack for what are a hundred lines here.

/// Big-endian reads at a byte offset, `None` past the end.
fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at.checked_add(2)?)?.try_into().ok()?))
}
fn i16_at(data: &[u8], at: usize) -> Option<i16> {
    u16_at(data, at).map(|v| v as i16)
}
fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// A glyph's bounding box in font units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BBox {
    pub x_min: i16,
    pub y_min: i16,
    pub x_max: i16,
    pub y_max: i16,
}

/// Where the Unicode character map lives and in which format.
#[derive(Debug, Clone, Copy)]
enum Cmap {
    /// Format 4 (Basic Multilingual Plane): the subtable's offset.
    Segments(usize),
    /// Format 12 (all planes): the subtable's offset.
    Groups(usize),
}

/// An OpenType/TrueType font file, read as far as the letter needs it.
#[derive(Debug, Clone)]
pub struct Face<'a> {
    data: &'a [u8],
    units_per_em: u16,
    bbox: BBox,
    ascender: i16,
    descender: i16,
    cap_height: Option<i16>,
    hmtx: usize,
    metrics: u16,
    cmap: Cmap,
}

impl<'a> Face<'a> {
    /// Read the tables of a single font file (`None`: not a font this reader understands).
    pub fn parse(data: &'a [u8]) -> Option<Face<'a>> {
        let tables = u16_at(data, 4)?;
        let table = |tag: &[u8; 4]| -> Option<usize> {
            (0..usize::from(tables)).find_map(|i| {
                let record = 12 + 16 * i;
                (data.get(record..record + 4)? == tag).then_some(())?;
                let offset = u32_at(data, record + 8)? as usize;
                let length = u32_at(data, record + 12)? as usize;
                (offset.checked_add(length)? <= data.len()).then_some(offset)
            })
        };
        let head = table(b"head")?;
        let hhea = table(b"hhea")?;
        let units_per_em = u16_at(data, head + 18).filter(|u| *u > 0)?;
        let bbox = BBox {
            x_min: i16_at(data, head + 36)?,
            y_min: i16_at(data, head + 38)?,
            x_max: i16_at(data, head + 40)?,
            y_max: i16_at(data, head + 42)?,
        };
        // sCapHeight exists from OS/2 version 2 on
        let cap_height = table(b"OS/2").and_then(|os2| (u16_at(data, os2)? >= 2).then(|| i16_at(data, os2 + 88))?);
        Some(Face {
            data,
            units_per_em,
            bbox,
            ascender: i16_at(data, hhea + 4)?,
            descender: i16_at(data, hhea + 6)?,
            cap_height,
            hmtx: table(b"hmtx")?,
            metrics: u16_at(data, hhea + 34).filter(|n| *n > 0)?,
            cmap: Self::unicode_cmap(data, table(b"cmap")?)?,
        })
    }

    /// The best Unicode subtable: Windows full repertoire (3, 10) or Unicode full (0, 4/6) in format 12, else
    /// Windows BMP (3, 1) or any Unicode (0, *) in format 4.
    fn unicode_cmap(data: &[u8], cmap: usize) -> Option<Cmap> {
        let n = u16_at(data, cmap + 2)?;
        let mut best: Option<Cmap> = None;
        for i in 0..usize::from(n) {
            let record = cmap + 4 + 8 * i;
            let (platform, encoding) = (u16_at(data, record)?, u16_at(data, record + 2)?);
            let at = cmap + u32_at(data, record + 4)? as usize;
            let unicode = platform == 0 || (platform == 3 && matches!(encoding, 1 | 10));
            match u16_at(data, at) {
                Some(12) if unicode => return Some(Cmap::Groups(at)),
                Some(4) if unicode && best.is_none() => best = Some(Cmap::Segments(at)),
                _ => {}
            }
        }
        best
    }

    pub fn units_per_em(&self) -> u16 {
        self.units_per_em
    }
    pub fn global_bounding_box(&self) -> BBox {
        self.bbox
    }
    pub fn ascender(&self) -> i16 {
        self.ascender
    }
    pub fn descender(&self) -> i16 {
        self.descender
    }
    pub fn capital_height(&self) -> Option<i16> {
        self.cap_height
    }

    /// The glyph of `c`, `None` where the font has none (glyph 0, `.notdef`).
    pub fn glyph_index(&self, c: char) -> Option<u16> {
        let code = u32::from(c);
        let d = self.data;
        let gid = match self.cmap {
            Cmap::Groups(at) => {
                let groups = u32_at(d, at + 12)? as usize;
                (0..groups).find_map(|i| {
                    let g = at + 16 + 12 * i;
                    let (start, end) = (u32_at(d, g)?, u32_at(d, g + 4)?);
                    (start..=end).contains(&code).then(|| u32_at(d, g + 8).map(|first| first + (code - start)))?
                })? as u16
            }
            Cmap::Segments(at) => {
                let code = u16::try_from(code).ok()?;
                let segments = usize::from(u16_at(d, at + 6)? / 2);
                let ends = at + 14;
                let starts = ends + 2 * segments + 2;
                let deltas = starts + 2 * segments;
                let ranges = deltas + 2 * segments;
                let i = (0..segments).find(|i| u16_at(d, ends + 2 * i).is_some_and(|end| end >= code))?;
                let start = u16_at(d, starts + 2 * i)?;
                if start > code {
                    return None;
                }
                let delta = u16_at(d, deltas + 2 * i)?;
                let range = u16_at(d, ranges + 2 * i)?;
                if range == 0 {
                    code.wrapping_add(delta)
                } else {
                    let glyph = u16_at(d, ranges + 2 * i + usize::from(range) + 2 * usize::from(code - start))?;
                    if glyph == 0 {
                        return None;
                    }
                    glyph.wrapping_add(delta)
                }
            }
        };
        (gid != 0).then_some(gid)
    }

    /// The horizontal advance of glyph `gid` in font units (glyphs past the last metric repeat its advance).
    pub fn glyph_hor_advance(&self, gid: u16) -> Option<u16> {
        let i = gid.min(self.metrics - 1);
        u16_at(self.data, self.hmtx + 4 * usize::from(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
    const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

    /// The values fontTools gives for the committed fonts (the reader gave ttf-parser 0.25's over U+0000–U+2FFF
    /// before that was dropped): German letters, quotation marks, the section sign, the euro, and a character
    /// the subset lacks.
    #[test]
    fn the_embedded_fonts_read_as_ttf_parser_read_them() {
        let (regular, bold) = (Face::parse(REGULAR).expect("regular"), Face::parse(BOLD).expect("bold"));
        assert_eq!(regular.units_per_em(), 2048);
        assert_eq!(bold.units_per_em(), 2048);
        for (face, samples) in [(&regular, &REGULAR_SAMPLES), (&bold, &BOLD_SAMPLES)] {
            for (c, gid, advance) in samples.iter() {
                assert_eq!(face.glyph_index(*c), *gid, "glyph of {c:?}");
                if let Some(gid) = gid {
                    assert_eq!(face.glyph_hor_advance(*gid), Some(*advance), "advance of {c:?}");
                }
            }
        }
        assert!(Face::parse(&REGULAR[..100]).is_none(), "a cut file is refused, not misread");
        assert!(Face::parse(b"").is_none());
    }

    const REGULAR_SAMPLES: [(char, Option<u16>, u16); 12] = [
        ('A', Some(34), 1401),
        ('a', Some(66), 1255),
        ('ä', Some(164), 1255),
        ('Ö', Some(150), 1612),
        ('ü', Some(188), 1298),
        ('ß', Some(159), 1290),
        ('§', Some(103), 1024),
        ('„', Some(1351), 1061),
        ('“', Some(1349), 1061),
        ('€', Some(1377), 1303),
        (' ', Some(1), 651),
        ('中', None, 0),
    ];
    const BOLD_SAMPLES: [(char, Option<u16>, u16); 12] = [
        ('A', Some(34), 1585),
        ('a', Some(66), 1382),
        ('ä', Some(164), 1382),
        ('Ö', Some(150), 1741),
        ('ü', Some(188), 1458),
        ('ß', Some(159), 1473),
        ('§', Some(103), 1024),
        ('„', Some(1351), 1346),
        ('“', Some(1349), 1346),
        ('€', Some(1377), 1425),
        (' ', Some(1), 713),
        ('中', None, 0),
    ];
}
