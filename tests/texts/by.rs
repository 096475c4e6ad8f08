//! Bayern: its own Verständigung (mail/by_offer: two weeks, silence is refusal) and the shared
//! declaration-model announcements with the sentences of law/by.txt (Art. 37, 47, 48 GLKrWG). Included by
//! tests/texts.rs; its helpers are the parent's.

use super::*;

const BY: &str = "musterberg-gemeinderat";

#[test]
fn by_art_47_abs_2_glkrwg_verstaendigung_and_announcement_texts() {
    let mut b = body(example("by-election.json"));
    let e = run(&mut b, "vacancy.reported", example("by-vacancy.json"), now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_))), "the council decides first (Art. 48 Abs. 3 Satz 2)");
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": BY, "case": case, "round": 1, "confirmed_by": "Gemeinderat Musterberg, Beschluss vom 30.11.2026", "confirmed_at": "2026-11-30T10:00:00+01:00"}),
        "2026-11-30T10:00:00Z".parse().expect("time"),
    );
    render(&e, "by-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("binnen zwei Wochen nach Zugang dieser Verständigung"), "{offer}");
    assert!(offer.contains("gilt sie als abgelehnt (Art. 47 Abs. 2 Satz 2 GLKrWG)"), "{offer}");
    assert!(
        offer.contains("sind unwirksam, die Annahme bleibt wirksam (Art. 47 Abs. 3 Satz 2 und 3 GLKrWG)"),
        "{offer}"
    );
    assert!(offer.contains("Eid (Art. 31 Abs. 4 der Gemeindeordnung)"), "{offer}");
    assert!(
        offer.contains("Elisabeth Eder – kann das Amt wegen eines Hinderungsgrundes derzeit nicht antreten"),
        "{offer}"
    );
    assert!(!offer.contains("gilt die Wahl als angenommen"), "{offer}");
    notification_sent_at(&mut b, &case, "2026-11-30T10:00:00Z".parse().expect("time"));
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": BY, "case": case, "candidate": "B1-04", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "by-successor-accepted");
    let text = text_of(&e, "successor");
    assert!(text.contains("Klage beim Bayerischen Verwaltungsgericht (Bayerisches Verwaltungsgericht Musterberg, Gerichtsplatz 1, 87990 Musterberg)"), "{text}");
    // Dominik Dorn (`herr`) is named: the word for him; Elisabeth Eder (`frau`): hers
    assert!(text.contains("als Listennachfolger in die Vertretung nachrückt"), "{text}");
    assert!(text.contains("Elisabeth Eder – kann das Amt wegen eines Hinderungsgrundes derzeit nicht antreten und bleibt Listennachfolgerin ("), "{text}");
}

/// Mid-term the council decides on the Nachrücken (Art. 48 Abs. 3 Satz 2 GLKrWG), not the Wahlleitung; the
/// Verständigung rests on Art. 48 Abs. 3 Satz 3 in Verbindung mit Art. 47 Abs. 2 GLKrWG (not Art. 47 Abs. 4).
#[test]
fn by_art_48_abs_3_satz_2_glkrwg_the_council_decides_and_the_texts_say_so() {
    let mut b = body(example("by-election.json"));
    run(&mut b, "vacancy.reported", example("by-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let e = run(
        &mut b,
        "determination.confirmed",
        json!({"body": BY, "case": case, "round": 1, "confirmed_by": "Gemeinderat Musterberg, Beschluss vom 30.11.2026", "confirmed_at": "2026-11-30T10:00:00+01:00"}),
        "2026-11-30T10:00:00Z".parse().expect("time"),
    );
    let offer = text_of(&e, "mail");
    assert!(
        offer.contains("darüber hat die Vertretung am 30.11.2026 entschieden (Art. 48 Abs. 3 Satz 2 GLKrWG)"),
        "{offer}"
    );
    assert!(!offer.contains("habe ich") && !offer.contains("Art. 47 Abs. 4"), "{offer}");
    assert!(
        offer.contains(
            "(Verständigung nach Art. 48 Abs. 3 Satz 3 in Verbindung mit Art. 47 Abs. 2 GLKrWG und § 95 Abs. 3 GLKrWO)"
        ),
        "{offer}"
    );
}

#[test]
fn by_art_48_abs_1_satz_3_glkrwg_vacancy_text() {
    let mut s = example("by-election.json");
    s["body"]["determination"] = json!("automatic");
    let mut b = body(s);
    let v = json!({"body": BY, "member": "B2-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "by-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("beträgt unverändert 20"), "{text}");
}

/// A Bayern Bezirkstag (Art. 4 BezWG with Art. 46 LWG): W1-01 resigned; W1-05 won the lot drawn with the result
/// over W1-06, the Bezirkstagspräsidentin confirms, the Verständigung is served on 30 Nov 2026; silence is
/// acceptance after one week. The texts cite the BezWG and the LWG, never the GLKrWG (docs/legal.md, "Bayern's
/// Bezirkstage").
#[test]
fn by_bezwg_art_4_bezirkstag_offer_period_notice_and_announcement_texts() {
    const BEZ: &str = "musterbezirk-bezirkstag";
    let mut b = body(example("by-bezirkstag-election.json"));
    let e = run(&mut b, "vacancy.reported", example("by-bezirkstag-vacancy.json"), now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_))), "the Bezirkstagspräsidentin confirms first");
    let case = b.cases.keys().next().expect("case").clone();
    let offer = run(
        &mut b,
        "determination.confirmed",
        json!({"body": BEZ, "case": case, "round": 1, "confirmed_by": "Bezirkstagspräsidentin Regina Riedl", "confirmed_at": "2026-11-30T10:00:00+01:00"}),
        now(),
    );
    render(&offer, "by-bezirkstag-successor-offer");
    let mail = text_of(&offer, "mail");
    assert!(mail.contains("ob Sie die Wahl annehmen und bereit sind, den Eid oder das Gelöbnis"), "{mail}");
    notification_sent(&mut b, &case);
    let served = run(
        &mut b,
        "notification.served",
        json!({"body": BEZ, "case": case, "candidate": "W1-05", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    render(&served, "by-bezirkstag-period-notice");
    let e = procedure::handle(
        &mut b,
        Command::DeadlineExpired { case: case.clone(), round: 1 },
        "2026-12-07T23:00:01Z".parse().expect("t"),
        &Settings::default(),
    )
    .expect("deadline");
    render(&e, "by-bezirkstag-successor-member");
    let text = text_of(&e, "successor");
    assert!(text.contains("die Wahl gilt nach Art. 4 Abs. 2 Satz 2, Abs. 3 BezWG als angenommen"), "{text}");
    for t in [&mail, &text] {
        assert!(!t.contains("GLKrWG") && t.contains("Bezirkstag"), "{t}");
    }
}
