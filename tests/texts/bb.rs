//! Brandenburg: the shared declaration-model templates with the sentences of law/bb.txt (§§ 12, 51, 55, 56, 58,
//! 60, 62 BbgKWahlG, § 80 BbgKWahlV). Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const BB: &str = "musterwalde-svv";

fn bb_vacancy(member: &str) -> Value {
    json!({"body": BB, "member": member, "reason": "resigned", "effective_at": "2026-11-28T00:00:00+01:00"})
}

/// BB: B1-01 resigned; B1-05 is determined; the notification is sent and served on Mon 30 Nov 2026 (the week
/// ends Mon 7 Dec 2026).
fn bb_offered(snapshot: Value) -> (Council, String, Vec<Effect>) {
    let mut b = body(snapshot);
    let e = run(&mut b, "vacancy.reported", bb_vacancy("B1-01"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "notification.served",
        json!({"body": BB, "case": case, "candidate": "B1-05", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), e)
}

/// The week ended in silence: the election is deemed accepted (§ 51 Abs. 1 Satz 2 BbgKWahlG).
fn bb_filled() -> (Council, String, Vec<Effect>) {
    let (mut b, case, _) = bb_offered(example("bb-election.json"));
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
fn bb_bbgkwahlg_51_abs_1_offer_and_announcement_texts() {
    let (_, _, e) = bb_offered(example("bb-election.json"));
    render(&e, "bb-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(
        offer.contains(
            "Nach § 60 Abs. 3 Satz 1 und Abs. 6 des Brandenburgischen Kommunalwahlgesetzes (BbgKWahlG) habe ich am"
        ),
        "{offer}"
    );
    assert!(
        offer.contains("an erster Stelle der Reihenfolge stehen und der frei gewordene Sitz auf Sie übergeht"),
        "{offer}"
    );
    assert!(offer.contains("Ich fordere Sie auf, binnen einer Woche nach Zustellung dieser Benachrichtigung schriftlich zu erklären, ob Sie die Wahl annehmen (§ 51 Abs. 1 Satz 1 BbgKWahlG, § 80 Abs. 1 Satz 1 BbgKWahlV)."), "{offer}");
    assert!(
        offer.contains("gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 51 Abs. 1 Satz 2 BbgKWahlG)"),
        "{offer}"
    );
    assert!(
        offer.contains("Eine Erklärung unter Vorbehalt gilt als Ablehnung (§ 51 Abs. 1 Satz 3 BbgKWahlG)."),
        "{offer}"
    );
    assert!(offer.contains("(§ 60 Abs. 4 BbgKWahlG)"), "{offer}");
    assert!(!offer.contains("vier Monate"), "no bar, no proof: {offer}");
    let (_, _, e) = bb_filled();
    render(&e, "bb-successor-member");
    let text = text_of(&e, "successor");
    assert!(text.contains("Die Mitgliedschaft in der Vertretung beginnt am 08.12.2026; die Wahl gilt nach § 51 Abs. 1 Satz 2 BbgKWahlG als angenommen"), "{text}");
    assert!(text.contains("innerhalb von zwei Wochen nach dieser Bekanntmachung bei der Wahlleitung, Am Markt 1, 14999 Musterwalde, Einspruch erhoben werden (§ 55 des Brandenburgischen Kommunalwahlgesetzes)"), "{text}");
}

#[test]
fn bb_bbgkwahlg_60_abs_5_vacancy_texts_the_seat_stays_unbesetzt_the_size_falls() {
    // B2-02 died: the Wählergruppe's Wahlvorschlag has no Ersatzperson left
    let mut b = body(example("bb-election.json"));
    let e = run(&mut b, "vacancy.reported", bb_vacancy("B2-01"), now());
    render(&e, "bb-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("dass für den frei gewordenen Sitz keine Ersatzperson vorhanden ist"), "{text}");
    assert!(text.contains("(§ 60 Abs. 5 Satz 1 BbgKWahlG)"), "{text}");
    assert!(text.contains("vermindert sich für die Wahlperiode auf 27 (§ 60 Abs. 5 Satz 2 BbgKWahlG)"), "{text}");
    let mut b = body(example("bb-election.json"));
    let e = run(&mut b, "vacancy.reported", bb_vacancy("E1-01"), now());
    render(&e, "bb-vacancy-individual");
    assert!(text_of(&e, "vacancy").contains("Einzelbewerberin oder Einzelbewerber gewählt worden ist"));
}

#[test]
fn bb_bbgkwahlg_62_abs_3_vacancy_text_after_a_ban() {
    let mut b = body(example("bb-election.json"));
    let mut v = bb_vacancy("B1-01");
    v["reason"] = json!("party_banned");
    v["list_banned"] = json!(true);
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "bb-vacancy-party-banned");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("durch das Verbot einer Partei oder politischen Vereinigung verloren hat"), "{text}");
    assert!(text.contains("(§ 62 Abs. 1 bis 3 Satz 1 BbgKWahlG)"), "{text}");
    assert!(text.contains("auf 27 (§ 62 Abs. 3 Satz 2 BbgKWahlG)"), "{text}");
}

#[test]
fn bb_bbgkwahlg_56_58_review_text() {
    let (filled, case, _) = bb_filled();
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, BB, "confirmed", None, None), later());
    render(&e, "bb-review-confirmed");
    let text = text_of(&e, "review");
    assert!(text.contains("Über die Wahleinsprüche gegen meine Feststellung"), "{text}");
    assert!(text.contains("(§§ 55, 56 des Brandenburgischen Kommunalwahlgesetzes)"), "{text}");
    // not yet final: the Klage of § 58 Abs. 2, no Widerspruch
    let mut b = filled.clone();
    let v = not_final(review(&case, BB, "confirmed", None, None));
    let e = run(&mut b, "review.decided", v, later());
    render(&e, "bb-review-not-final");
    let text = text_of(&e, "review");
    assert!(
        text.contains(
            "ein Widerspruchsverfahren findet nicht statt (§ 58 Abs. 2 des Brandenburgischen Kommunalwahlgesetzes)"
        ),
        "{text}"
    );
}

#[test]
fn bb_bbgkwahlg_51_abs_2_offer_to_a_barred_ersatzperson_asks_for_the_termination_declaration_and_names_the_four_months()
{
    let mut s = example("bb-election.json");
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2025-01-01", "reason": "Beschäftigte der Stadt Musterwalde"}]);
    let (_, _, e) = bb_offered(s);
    render(&e, "bb-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("(Beschäftigte der Stadt Musterwalde; § 12 Abs. 1 bis 3 BbgKWahlG)"), "{offer}");
    assert!(offer.contains("dass Sie die zur Beendigung Ihres Beamten- oder Arbeitnehmerverhältnisses erforderliche Erklärung abgegeben haben"), "{offer}");
    assert!(offer.contains("spätestens vier Monate nach Annahme der Wahl nachzuweisen"), "{offer}");
    assert!(offer.contains("(§ 51 Abs. 2 Satz 3, § 59 Abs. 1 Nr. 6 BbgKWahlG)"), "{offer}");
    // § 51 Abs. 2 Satz 2: for him silence without the proof is refusal, not acceptance — one sentence, not two
    assert!(!offer.contains("- Geben Sie bis zum Ablauf der Frist keine Erklärung ab"), "{offer}");
    assert!(offer.contains("gilt die Wahl als abgelehnt (§ 51 Abs. 2 Satz 2 und 4 BbgKWahlG); das gilt auch, wenn Sie die Annahme erklärt oder keine Erklärung abgegeben haben."), "{offer}");
}
