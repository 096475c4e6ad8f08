//! The CSV dialect both formats publish: UTF-8 (a byte-order mark is skipped), one header line, `;` as
//! separator, fields optionally quoted with `"` (a doubled quote inside), LF or CRLF line ends. Columns are
//! read by name. Errors name the file, line and column (1-based; the column counts characters).

use crate::{ImportError, InputFile};

/// Files larger than this are refused before they are parsed (the largest real export seen is well under
/// 1 MB; a city of 400 Wahlbezirke with 1,500 candidate columns stays under 10 MB).
pub const MAX_FILE_BYTES: usize = 50 * 1024 * 1024;

/// One row with its line number in the file.
#[derive(Debug, Clone)]
pub struct Row {
    pub line: usize,
    pub cells: Vec<String>,
}

impl Row {
    /// The cell at `idx` (empty when the row is shorter, which [`Table::parse`] does not let through).
    pub fn get(&self, idx: usize) -> &str {
        self.cells.get(idx).map(String::as_str).unwrap_or("")
    }
}

/// A parsed CSV file.
#[derive(Debug, Clone)]
pub struct Table {
    pub file: String,
    pub header: Vec<String>,
    pub rows: Vec<Row>,
}

impl Table {
    /// Parse `file`. Refuses: more than [`MAX_FILE_BYTES`], bytes that are not UTF-8 (with line and column),
    /// a header without `;` that has `,` or tabs (wrong separator), an empty file, a row whose cell count
    /// differs from the header's (a truncated or malformed file), an unterminated quote.
    pub fn parse(file: &InputFile) -> Result<Table, ImportError> {
        let name = file.name.as_str();
        if file.bytes.len() > MAX_FILE_BYTES {
            return Err(ImportError::in_file(
                name,
                format!(
                    "file is {} MB, more than the {} MB an election export can have",
                    file.bytes.len() >> 20,
                    MAX_FILE_BYTES >> 20
                ),
                format!(
                    "Die Datei ist {} MB groß, mehr als die {} MB, die ein Wahlergebnis-Export haben kann.",
                    file.bytes.len() >> 20,
                    MAX_FILE_BYTES >> 20
                ),
            ));
        }
        let bytes = file.bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&file.bytes);
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let before = &bytes[..e.valid_up_to()];
            let line = before.iter().filter(|b| **b == b'\n').count() + 1;
            let line_start = before.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1);
            let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
            ImportError::at(
                name,
                line,
                Some(column),
                "not UTF-8 (the exports are UTF-8; re-save the file as UTF-8)",
                "Die Datei ist nicht in UTF-8 kodiert (die Exporte sind UTF-8; bitte die Datei als UTF-8 speichern).",
            )
        })?;
        let mut records = parse_records(name, text)?.into_iter();
        let (header_line, header) = records.next().ok_or_else(|| {
            ImportError::in_file(name, "the file is empty (no header line)", "Die Datei ist leer (keine Kopfzeile).")
        })?;
        if header.len() == 1 {
            let h = &header[0];
            if h.contains(',') || h.contains('\t') {
                return Err(ImportError::at(
                    name,
                    header_line,
                    None,
                    "the header has no `;`: wrong separator (the exports separate columns with `;`, not `,` or tabs)", "Die Kopfzeile enthält kein `;`: falsches Trennzeichen (die Exporte trennen die Spalten mit `;`, nicht mit `,` oder Tabulatoren).",
                ));
            }
        }
        let header: Vec<String> = header.into_iter().map(|h| h.trim().to_owned()).collect();
        let mut rows = Vec::new();
        for (line, cells) in records {
            if cells.len() == 1 && cells[0].trim().is_empty() {
                continue;
            }
            if cells.len() != header.len() {
                return Err(ImportError::at(
                    name,
                    line,
                    None,
                    format!(
                        "{} cells where the header has {} columns (a truncated or malformed file)",
                        cells.len(),
                        header.len()
                    ),
                    format!(
                        "{} Zellen, die Kopfzeile hat aber {} Spalten (eine abgeschnittene oder fehlerhafte Datei)",
                        cells.len(),
                        header.len()
                    ),
                ));
            }
            rows.push(Row { line, cells });
        }
        Ok(Table { file: name.to_owned(), header, rows })
    }

    /// The index of the column named `name` (exact, after trimming).
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// The index of the column named `name`, or an error naming the file and the column.
    pub fn require(&self, name: &str) -> Result<usize, ImportError> {
        self.column(name).ok_or_else(|| {
            ImportError::at(
                &self.file,
                1,
                None,
                format!("the header has no column `{name}`"),
                format!("Die Kopfzeile hat keine Spalte `{name}`."),
            )
        })
    }

    /// A count in `row` at column `col`: `None` for an empty cell (not reported, or no candidate), an error
    /// naming line and column for anything but a non-negative whole number.
    pub fn count(&self, row: &Row, col: usize) -> Result<Option<u64>, ImportError> {
        let cell = row.get(col).trim();
        if cell.is_empty() {
            return Ok(None);
        }
        cell.parse::<u64>().map(Some).map_err(|_| {
            ImportError::at(
                &self.file,
                row.line,
                Some(col + 1),
                format!("`{}` in column `{}` is not a count", cell, self.header.get(col).map_or("", String::as_str)),
                format!(
                    "`{}` in der Spalte `{}` ist keine Anzahl.",
                    cell,
                    self.header.get(col).map_or("", String::as_str)
                ),
            )
        })
    }
}

