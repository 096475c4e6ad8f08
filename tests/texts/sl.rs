//! Saarland: the shared declaration-model templates with the sentences of law/sl.txt (§ 43, § 17, § 50 KWG,
//! §§ 56, 57 KWO). § 44 KWG was not read: no text cites it, and the Wahlleitung confirms every determination.
//! Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const SL: &str = "musterweiler-gemeinderat";

/// The Wahlleitung confirms the proposal of round 1 of `case` on 30 Nov 2026 (`determination.confirmed`).
fn confirmed(b: &mut Council, body: &str, case: &str, by: &str) -> Vec<Effect> {
    let data = json!({"body": body, "case": case, "round": 1, "confirmed_by": by, "confirmed_at": "2026-11-30T10:00:00+01:00"});
    run(b, "determination.confirmed", data, now())
}

/// SL: BP-N-01 (Bereichsliste Nord) resigned; BP-N-02 refused earlier, BP-N-03 is proposed; the Wahlleitung
/// confirms, the notification is sent and served on 30 Nov 2026.
fn sl_offered() -> (Council, String, Vec<Effect>, Vec<Effect>) {
    let mut b = body(example("sl-election.json"));
    let e = run(&mut b, "vacancy.reported", example("sl-vacancy.json"), now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_))), "the Wahlleitung confirms first");
    let case = b.cases.keys().next().expect("case").clone();
    let offer = confirmed(&mut b, SL, &case, "Gemeindewahlleiterin Sabine Saarwald");
    notification_sent(&mut b, &case);
    let served = run(
        &mut b,
        "notification.served",
        json!({"body": SL, "case": case, "candidate": "BP-N-03", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), offer, served)
}

#[test]
fn sl_43_kwg_57_kwo_offer_period_notice_and_announcement_texts() {
    let (mut b, case, offer, served) = sl_offered();
    render(&offer, "sl-successor-offer");
    let mail = text_of(&offer, "mail");
    assert!(mail.contains("Nach § 57 Abs. 1 Satz 1 der Kommunalwahlordnung (KWO) habe ich am"), "{mail}");
    assert!(
        mail.contains(
            "dass Sie als Ersatzperson des Wahlvorschlags „Bürgerpartei Musterweiler – Bereichsliste Nord“ in"
        ),
        "{mail}"
    );
    assert!(
        mail.contains("(§ 43 Satz 1 des Kommunalwahlgesetzes (KWG) in Verbindung mit § 56 und § 57 Abs. 4 KWO)"),
        "{mail}"
    );
    assert!(
        mail.contains("Frank Fuchs – hat die Annahme der Wahl abgelehnt (§ 43 Satz 4 KWG i. V. m. § 57 Abs. 4 KWO)"),
        "{mail}"
    );
    assert!(mail.contains("stellt die Wahlleitung in jenem Fall fest"), "{mail}");
    render(&served, "sl-period-notice");
    let e = procedure::handle(
        &mut b,
        Command::DeadlineExpired { case: case.clone().into(), round: 1 },
        "2026-12-07T23:00:01Z".parse().expect("t"),
        &Settings::default(),
    )
    .expect("deadline");
    render(&e, "sl-successor-member");
    let text = text_of(&e, "successor");
    assert!(
        text.contains("die Wahl gilt nach § 43 Satz 2 KWG in Verbindung mit § 57 Abs. 4 KWO als angenommen"),
        "{text}"
    );
    assert!(text.contains("Widerspruch erhoben werden"), "{text}");
    assert!(text.contains("Kaiser-Wilhelm-Straße") || text.contains("Rathausplatz 1, 66999 Musterweiler"), "{text}");
    // the unread § 44 KWG is cited nowhere
    for t in [&mail, &text] {
        assert!(!t.contains("§ 44"), "{t}");
    }
}

