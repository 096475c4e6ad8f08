//! A small, bounded parser of `multipart/form-data` (RFC 7578) for the console's one upload form
//! („Wahlergebnis übernehmen“, [`super::election`]). The CSRF check ([`super::csrf::check`]) reads the body
//! (at most `console.max_upload_bytes`), parses it here, checks the token among the fields and hands the parts on
//! as a request extension ([`Parts`]), so the body is read and parsed once.
//!
//! Only what a browser sends for an `<input type="file" multiple>` form: parts with `Content-Disposition:
//! form-data; name="…"[; filename="…"]`, no nested multiparts, no transfer encodings. At most
//! [`MAX_PARTS`] parts.

/// The default of `console.max_upload_bytes`, the largest upload body accepted (all files and fields
/// together). The published files of one council
/// election are a few hundred kilobytes to a few megabytes (docs/import.md); a larger city's files fit.
pub const MAX_UPLOAD_BYTES: usize = 32 * 1024 * 1024;

/// At most this many parts (files and fields) in one upload.
pub const MAX_PARTS: usize = 100;

/// One part: the field's name, the file's name (without directories) if it is a file, its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub bytes: Vec<u8>,
}

/// The parsed parts of an upload, set as a request extension by the CSRF check.
#[derive(Debug, Clone, Default)]
pub struct Parts(pub Vec<Part>);

impl Parts {
    /// The text of the first field `name` (not a file), trimmed; empty when absent.
    pub fn field(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|p| p.name == name && p.filename.is_none())
            .map(|p| String::from_utf8_lossy(&p.bytes).trim().to_owned())
            .unwrap_or_default()
    }
    /// The files of field `name` that were chosen (a browser sends an empty part with an empty file name
    /// when none was).
    pub fn files<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Part> + 'a {
        self.0.iter().filter(move |p| p.name == name && p.filename.as_deref().is_some_and(|f| !f.is_empty()))
    }
}

/// Why an upload cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadError {
    /// Not `multipart/form-data` with a boundary, or not well formed.
    Malformed(&'static str),
    /// More than [`MAX_PARTS`] parts.
    TooManyParts,
}

/// The boundary of a `multipart/form-data` content type, if it is one.
pub fn boundary(content_type: &str) -> Option<String> {
    let mut params = content_type.split(';');
    let kind = params.next()?.trim();
    if !kind.eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        if !k.trim().eq_ignore_ascii_case("boundary") {
            return None;
        }
        let v = v.trim().trim_matches('"');
        // RFC 2046 § 5.1.1: 1 to 70 characters
        (!v.is_empty() && v.len() <= 70).then(|| v.to_owned())
    })
}

/// Whether a content type is `multipart/form-data`.
pub fn is_multipart(content_type: &str) -> bool {
    content_type.split(';').next().is_some_and(|k| k.trim().eq_ignore_ascii_case("multipart/form-data"))
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() || from > hay.len() - needle.len() {
        return None;
    }
    let first = needle[0];
    let last_start = hay.len() - needle.len();
    let mut i = from;
    while i <= last_start {
        match hay[i..=last_start].iter().position(|&b| b == first) {
            None => return None,
            Some(off) => {
                i += off;
                if &hay[i..i + needle.len()] == needle {
                    return Some(i);
                }
                i += 1;
            }
        }
    }
    None
}

/// Parse `body` with `boundary` into its parts.
pub fn parse(body: &[u8], boundary: &str) -> Result<Vec<Part>, UploadError> {
    let delimiter = format!("--{boundary}").into_bytes();
    let next_delimiter = format!("\r\n--{boundary}").into_bytes();
    // the first delimiter (a preamble before it is ignored)
    let start = if body.starts_with(&delimiter) {
        0
    } else {
        find(body, &next_delimiter, 0).map(|i| i + 2).ok_or(UploadError::Malformed("no boundary"))?
    };
    let mut at = start + delimiter.len();
    let mut parts = Vec::new();
    loop {
        let rest = &body[at..];
        if rest.starts_with(b"--") {
            return Ok(parts);
        }
        if !rest.starts_with(b"\r\n") {
            return Err(UploadError::Malformed("a boundary without a line break"));
        }
        at += 2;
        let head_end = find(body, b"\r\n\r\n", at).ok_or(UploadError::Malformed("a part without headers"))?;
        let head = std::str::from_utf8(&body[at..head_end]).map_err(|_| UploadError::Malformed("headers not UTF-8"))?;
        let content_start = head_end + 4;
        let end = find(body, &next_delimiter, content_start).ok_or(UploadError::Malformed("no closing boundary"))?;
        if parts.len() >= MAX_PARTS {
            return Err(UploadError::TooManyParts);
        }
        let (name, filename) = disposition(head).ok_or(UploadError::Malformed("a part without a field name"))?;
        parts.push(Part { name, filename, bytes: body[content_start..end].to_vec() });
        at = end + next_delimiter.len();
    }
}

