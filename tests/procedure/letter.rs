//! The letter to the offered successor for service (`Council::determination_letter`; docs/console.md,
//! "Documents"): the e-mail's text in its letter form, with the Land's request and period rule, and the frame
//! of `texts::letter`; printed as PDF and read back with pdftotext (poppler-utils). Included by
//! tests/procedure.rs; its helpers are the parent's.

use super::*;

use nachfolge_core::texts::letter::letter_frame;

/// The text layer of `pdf`, every run of white space one space.
fn pdftotext(pdf: &[u8], name: &str) -> String {
    let file = std::env::temp_dir().join(format!("nachfolge-procedure-{}-{name}.pdf", std::process::id()));
    std::fs::write(&file, pdf).expect("write the PDF");
    let out = std::process::Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext runs (Debian: poppler-utils)");
    let _ = std::fs::remove_file(&file);
    String::from_utf8(out.stdout).expect("UTF-8").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The letter of `case` at `now` as PDF text, and its text as rendered from the template.
fn letter(b: &Council, case: &str, now: &str) -> (String, String) {
    let mail = b.determination_letter(case, t(now)).expect("a letter while the successor is offered");
    assert_eq!(mail.context["letter"], true);
    let templates = nachfolge::templates::Templates::load(None).expect("templates");
    let text = templates.mail(&mail.template, &mail.context).expect("render").text;
    // the e-mail of the same context says what the letter leaves out
    let mut as_mail = mail.context.clone();
    as_mail["letter"] = json!(false);
    let mail_text = templates.mail(&mail.template, &as_mail).expect("render").text;
    assert!(mail_text.contains(&format!("Aktenzeichen: {case} (Runde 1)")), "{mail_text}");
    assert!(!text.contains("Aktenzeichen:") && !text.contains("ersetzt nicht die förmliche Zustellung"), "{text}");
    let frame = letter_frame(&b.body, &mail, t(now)).expect("frame");
    assert_eq!(frame.info[0], ("Aktenzeichen", format!("{case} (Runde 1)")));
    let metrics = nachfolge::letter::pdf::Metrics::load().expect("fonts");
    let pdf = nachfolge::letter::letter_pdf(&frame, &text, &metrics).expect("the letter prints");
    (pdftotext(&pdf, case), text)
}

#[test]
fn kwg_he_34_abs_3_the_letter_to_a_barred_successor_asks_for_the_proof_within_a_week_of_service() {
    let b = he_barred();
    let (pdf, _) = letter(&b, HCASE, "2025-06-04T09:00:00+02:00");
    for want in [
        "Datum 04.06.2025",
        "Bitte weisen Sie mir binnen einer Woche nach Zustellung dieser Feststellung nach, dass Sie das mit der Mitgliedschaft unvereinbare Amt oder Arbeitsverhältnis beendet haben (§ 34 Abs. 3 Satz 2 in Verbindung mit § 23 Abs. 2 KWG).",
        "Wird der Nachweis nicht bis zum Ablauf der Frist erbracht, gilt Ihre Mitgliedschaft rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG)",
    ] {
        assert!(pdf.contains(want), "{want:?} not in {pdf}");
    }
}

#[test]
fn kwahlg_nrw_45_abs_6_the_letter_asks_for_the_declaration_and_ends_with_the_offer() {
    let mut b = nrw_barred();
    let (pdf, _) = letter(&b, CASE, "2025-06-04T09:00:00+02:00");
    for want in [
        "Ich fordere Sie auf, binnen einer Woche nach Zustellung dieser Benachrichtigung schriftlich zu erklären, ob Sie die Wahl annehmen (§ 45 Abs. 6 Satz 2 KWahlG).",
        "Sie können die Wahl nur annehmen, wenn Sie mir innerhalb derselben Frist durch eine schriftliche Bescheinigung Ihres Dienstherrn oder Arbeitgebers nachweisen, dass Sie dieses Amt oder Arbeitsverhältnis beendet haben",
    ] {
        assert!(pdf.contains(want), "{want:?} not in {pdf}");
    }
    // the offer is settled by the refusal: the next successor's letter, none for the one who refused
    run(
        &mut b,
        declare("rat", CASE, "L1-03", DeclarationKind::Refuse, "2025-06-05T09:00:00+02:00"),
        "2025-06-05T09:00:00+02:00",
    );
    let next = b.determination_letter(CASE, t("2025-06-05T10:00:00+02:00")).expect("the next offer");
    assert_ne!(next.candidate, "L1-03");
    assert_eq!(next.round, 2);
    assert!(b.determination_letter("rat-99", t("2025-06-05T10:00:00+02:00")).is_none());
}
