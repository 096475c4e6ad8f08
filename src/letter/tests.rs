//! The PDFs read back with `pdftotext` and `pdfinfo` (poppler-utils; `.ci/run` installs it): the words come out
//! as written, German and other names included, each inside its DIN 5008 field, the fonts are embedded, and
//! the document is tagged (PDF/UA-1).

use std::process::Command;

use nachfolge_core::texts::letter::LetterFrame;

use super::*;
use unicode_normalization::UnicodeNormalization;

/// The text layer of `pdf` as pdftotext reads it (`-layout` off: reading order, lines as set).
pub fn pdftotext(pdf: &[u8]) -> String {
    let dir =
        std::env::temp_dir().join(format!("nachfolge-letter-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("doc.pdf");
    std::fs::write(&file, pdf).expect("write the PDF");
    let out = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext runs (Debian: poppler-utils; .ci/run installs it)");
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(out.stdout).expect("UTF-8 text")
}

/// The output of a poppler tool run on `pdf` with `args` (the file's path last).
fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let file = std::env::temp_dir().join(format!(
        "nachfolge-letter-{tool}-{}-{:?}.pdf",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::write(&file, pdf).expect("write the PDF");
    // pdftotext writes to a file beside the PDF unless told "-" (standard output)
    let to_stdout: &[&str] = if tool == "pdftotext" { &["-"] } else { &[] };
    let out = Command::new(tool)
        .args(args)
        .arg(&file)
        .args(to_stdout)
        .output()
        .expect("the poppler tool runs (poppler-utils)");
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success(), "{tool}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// A word as `pdftotext -bbox` reads it: its page (from 1), its box in millimetres from the page's top left
/// corner and its text.
#[derive(Debug, Clone)]
struct Word {
    page: usize,
    left: f32,
    top: f32,
    right: f32,
    bottom: f32,
    text: String,
}

/// The value of the attribute `name` in the tag `tag` (`name="…"`).
fn attribute(tag: &str, name: &str) -> f32 {
    let at = tag.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("{name} in {tag}")) + name.len() + 3;
    let end = tag[at..].find('"').expect("closing quote") + at;
    tag[at..end].parse().expect("a number")
}

/// XHTML's entities back to characters.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&")
}

/// Every word of `pdf` with its box (`pdftotext -bbox`, points converted to millimetres).
fn words(pdf: &[u8]) -> Vec<Word> {
    let xhtml = poppler("pdftotext", &["-bbox", "-enc", "UTF-8"], pdf);
    let mm = |pt: f32| pt * 25.4 / 72.0;
    let mut page = 0;
    let mut out = Vec::new();
    for line in xhtml.lines().map(str::trim) {
        if line.starts_with("<page ") {
            page += 1;
        } else if let Some(rest) = line.strip_prefix("<word ") {
            let (tag, text) = rest.split_once('>').expect("a word's tag");
            let tag = format!(" {tag}");
            let text = text.strip_suffix("</word>").expect("a word on one line");
            out.push(Word {
                page,
                left: mm(attribute(&tag, "xMin")),
                top: mm(attribute(&tag, "yMin")),
                right: mm(attribute(&tag, "xMax")),
                bottom: mm(attribute(&tag, "yMax")),
                text: unescape(text),
            });
        }
    }
    out
}

/// Whether `word` lies inside `field` (to a tenth of a millimetre: pdftotext rounds).
fn inside(word: &Word, field: &din::Field) -> bool {
    word.left >= field.left - 0.1
        && word.right <= field.right + 0.1
        && word.top >= field.top - 0.1
        && word.bottom <= field.bottom + 0.1
}

/// pdftotext breaks lines as they are set: compare with every run of white space as one space.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn frame() -> LetterFrame {
    LetterFrame {
        letterhead: vec!["Rat der Stadt Musterstadt".into(), "Wahlleitung".into()],
        return_address: "Dr. Erika Mustermann · Rathausplatz 1 · 12345 Musterstadt".into(),
        recipient: vec!["Jürgen Groß-Öztürk".into(), "Äußere Straße 5".into(), "12345 Musterstadt".into()],
        info: vec![
            ("Aktenzeichen", "musterstadt-rat-1 (Runde 1)".into()),
            ("Auskunft", "Dr. Erika Mustermann".into()),
            ("E-Mail", "wahlleitung@musterstadt.example".into()),
            ("Datum", "02.12.2026".into()),
        ],
        subject: "Benachrichtigung über Ihre Nachfolge in den Rat „Rat der Stadt Musterstadt“".into(),
    }
}

#[test]
fn the_letter_reads_back_with_its_german_words() {
    let metrics = Metrics::load().expect("the embedded fonts parse");
    let text = "Guten Tag Jürgen Groß-Öztürk,\n\nIch fordere Sie auf, binnen einer Woche nach Zustellung dieser Benachrichtigung schriftlich zu erklären, ob Sie die Wahl annehmen (§ 45 Abs. 6 Satz 2 KWahlG).\n\nBitte beachten Sie:\n- Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG).\n\nMit freundlichen Grüßen\n";
    let pdf = letter_pdf(&frame(), text, &metrics).expect("the letter prints");
    assert!(pdf.starts_with(b"%PDF-"));
    let read = squash(&pdftotext(&pdf));
    for want in [
        "Rat der Stadt Musterstadt",
        "Dr. Erika Mustermann · Rathausplatz 1 · 12345 Musterstadt",
        "Jürgen Groß-Öztürk",
        "Äußere Straße 5",
        "musterstadt-rat-1 (Runde 1)",
        "02.12.2026",
        "Benachrichtigung über Ihre Nachfolge in den Rat „Rat der Stadt Musterstadt“",
        "Ich fordere Sie auf, binnen einer Woche nach Zustellung dieser Benachrichtigung schriftlich zu erklären, ob Sie die Wahl annehmen (§ 45 Abs. 6 Satz 2 KWahlG).",
        "- Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Ablauf der Frist als angenommen (§ 45 Abs. 6 Satz 4 KWahlG).",
        "Mit freundlichen Grüßen",
    ] {
        assert!(read.contains(want), "{want:?} not in {read}");
    }
    // one page: no page number
    assert!(!read.contains("Seite 1"), "{read}");
}

#[test]
fn the_fonts_are_embedded_and_a_character_without_glyph_is_refused_before_the_document_is_written() {
    let metrics = Metrics::load().expect("fonts");
    let pdf = announcement_pdf("Bekanntmachung „Wahl“\n\nName: Łukasz Šimić €\n", &metrics).expect("prints");
    let raw = String::from_utf8_lossy(&pdf);
    for want in [
        "/FontFile2",
        "/Type0",
        "/CIDFontType2",
        "/ToUnicode",
        "/CIDToGIDMap",
        "NFDJVA+DejaVuSans",
        "NFDJVB+DejaVuSans-Bold",
        "/Lang (de-DE)",
    ] {
        assert!(raw.contains(want), "{want} missing");
    }
    assert!(!raw.contains("/Helvetica"), "only the embedded fonts");
    let table = poppler("pdffonts", &[], &pdf);
    // name, type, encoding, emb (yes), sub (yes), uni (yes)
    let rows: Vec<&str> = table.lines().filter(|l| l.contains("DejaVuSans")).collect();
    assert_eq!(rows.len(), 2, "{table}");
    for row in rows {
        assert!(row.contains("CID TrueType") && row.contains("yes yes yes"), "{table}");
    }
    let read = squash(&pdftotext(&pdf));
    assert!(read.contains("Bekanntmachung „Wahl“ Name: Łukasz Šimić €"), "{read}");
    // a Korean name and a control character: refused with the characters named, no empty box printed
    let refused = announcement_pdf("Bekanntmachung\n\nName: 김 Łukasz\u{7}\n", &metrics);
    assert_eq!(refused, Err(DocumentError::Unprintable(Unprintable(vec!['\u{7}', '김']))));
    let said = refused.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(said.contains("„김“ (U+AE40)") && said.contains("Bitte prüfen Sie die Schreibweise"), "{said}");
    let mut letter = frame();
    letter.recipient[0] = "Kim 김".into();
    assert!(matches!(letter_pdf(&letter, "Guten Tag,\n", &metrics), Err(DocumentError::Unprintable(_))));
}

#[test]
fn a_long_text_breaks_onto_numbered_pages_and_within_the_margins() {
    let metrics = Metrics::load().expect("fonts");
    let paragraph = "Gegen diese Feststellung kann jede wahlberechtigte Person binnen eines Monats Einspruch erheben. ";
    let text = format!("Titel\n\n{}\n", paragraph.repeat(150));
    let pdf = announcement_pdf(&text, &metrics).expect("prints");
    let read = pdftotext(&pdf);
    let pages = read.matches('\u{c}').count();
    assert!(pages >= 2, "{pages} pages");
    assert!(
        read.contains(&format!("Seite 1 von {pages}")) && read.contains(&format!("Seite {pages} von {pages}")),
        "{read}"
    );
    assert_eq!(squash(&read).matches("Einspruch erheben.").count(), 150);
    for line in wrap(&metrics, Style::Regular, SIZE, &paragraph.repeat(3), RIGHT - LEFT) {
        assert!(metrics.width_mm(Style::Regular, SIZE, &line) <= RIGHT - LEFT + 0.01, "{line}");
    }
    // a word wider than the line is broken inside, nothing is lost
    let long = "X".repeat(300);
    assert_eq!(wrap(&metrics, Style::Regular, SIZE, &long, 50.0).concat(), long);
}

#[test]
fn a_long_value_of_the_information_block_is_shrunk_not_cut() {
    let metrics = Metrics::load().expect("fonts");
    let mut long = frame();
    long.info[2].1 =
        "wahlleitung.kommunalwahlen.nachfolge@verbandsgemeinde-musterstadt-an-der-weinstrasse.example".into();
    let read = squash(&pdftotext(&letter_pdf(&long, "Guten Tag,\n", &metrics).expect("prints")));
    // wrapped inside the address: pdftotext joins the lines with a space
    assert!(read.replace(' ', "").contains(&long.info[2].1), "{read}");
    assert!(read.contains("Datum 02.12.2026"), "{read}");
    let boxes = words(&letter_pdf(&long, "Guten Tag,\n", &metrics).expect("prints"));
    let value: Vec<&Word> = boxes.iter().filter(|w| w.text.starts_with("wahlleitung.")).collect();
    assert!(!value.is_empty() && value.iter().all(|w| inside(w, &din::INFO)), "{value:?} in {boxes:?}");
}

/// A 70-character council name.
const COUNCIL: &str = "Rat der Verbandsgemeinden Bernkastel-Kues-Traben-Trarbach an der Mosel";
/// A 70-character person name with an academic degree.
const PERSON: &str = "Prof. Dr. Dr. h. c. Maximiliane Anna-Katharina Freifrau von Hohenstein";

/// A letter with every field long: the council's name, the person's name with degrees, the street, the town,
/// the return address and the information block's values.
fn long_frame() -> LetterFrame {
    assert_eq!((COUNCIL.chars().count(), PERSON.chars().count()), (70, 70));
    LetterFrame {
        letterhead: vec![COUNCIL.into(), "Der Wahlleiter der Verbandsgemeinde".into()],
        return_address: format!(
            "Dr. Bartholomäus Wahlleiter-Mustermann · Verbandsgemeindeverwaltung {COUNCIL} · \
             Hauptstraße 123 a · 54470 Bernkastel-Kues"
        ),
        recipient: vec![
            "Frau".into(),
            PERSON.into(),
            "Oberer Bürgermeister-Dr.-Friedrich-Wilhelm-Schmitz-Weinbergsweg 117 b".into(),
            "Hinterhaus, drittes Obergeschoss links, bei Familie Müller-Lüdenscheidt".into(),
            "56841 Traben-Trarbach-Wolf an der Mosel (Ortsbezirk Wolf, Hunsrückhöhe)".into(),
        ],
        info: vec![
            ("Aktenzeichen", "verbandsgemeinde-bernkastel-kues-traben-trarbach-rat-2024 (Runde 12)".into()),
            ("Auskunft", "Dr. Bartholomäus Wahlleiter-Mustermann".into()),
            ("E-Mail", "wahlleitung@verbandsgemeinde-bernkastel-kues-traben-trarbach.example".into()),
            ("Datum", "02.12.2026".into()),
        ],
        subject: format!("Benachrichtigung über Ihre Nachfolge in den Rat „{COUNCIL}“"),
    }
}

/// The words of `boxes` (in reading order) lying inside `field` on page 1, joined without spaces.
fn joined_inside(boxes: &[Word], field: &din::Field) -> String {
    boxes.iter().filter(|w| w.page == 1 && inside(w, field)).map(|w| w.text.as_str()).collect()
}

#[test]
fn din_5008_long_names_stay_inside_their_fields() {
    let metrics = Metrics::load().expect("fonts");
    let frame = long_frame();
    let text =
        format!("Guten Tag {PERSON},\n\n{}\nMit freundlichen Grüßen\n", "Ein Absatz des Schreibens. ".repeat(150));
    let pdf = letter_pdf(&frame, &text, &metrics).expect("the letter prints");
    let boxes = words(&pdf);
    assert!(boxes.iter().any(|w| w.page > 1), "the text runs onto a second page");
    // every word lies inside one field of its page
    let first = [din::LETTERHEAD, din::RETURN, din::ADDRESS, din::INFO, din::FIRST_TEXT, din::FOOTER];
    let following = [din::TEXT, din::FOOTER];
    for word in &boxes {
        let fields: &[din::Field] = if word.page == 1 { &first } else { &following };
        assert!(fields.iter().any(|f| inside(word, f)), "{word:?} outside every field");
    }
    // and each field holds exactly its own text, nothing cut, nothing moved elsewhere
    let bare = |s: &str| s.split_whitespace().collect::<String>();
    assert_eq!(joined_inside(&boxes, &din::LETTERHEAD), bare(&frame.letterhead.concat()));
    assert_eq!(joined_inside(&boxes, &din::RETURN), bare(&frame.return_address));
    assert_eq!(joined_inside(&boxes, &din::ADDRESS), bare(&frame.recipient.concat()));
    let info: String = frame.info.iter().map(|(l, v)| format!("{l}{v}")).collect();
    assert_eq!(joined_inside(&boxes, &din::INFO), bare(&info));
    assert!(joined_inside(&boxes, &din::FIRST_TEXT).starts_with(&bare(&frame.subject)));
    // every field long: the address is wrapped and set smaller, never below half its size (11 pt: a 4.5 mm box)
    let name: Vec<&Word> = boxes.iter().filter(|w| w.page == 1 && w.text == "Maximiliane").collect();
    assert!(name.iter().any(|w| inside(w, &din::ADDRESS) && w.bottom - w.top > 2.2), "{name:?}");
    // a long name in an ordinary address is wrapped onto two lines at full size (11 pt: a 4.5 mm box)
    let mut ordinary = super::tests::frame();
    ordinary.recipient = vec!["Frau".into(), PERSON.into(), "Hauptstraße 5".into(), "56841 Traben-Trarbach".into()];
    let boxes = words(&letter_pdf(&ordinary, "Guten Tag,\n", &metrics).expect("prints"));
    assert_eq!(joined_inside(&boxes, &din::ADDRESS), bare(&ordinary.recipient.concat()));
    let name: Vec<&Word> =
        boxes.iter().filter(|w| inside(w, &din::ADDRESS) && PERSON.split(' ').any(|p| p == w.text)).collect();
    assert_eq!(name.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "), PERSON);
    assert!(name.iter().all(|w| w.bottom - w.top > 4.4), "{name:?}");
    let mut lines: Vec<i32> = name.iter().map(|w| (w.top * 10.0) as i32).collect();
    lines.dedup();
    assert_eq!(lines.len(), 2, "{name:?}");
}

#[test]
fn din_5008_a_field_too_long_for_its_box_is_refused_not_cut() {
    let metrics = Metrics::load().expect("fonts");
    let mut frame = frame();
    frame.recipient = vec![PERSON.repeat(12)];
    let refused = letter_pdf(&frame, "Guten Tag,\n", &metrics);
    assert_eq!(refused, Err(DocumentError::TooLong("die Anschrift")));
    let said = refused.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(said.contains("Die Angaben für die Anschrift sind zu lang"), "{said}");
}

/// Names of many scripts and spellings (DIN 91379's Latin letters, Greek, Cyrillic), one typed decomposed.
const NAMES: [&str; 8] = [
    "Đặng Thị Ngọc Ánh",
    "Żółć Grzegorz Brzęczyszczykiewicz",
    "Nguyễn Văn Thắng",
    "İlkay Işıl Şahin-Doğan",
    "Ελευθερία Παπαδοπούλου",
    "Жанна Ёлкина-Щукина",
    "Rene\u{301}e Zoe\u{308} Cœur",
    "Ǆemal Ŋgúgĩ Ərdoğan Ŧ",
];

#[test]
fn every_name_prints_and_reads_back_as_written() {
    let metrics = Metrics::load().expect("fonts");
    for name in NAMES {
        let composed: String = name.nfc().collect();
        for c in composed.chars() {
            assert!(metrics.prints(c), "no glyph for {c:?} in {name}");
        }
        let mut frame = frame();
        frame.recipient[0] = name.into();
        frame.info[1].1 = name.into();
        let pdf = letter_pdf(&frame, &format!("Guten Tag {name},\n"), &metrics).expect("the name prints");
        let read = squash(&pdftotext(&pdf));
        assert_eq!(read.matches(&composed).count(), 3, "{composed:?} three times in {read}");
        let announced = announcement_pdf(&format!("Bekanntmachung\n\n{name}\n"), &metrics).expect("prints");
        assert!(squash(&pdftotext(&announced)).ends_with(&composed), "{composed}");
    }
    assert_eq!(nfc("Rene\u{301}e"), "Renée");
}

/// Every text-showing operator of the page contents lies inside a marked-content sequence: `BDC`/`EMC`
/// pairs around each `BT`…`ET` (the writer sets one run per line of content).
fn every_text_is_marked(raw: &str) -> (usize, usize) {
    let (mut depth, mut texts, mut tagged) = (0i32, 0, 0);
    for line in raw.lines() {
        let op = line.split_whitespace().last().unwrap_or("");
        match op {
            "BDC" | "BMC" => depth += 1,
            "EMC" => depth -= 1,
            "BT" => {
                texts += 1;
                assert!(depth > 0, "text outside marked content");
            }
            "Tj" | "TJ" if depth > 0 => tagged += 1,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    (texts, tagged)
}

#[test]
fn pdf_ua_the_letter_is_tagged_with_language_title_and_marked_content() {
    let metrics = Metrics::load().expect("fonts");
    let text = format!("Guten Tag,\n\n{}\nBitte beachten Sie:\n- Erstens.\n- Zweitens.\n", "Ein Satz. ".repeat(400));
    let frame = frame();
    let pdf = letter_pdf(&frame, &text, &metrics).expect("prints");
    let raw = String::from_utf8_lossy(&pdf);
    for want in [
        "/MarkInfo <<\n    /Marked true",
        "/StructTreeRoot",
        "/ParentTree",
        "/StructParents 0",
        "/DisplayDocTitle true",
        "/Lang (de-DE)",
        "/Type /Metadata",
        "<pdfuaid:part>1</pdfuaid:part>",
        "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Benachrichtigung über Ihre Nachfolge",
        "/S /Document",
        "/S /H1",
        "/S /P",
        "/Artifact <<\n  /Type /Pagination",
    ] {
        assert!(raw.contains(want), "{want:?} missing");
    }
    let (texts, tagged) = every_text_is_marked(&raw);
    assert!(texts > 20 && tagged == texts, "{texts} runs, {tagged} tagged");
    let info = poppler("pdfinfo", &[], &pdf);
    let field =
        |name: &str| info.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default().to_owned();
    assert_eq!(field("Tagged:"), "yes", "{info}");
    assert_eq!(field("Title:"), frame.subject, "{info}");
    assert_ne!(field("Pages:"), "1", "{info}");
    // the structure tree holds every word of the text layer but the page numbers (artifacts)
    let tree = poppler("pdfinfo", &["-struct-text"], &pdf);
    for tag in ["Document", "H1", "P"] {
        assert!(tree.lines().any(|l| l.trim_start().starts_with(tag)), "{tag} missing in {tree}");
    }
    let mut in_tree: std::collections::HashMap<String, i64> = std::collections::HashMap::new();
    for line in tree.lines().filter_map(|l| l.trim_start().strip_prefix('"')) {
        for word in line.trim_end_matches('"').split_whitespace() {
            *in_tree.entry(word.to_owned()).or_default() += 1;
        }
    }
    for word in pdftotext(&pdf).split_whitespace() {
        *in_tree.entry(word.to_owned()).or_default() -= 1;
    }
    let untagged: Vec<_> = in_tree.iter().filter(|(_, n)| **n < 0).collect();
    assert!(untagged.iter().all(|(w, _)| *w == "Seite" || *w == "von" || w.parse::<u32>().is_ok()), "{untagged:?}");
    assert!(!untagged.is_empty(), "the page numbers are artifacts, not in the tree");
    // the announcement likewise
    let announced = announcement_pdf("Bekanntmachung\n\nText.\n", &metrics).expect("prints");
    let raw = String::from_utf8_lossy(&announced);
    assert!(raw.contains("/Marked true") && raw.contains("<pdfuaid:part>1</pdfuaid:part>") && raw.contains("/S /H1"));
    every_text_is_marked(&raw);
    assert!(poppler("pdfinfo", &[], &announced).lines().any(|l| l.starts_with("Tagged:") && l.ends_with(" yes")));
}
