//! Schleswig-Holstein: the shared declaration-model templates with the sentences of law/sh.txt (§§ 37, 38, 44
//! GKWG, § 31a GO). Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const SH: &str = "musterwik-gemeindevertretung";

/// SH: K1-01 (won WK 1) resigned; K1-05, the next on the list not passed over, is determined; the
/// notification is sent and served on 30 Nov 2026 (the week ends Mon 7 Dec 2026).
fn sh_offered() -> (Council, String, Vec<Effect>) {
    let mut b = body(example("sh-election.json"));
    let e = run(&mut b, "vacancy.reported", example("sh-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "notification.served",
        json!({"body": SH, "case": case, "candidate": "K1-05", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), e)
}

/// The week ended without a refusal: membership by § 37 Satz 1 GKWG.
fn sh_filled() -> (Council, String, Vec<Effect>) {
    let (mut b, case, _) = sh_offered();
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
fn sh_gkwg_37_satz_1_offer_and_announcement_texts() {
    let (_, _, e) = sh_offered();
    render(&e, "sh-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("Sie erwerben die Mitgliedschaft in der Vertretung automatisch nach Ablauf einer Woche nach Zustellung dieser Benachrichtigung, wenn Sie nicht innerhalb dieser Wochenfrist durch schriftliche Erklärung mir gegenüber die Wahl ablehnen"), "{offer}");
    assert!(!offer.contains("Ich fordere Sie auf"), "{offer}");
    assert!(offer.contains("Eine Erklärung unter Vorbehalt gilt als Ablehnung (§ 37 Satz 2 GKWG)"), "{offer}");
    assert!(offer.contains("hat die Annahme der Wahl abgelehnt (§ 44 Abs. 1 i. V. m. § 37 Satz 3 GKWG)"), "{offer}");
    let (_, _, e) = sh_filled();
    render(&e, "sh-successor-member");
    let text = text_of(&e, "successor");
    assert!(text.contains("Die Mitgliedschaft in der Vertretung beginnt am 08.12.2026; sie ist nach § 37 Satz 1 GKWG mit Ablauf der Wochenfrist erworben"), "{text}");
    assert!(text.contains("binnen eines Monats nach dieser Bekanntmachung Einspruch erheben"), "{text}");
    assert!(
        text.contains("bleibt im Amt, bis über einen Einspruch unanfechtbar entschieden ist (§ 44 Abs. 3 Satz 4 GKWG)"),
        "{text}"
    );
}

#[test]
fn sh_gkwg_37a_abs_1_offer_to_a_successor_with_an_unvereinbarkeit_asks_for_the_written_proof_of_leave() {
    let mut s = example("sh-election.json");
    s["lists"][0]["candidates"][4]["facts"] =
        json!([{"type": "barred", "on": "2025-01-01", "reason": "Beschäftigte der Gemeinde Musterwik"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("sh-vacancy.json"), now());
    render(&e, "sh-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("(Beschäftigte der Gemeinde Musterwik; § 31a Abs. 1 der Gemeindeordnung (GO))"), "{offer}");
    // § 37a Abs. 1 Satz 1 GKWG: membership only with the written proof, not by the end of the week alone
    assert!(
        offer.contains(
            "erwerben Sie die Mitgliedschaft in der Vertretung abweichend von § 37 GKWG erst mit dem Nachweis"
        ),
        "{offer}"
    );
    assert!(
        offer.contains(
            "Bitte weisen Sie mir schriftlich nach, dass Sie von Ihrem Dienst- oder Arbeitsverhältnis beurlaubt sind"
        ),
        "{offer}"
    );
    assert!(!offer.contains("automatisch"), "{offer}");
    assert!(offer.contains("- Lehnen Sie die Wahl nicht bis zum Ablauf der Frist schriftlich ab, erwerben Sie die Mitgliedschaft erst, wenn Sie mir schriftlich nachweisen, dass Sie von Ihrem Dienst- oder Arbeitsverhältnis beurlaubt sind oder Ihnen eine andere, mit dem Mandat vereinbare Funktion übertragen ist, frühestens jedoch mit Ablauf der Frist (§ 37 Satz 1, § 37a Abs. 1 Satz 1 GKWG); solange dieser Nachweis fehlt, werden Sie nicht Mitglied."), "{offer}");
    // § 31a Abs. 3 GO is for a post taken up by a member; it is no longer what the letter rests on
    assert!(!offer.contains("hindert den Erwerb der Mitgliedschaft nicht"), "{offer}");
    assert!(!offer.contains("§ 31a Abs. 3 GO"), "{offer}");
}

#[test]
fn sh_gkwg_44_abs_2_vacancy_texts_the_seat_stays_empty() {
    // W1-02 holds a seat: the Wählergemeinschaft's list is exhausted
    let mut b = body(example("sh-election.json"));
    let v = json!({"body": SH, "member": "W1-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "sh-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(
        text.contains("der Wahlvorschlag „Wählergemeinschaft Musterwik“ erschöpft ist (§ 44 Abs. 2 GKWG)"),
        "{text}"
    );
    assert!(text.contains("beträgt unverändert 19"), "{text}");
    // an Einzelbewerberin: no list behind her
    let mut b = body(example("sh-election.json"));
    let v = json!({"body": SH, "member": "E1-01", "reason": "resigned", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "sh-vacancy-individual");
    assert!(text_of(&e, "vacancy").contains("eine Liste daher nicht vorhanden ist (§ 44 Abs. 2 GKWG)"));
}

#[test]
fn sh_gkwg_39_review_texts() {
    let (filled, case, _) = sh_filled();
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, SH, "confirmed", None, Some("council")), later());
    render(&e, "sh-review-confirmed");
    let mut b = filled.clone();
    let open = not_final(review(&case, SH, "amended", Some("K1-06"), Some("council")));
    let e = run(&mut b, "review.decided", open, later());
    render(&e, "sh-review-amended");
    let text = text_of(&e, "review");
    assert!(text.contains("Über die Einsprüche gegen meine Feststellung"), "{text}");
    // § 58 Abs. 1 VwGO: the court with its seat and the period, not a pointer to another Belehrung
    assert!(text.contains("innerhalb eines Monats nach ihrer Zustellung Klage vor dem Verwaltungsgericht (Verwaltungsgericht Musterwik, Gerichtsstraße 1, 24990 Musterwik) erhoben werden"), "{text}");
    assert!(!text.contains("ergibt sich aus der Rechtsbehelfsbelehrung"), "{text}");
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, SH, "amended", Some("K1-06"), Some("council")), later());
    let text = text_of(&e, "review");
    assert!(text.contains("K1-06") || text.contains("Feddersen"), "{text}");
    assert!(!text.contains("aufgefordert"), "{text}");
}
