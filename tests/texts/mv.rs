//! Mecklenburg-Vorpommern: the shared declaration-model templates with the sentences of law/mv.txt (§§ 33, 34,
//! 35, 46 LKWG M-V, § 25 KV M-V). Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const MV: &str = "musterhagen-stadtvertretung";

fn mv_vacancy(member: &str) -> Value {
    json!({"body": MV, "member": member, "reason": "resigned", "effective_at": "2026-11-28T00:00:00+01:00"})
}

/// MV: M1-01 resigned; M1-05 is determined; the notification is sent and served on 30 Nov 2026 (the week
/// ends Mon 7 Dec 2026).
fn mv_offered() -> (Council, String, Vec<Effect>) {
    let mut b = body(example("mv-election.json"));
    let e = run(&mut b, "vacancy.reported", mv_vacancy("M1-01"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "notification.served",
        json!({"body": MV, "case": case, "candidate": "M1-05", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), e)
}

/// The week ended without a refusal: membership by § 34 Satz 1 LKWG M-V.
fn mv_filled() -> (Council, String, Vec<Effect>) {
    let (mut b, case, _) = mv_offered();
    let e = procedure::handle(
        &mut b,
        Command::DeadlineExpired { case: case.clone().into(), round: 1 },
        "2026-12-07T23:00:01Z".parse().expect("t"),
        &Settings::default(),
    )
    .expect("deadline");
    (b, case, e)
}

#[test]
fn mv_lkwg_34_offer_and_announcement_texts() {
    let (_, _, e) = mv_offered();
    render(&e, "mv-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("Sie erwerben die Mitgliedschaft in der Vertretung eine Woche nach Zustellung dieser Benachrichtigung, wenn Sie nicht binnen dieser Woche mir gegenüber schriftlich erklären, dass Sie die Wahl nicht annehmen"), "{offer}");
    assert!(!offer.contains("Ich fordere Sie auf"), "{offer}");
    assert!(offer.contains("Eine Erklärung unter Vorbehalt ist unbeachtlich; sie hindert den Erwerb der Mitgliedschaft nicht (§ 34 Satz 3 LKWG M-V)."), "{offer}");
    assert!(!offer.contains("gilt als Ablehnung"), "{offer}");
    assert!(offer.contains("(§ 46 Abs. 2 Satz 3 Nr. 1 LKWG M-V)"), "{offer}");
    let (_, _, e) = mv_filled();
    render(&e, "mv-successor-member");
    let text = text_of(&e, "successor");
    assert!(text.contains("Die Mitgliedschaft in der Vertretung beginnt am 08.12.2026; sie ist nach § 34 Satz 1 LKWG M-V mit Ablauf der Woche erworben"), "{text}");
    assert!(text.contains("innerhalb von zwei Wochen nach dieser Bekanntmachung unter Angabe der Gründe bei der Wahlleitung, Markt 1, 17999 Musterhagen, zu erheben"), "{text}");
    assert!(text.contains("Der Einspruch hat keine aufschiebende Wirkung"), "{text}");
}

#[test]
fn mv_lkwg_46_abs_1_vacancy_texts_the_seat_stays_free() {
    // M2-02 died: the Wählergemeinschaft's Wahlvorschlag has no Ersatzperson left
    let mut b = body(example("mv-election.json"));
    let e = run(&mut b, "vacancy.reported", mv_vacancy("M2-01"), now());
    render(&e, "mv-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("beträgt unverändert 25"), "{text}");
    assert!(text.contains("§ 46 Abs. 1 LKWG M-V"), "{text}");
    let mut b = body(example("mv-election.json"));
    let e = run(&mut b, "vacancy.reported", mv_vacancy("E1-01"), now());
    render(&e, "mv-vacancy-individual");
    assert!(text_of(&e, "vacancy").contains("Einzelbewerberin oder Einzelbewerber gewählt worden ist"));
}

#[test]
fn mv_lkwg_35_review_text() {
    let (filled, case, _) = mv_filled();
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, MV, "confirmed", None, None), later());
    render(&e, "mv-review-confirmed");
    let text = text_of(&e, "review");
    assert!(text.contains("§ 46 Abs. 4 in Verbindung mit §§ 35 und 36 des Landes- und Kommunalwahlgesetzes"), "{text}");
}

#[test]
fn mv_kv_25_offer_to_a_successor_with_an_unvereinbarkeit_asks_for_no_proof() {
    let mut s = example("mv-election.json");
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2025-01-01", "reason": "Bediensteter der Stadt Musterhagen"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", mv_vacancy("M1-01"), now());
    render(&e, "mv-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("§ 25 Abs. 1 der Kommunalverfassung (KV M-V)"), "{offer}");
    assert!(offer.contains("Die Unvereinbarkeit hindert den Erwerb der Mitgliedschaft nicht"), "{offer}");
    assert!(!offer.contains("Nachweis"), "{offer}");
}
