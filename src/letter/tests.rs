//! The PDFs read back with `pdftotext` (poppler-utils; `.ci/run` installs it): the words come out as written,
//! German characters included, and the fonts are embedded.

use std::process::Command;

use nachfolge_core::texts::letter::LetterFrame;

use super::*;

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
    let pdf = letter_pdf(&frame(), text, &metrics);
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
fn the_fonts_are_embedded_and_a_character_without_glyph_stays_in_the_text() {
    let metrics = Metrics::load().expect("fonts");
    let pdf = announcement_pdf("Bekanntmachung „Wahl“\n\nName: 김 Łukasz Šimić €\n", &metrics);
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
    let file = std::env::temp_dir().join(format!("nachfolge-fonts-{}.pdf", std::process::id()));
    std::fs::write(&file, &pdf).expect("write the PDF");
    let fonts = Command::new("pdffonts").arg(&file).output().expect("pdffonts runs (poppler-utils)");
    let _ = std::fs::remove_file(&file);
    let table = String::from_utf8_lossy(&fonts.stdout);
    // name, type, encoding, emb (yes), sub (yes), uni (yes)
    let rows: Vec<&str> = table.lines().filter(|l| l.contains("DejaVuSans")).collect();
    assert_eq!(rows.len(), 2, "{table}");
    for row in rows {
        assert!(row.contains("CID TrueType") && row.contains("yes yes yes"), "{table}");
    }
    let read = squash(&pdftotext(&pdf));
    assert!(read.contains("Bekanntmachung „Wahl“ Name: 김 Łukasz Šimić €"), "{read}");
}

#[test]
fn a_long_text_breaks_onto_numbered_pages_and_within_the_margins() {
    let metrics = Metrics::load().expect("fonts");
    let paragraph = "Gegen diese Feststellung kann jede wahlberechtigte Person binnen eines Monats Einspruch erheben. ";
    let text = format!("Titel\n\n{}\n", paragraph.repeat(150));
    let pdf = announcement_pdf(&text, &metrics);
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
    let read = squash(&pdftotext(&letter_pdf(&long, "Guten Tag,\n", &metrics)));
    // wrapped inside the address: pdftotext joins the lines with a space
    assert!(read.replace(' ', "").contains(&long.info[2].1), "{read}");
    assert!(read.contains("Datum 02.12.2026"), "{read}");
    assert!(fitting(&metrics, 10.0, "wahlleitung.kommunalwahlen@musterstadt.example", 65.0) < 10.0);
    assert_eq!(fitting(&metrics, 10.0, "02.12.2026", 65.0), 10.0);
}
