//! The period notice after service (Fristmitteilung, `mail/period_notice` for every Land): one golden per Land
//! with a period, a barred successor in Hessen and NRW, and a Kreistag (docs/legal.md, "The period notice to
//! the successor"). Included by tests/texts.rs; its helpers are the parent's.

use super::*;
use nachfolge::procedure::CaseState;

/// Every candidate of the snapshot gets an e-mail address.
fn with_emails(mut s: Value) -> Value {
    for list in s["lists"].as_array_mut().into_iter().flatten() {
        for c in list["candidates"].as_array_mut().into_iter().flatten() {
            let id = c["id"].as_str().unwrap_or_default().to_lowercase();
            c["email"] = json!(format!("{id}@example.org"));
        }
    }
    s
}

/// Register `snapshot`, report `vacancy`, confirm where the council decides first, serve the successor on
/// 30 Nov 2026 by `method`; render the period notice as `<prefix>.mail-period_notice.*` and return its text.
fn serve_and_render(snapshot: Value, vacancy: Value, method: &str, prefix: &str) -> String {
    let mut b = body(with_emails(snapshot));
    let id = b.info().id.clone();
    run(&mut b, "vacancy.reported", vacancy, now());
    let case = b.cases.keys().next().expect("case").clone();
    if matches!(b.cases[&case].state, CaseState::Proposed(_)) {
        run(
            &mut b,
            "determination.confirmed",
            json!({"body": id, "case": case, "round": 1, "confirmed_by": "Beschluss vom 30.11.2026", "confirmed_at": "2026-11-30T10:00:00+01:00"}),
            now(),
        );
    }
    let CaseState::Offered(offer) = &b.cases[&case].state else { panic!("{prefix}: no offer") };
    let successor = offer.successor.clone();
    let e = run(
        &mut b,
        "notification.served",
        json!({"body": id, "case": case, "candidate": successor, "method": method, "on": "2026-11-30"}),
        "2026-11-30T15:00:00Z".parse().expect("time"),
    );
    let notices: Vec<&Effect> =
        e.iter().filter(|e| matches!(e, Effect::Mail(m) if m.kind == MailKind::PeriodNotice)).collect();
    assert_eq!(notices.len(), 1, "{prefix}");
    render(&e, prefix);
    text_of(&e, "mail")
}

#[test]
fn period_notice_texts_of_every_land_with_a_period() {
    for (land, method) in [
        ("nrw", "certificate"),
        ("rp", "certificate"),
        ("ni", "return_receipt"),
        ("st", "acknowledgement"),
        ("th", "certificate"),
        ("sh", "certificate"),
        ("mv", "certificate"),
        ("bb", "registered_letter_posted"),
        ("by", "actual_receipt"),
    ] {
        let vacancy =
            if land == "nrw" { "nrw-vacancy-list-member.json".to_owned() } else { format!("{land}-vacancy.json") };
        let text = serve_and_render(
            example(&format!("{land}-election.json")),
            example(&vacancy),
            method,
            &format!("{land}-period-notice"),
        );
        assert!(text.contains("Die Frist endet mit Ablauf des "), "{land}: {text}");
        assert!(text.contains("Diese Mitteilung dient nur Ihrer Information."), "{land}: {text}");
    }
}

#[test]
fn he_23_abs_2_period_notice_of_a_barred_successor() {
    let mut s = example("he-election.json");
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2026-01-01", "reason": "Beamtin der Stadt"}]);
    let text = serve_and_render(s, example("he-vacancy.json"), "acknowledgement", "he-barred-period-notice");
    assert!(text.contains("meine schriftliche Feststellung Ihres Nachrückens in"), "{text}");
    assert!(text.contains("rückwirkend als nicht erworben (§ 23 Abs. 2 Satz 3 KWG)"), "{text}");
}

/// A Kreistag's notice is signed by its Kreiswahlleitung, with the Kreistag's file number — not by the town's
/// Wahlleitung with the town's (issue 27).
#[test]
fn kwahlg_nrw_45_abs_6_period_notice_of_a_kreistag() {
    const KT: &str = "musterkreis-kreistag";
    let mut s = example("nrw-election.json");
    s["body"]["kind"] = json!("kreistag");
    s["body"]["id"] = json!(KT);
    s["body"]["name"] = json!("Kreistag des Kreises Musterkreis");
    s["body"]["returning_officer"] = json!({
        "name": "Karla Kreis", "title": "Kreiswahlleiterin",
        "email": "kreiswahlleitung@musterkreis.de", "address": "Kreishaus, Kreisplatz 1, 12399 Musterkreisstadt"
    });
    let mut v = example("nrw-vacancy-list-member.json");
    v["body"] = json!(KT);
    let text = serve_and_render(s, v, "certificate", "kreistag-nrw-period-notice");
    assert!(text.contains("in den Kreistag „Kreistag des Kreises Musterkreis“"), "{text}");
    assert!(!text.contains("Vertretung"), "{text}");
    assert!(text.contains("Karla Kreis\nKreiswahlleiterin für die Wahl des Kreistags"), "{text}");
    assert!(text.contains("Aktenzeichen: musterkreis-kreistag-1") && !text.contains("musterstadt"), "{text}");
}