#[test]
fn sl_56_abs_3_kwo_offer_to_a_barred_ersatzperson_asks_for_the_proof() {
    let mut s = example("sl-election.json");
    s["lists"][1]["candidates"][2]["facts"] =
        json!([{"type": "barred", "on": "2025-01-01", "reason": "Beschäftigte der Gemeinde Musterweiler"}]);
    let mut b = body(s);
    run(&mut b, "vacancy.reported", example("sl-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    let e = confirmed(&mut b, SL, &case, "Gemeindewahlleiterin Sabine Saarwald");
    render(&e, "sl-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("(Beschäftigte der Gemeinde Musterweiler; § 17 Abs. 1 KWG)"), "{offer}");
    assert!(offer.contains("(§ 56 Abs. 3 in Verbindung mit § 57 Abs. 4 KWO)"), "{offer}");
}

#[test]
fn sl_50_abs_3_kwg_vacancy_text_after_a_party_ban_the_statutory_size_falls() {
    let mut b = body(example("sl-election.json"));
    let v = json!({"body": SL, "member": "BP-G-01", "reason": "party_banned", "list_banned": true, "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "sl-vacancy-party-ban");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("vermindert sich für den Rest der Wahlperiode auf 26 (§ 50 Abs. 3 KWG)"), "{text}");
    assert!(text.contains("(§ 50 Abs. 1 Satz 1 KWG)"), "{text}");
}

#[test]
fn sl_57_abs_1_satz_2_kwo_an_exhausted_list_is_neither_announced_nor_filled() {
    let mut s = example("sl-election.json");
    s["lists"][2]["candidates"][1]["facts"] = json!([{"type": "declined", "on": "2025-05-01"}]);
    let mut b = body(s);
    let v = json!({"body": SL, "member": "BP-S-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    assert!(e.iter().all(|e| !matches!(e, Effect::Mail(_) | Effect::Announce(_))), "{e:#?}");
    let left = e.iter().find_map(|e| match e {
        Effect::Publish { event_type: "seat.left_vacant", data } => Some(data.clone()),
        _ => None,
    });
    let left = left.expect("seat.left_vacant");
    assert_eq!(left["reason"], "returning_officer_decides");
    assert_eq!(left["statutory_size"], 27);
}

/// § 57 Abs. 2 i. V. m. § 55 Abs. 2 KWO: in a majority election the offer names the Ersatzleute's norm of a majority
/// election, not the Gebiets- and Bereichslisten's (§ 57 Abs. 1).
#[test]
fn sl_57_abs_2_kwo_the_offer_after_a_majority_election_cites_its_norm() {
    let mut s = example("sl-election.json");
    s["body"]["electoral_system"] = json!("majority");
    let list = s["lists"][0].clone();
    s["lists"] = json!([list]);
    for (i, votes) in [900, 800, 300, 500].iter().enumerate() {
        s["lists"][0]["candidates"][i]["votes"] = json!(votes);
    }
    let mut b = body(s);
    let v = json!({"body": SL, "member": "BP-G-01", "reason": "resigned", "effective_at": "2026-11-30T00:00:00+01:00"});
    run(&mut b, "vacancy.reported", v, now());
    let case = b.cases.keys().next().expect("case").clone();
    let offer = confirmed(&mut b, SL, &case, "Gemeindewahlleiterin Sabine Saarwald");
    let text = text_of(&offer, "mail");
    assert!(
        text.contains("Nach § 57 Abs. 2 in Verbindung mit § 55 Abs. 2 Satz 1 der Kommunalwahlordnung (KWO)"),
        "{text}"
    );
    assert!(
        text.contains("Bernhard Bauer – ist bereits berufen (§ 57 Abs. 2 i. V. m. § 55 Abs. 2 Satz 1 KWO)"),
        "{text}"
    );
    assert!(!text.contains("§ 57 Abs. 1"), "{text}");
}

/// The Regionalversammlung des Regionalverbands Saarbrücken (§ 205 Abs. 3 KSVG): the offer names the
/// Regionalversammlung, never the Gemeinderat or a Kreistag, and cites § 57 KWO in entsprechender Anwendung.
#[test]
fn sl_205_abs_3_ksvg_the_offer_to_an_ersatzperson_of_the_regionalversammlung() {
    const RV: &str = "regionalverband-saarbruecken-rv";
    let mut s = example("sl-election.json");
    s["body"]["kind"] = json!("regionalversammlung");
    s["body"]["id"] = json!(RV);
    s["body"]["name"] = json!("Regionalversammlung des Regionalverbands Saarbrücken");
    s["body"]["returning_officer"] = json!({
        "name": "Peter Regional",
        "title": "Wahlleiter",
        "email": "wahlleitung@regionalverband-saarbruecken.de",
        "address": "Regionalverband Saarbrücken, Schloßplatz 1, 66119 Saarbrücken"
    });
    let mut b = body(s);
    let v = json!({"body": RV, "member": "BP-N-01", "reason": "resigned", "effective_at": "2026-11-30T00:00:00+01:00"});
    run(&mut b, "vacancy.reported", v, now());
    let case = b.cases.keys().next().expect("case").clone();
    let offer = confirmed(&mut b, RV, &case, "Wahlleiter Peter Regional");
    render(&offer, "regionalversammlung-sl-successor-offer");
    let text = text_of(&offer, "mail");
    assert!(text.contains("§ 57 Abs. 1 Satz 1 der Kommunalwahlordnung (KWO) in entsprechender Anwendung"), "{text}");
    assert!(text.contains("in die Regionalversammlung nachrücken"), "{text}");
    assert!(!text.contains("Gemeinderat") && !text.contains("Kreistag") && !text.contains("Vertretung"), "{text}");
}