/// Split `text` into records (line number of the record's start, cells).
fn parse_records(file: &str, text: &str) -> Result<Vec<(usize, Vec<String>)>, ImportError> {
    let mut out = Vec::new();
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut line = 1usize;
    let mut start = 1usize;
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    let mut at_cell_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cell.push('\n');
                }
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if at_cell_start => {
                quoted = true;
                at_cell_start = false;
            }
            ';' => {
                cells.push(std::mem::take(&mut cell));
                at_cell_start = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                cells.push(std::mem::take(&mut cell));
                out.push((start, std::mem::take(&mut cells)));
                line += 1;
                start = line;
                at_cell_start = true;
            }
            _ => {
                cell.push(c);
                at_cell_start = false;
            }
        }
    }
    if quoted {
        return Err(ImportError::at(
            file,
            start,
            None,
            "a quoted field is not closed (a truncated file?)",
            "Ein Feld in Anführungszeichen wird nicht geschlossen (eine abgeschnittene Datei?).",
        ));
    }
    if !cell.is_empty() || !cells.is_empty() {
        cells.push(cell);
        out.push((start, cells));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(bytes: &[u8]) -> Result<Table, ImportError> {
        Table::parse(&InputFile { name: "x.csv".into(), bytes: bytes.to_vec() })
    }

    #[test]
    fn reads_bom_quotes_crlf_and_counts() {
        let t = table(b"\xEF\xBB\xBFa;b;\"c\"\r\n1;\"x;\"\"y\"\"\";\r\n\r\n").expect("parses");
        assert_eq!(t.header, ["a", "b", "c"]);
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0].cells, ["1", "x;\"y\"", ""]);
        assert_eq!(t.count(&t.rows[0], 0), Ok(Some(1)));
        assert_eq!(t.count(&t.rows[0], 2), Ok(None));
        let e = t.count(&t.rows[0], 1).expect_err("not a count");
        assert_eq!((e.line, e.column), (Some(2), Some(2)));
    }

    #[test]
    fn refuses_what_is_not_the_dialect() {
        let e = table(b"a,b,c\n1,2,3\n").expect_err("comma");
        assert!(e.message.contains("wrong separator"), "{e}");
        let e = table(b"a;b\n1;2\n3\n").expect_err("short row");
        assert_eq!(e.line, Some(3));
        let e = table(b"a;b\n1;\xE4\n").expect_err("latin-1");
        assert_eq!((e.line, e.column), (Some(2), Some(3)));
        assert!(e.to_string().starts_with("x.csv:2:3: not UTF-8"), "{e}");
        assert!(table(b"").expect_err("empty").message.contains("empty"));
        assert!(table(b"a;b\n\"1;2\n").expect_err("open quote").message.contains("not closed"));
    }
}