/// The field name and file name of a part's `Content-Disposition: form-data` header.
fn disposition(head: &str) -> Option<(String, Option<String>)> {
    let line = head.split("\r\n").find_map(|l| {
        let (n, v) = l.split_once(':')?;
        n.trim().eq_ignore_ascii_case("content-disposition").then_some(v)
    })?;
    let mut name = None;
    let mut filename = None;
    for (k, v) in params(line) {
        match k.to_ascii_lowercase().as_str() {
            "name" => name = Some(v),
            // a browser sends the name only; another client may send a path: keep its last segment
            "filename" => filename = Some(v.rsplit(['/', '\\']).next().unwrap_or_default().to_owned()),
            _ => {}
        }
    }
    Some((name?, filename))
}

/// `key=value` and `key="quoted value"` parameters of a header value after its first `;`.
fn params(value: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let bytes: Vec<char> = value.chars().collect();
    let mut i = bytes.iter().position(|&c| c == ';').map_or(bytes.len(), |p| p + 1);
    while i < bytes.len() {
        while i < bytes.len() && (bytes[i] == ' ' || bytes[i] == ';') {
            i += 1;
        }
        let key_start = i;
        while i < bytes.len() && bytes[i] != '=' && bytes[i] != ';' {
            i += 1;
        }
        let key: String = bytes[key_start..i].iter().collect::<String>().trim().to_owned();
        if i >= bytes.len() || bytes[i] == ';' {
            continue;
        }
        i += 1;
        let mut val = String::new();
        if i < bytes.len() && bytes[i] == '"' {
            i += 1;
            // browsers percent-encode `"` in a file name (HTML, "multipart/form-data encoding algorithm") and
            // send a backslash as it is (an old one: a Windows path)
            while i < bytes.len() && bytes[i] != '"' {
                val.push(bytes[i]);
                i += 1;
            }
            i += 1;
        } else {
            while i < bytes.len() && bytes[i] != ';' {
                val.push(bytes[i]);
                i += 1;
            }
            val = val.trim().to_owned();
        }
        out.push((key, val));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: &str = "----geckoformboundary5f3a";

    fn body(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
        let mut b = b"preamble\r\n".to_vec();
        for (name, file, bytes) in parts {
            b.extend_from_slice(format!("--{B}\r\n").as_bytes());
            match file {
                Some(f) => b.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: text/csv\r\n\r\n")
                        .as_bytes(),
                ),
                None => b.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
            }
            b.extend_from_slice(bytes);
            b.extend_from_slice(b"\r\n");
        }
        b.extend_from_slice(format!("--{B}--\r\n").as_bytes());
        b
    }

    #[test]
    fn the_boundary_is_read_from_the_content_type() {
        assert_eq!(boundary(&format!("multipart/form-data; boundary={B}")).as_deref(), Some(B));
        assert_eq!(boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"").as_deref(), Some("a b"));
        assert_eq!(boundary("application/x-www-form-urlencoded"), None);
        assert_eq!(boundary("multipart/form-data"), None);
        assert_eq!(boundary(&format!("multipart/form-data; boundary={}", "x".repeat(71))), None);
    }

    #[test]
    fn fields_and_files_are_parsed_with_their_bytes() {
        let csv: &[u8] = b"a;b\r\n1;2\r\n--not-the-boundary\r\n\xff";
        let b = body(&[("csrf", None, b"tok"), ("dateien", Some("C:\\Wahl\\x.csv"), csv), ("dateien", Some(""), b"")]);
        let parts = Parts(parse(&b, B).expect("parsed"));
        assert_eq!(parts.field("csrf"), "tok");
        let files: Vec<_> = parts.files("dateien").collect();
        assert_eq!(files.len(), 1, "the empty file input is no file");
        assert_eq!((files[0].filename.as_deref(), files[0].bytes.as_slice()), (Some("x.csv"), csv));
        assert_eq!(parts.field("fehlt"), "");
    }

    #[test]
    fn malformed_and_oversized_uploads_are_refused() {
        assert!(parse(b"no boundary here", B).is_err());
        let mut b = body(&[("a", None, b"1")]);
        b.truncate(b.len() - 12);
        assert!(parse(&b, B).is_err(), "no closing boundary");
        let many: Vec<(&str, Option<&str>, &[u8])> = (0..=MAX_PARTS).map(|_| ("f", None, &b"x"[..])).collect();
        assert_eq!(parse(&body(&many), B), Err(UploadError::TooManyParts));
        let no_name = format!("--{B}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--{B}--\r\n");
        assert!(parse(no_name.as_bytes(), B).is_err());
    }
}
