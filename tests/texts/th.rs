//! Thüringen: the shared declaration-model templates with the sentences of law/th.txt (§§ 23, 29, 31
//! ThürKWG). Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const TH: &str = "musterbach-stadtrat";

#[test]
fn th_thuerkwg_29_offer_and_announcement_texts() {
    let mut b = body(example("th-election.json"));
    let e = run(&mut b, "vacancy.reported", example("th-vacancy.json"), now());
    render(&e, "th-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("Vorbehalte oder Bedingungen, die Sie Ihrer Annahmeerklärung beifügen, sind unwirksam, die Annahme bleibt wirksam (§ 29 Satz 3 ThürKWG)"), "{offer}");
    assert!(!offer.contains("gilt als Ablehnung"), "{offer}");
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": TH, "case": case, "candidate": "T1-04", "kind": "accept_with_reservation", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "th-successor-accepted");
    let text = text_of(&e, "successor");
    assert!(text.contains("binnen zwei Wochen nach dieser Bekanntmachung Anfechtung erheben"), "{text}");
}

#[test]
fn th_thuerkwg_23_abs_2_vacancy_text() {
    let mut b = body(example("th-election.json"));
    let v = json!({"body": TH, "member": "T2-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "th-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("beträgt unverändert 30"), "{text}");
}
