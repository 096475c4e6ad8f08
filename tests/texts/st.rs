//! Sachsen-Anhalt: the shared declaration-model templates with the sentences of law/st.txt (§ 47 KWG LSA,
//! § 42 KVG LSA, § 75 KWO LSA). Included by tests/texts.rs; its helpers are the parent's.

use super::*;

const ST: &str = "musterstedt-stadtrat";

/// ST: S1-02 resigned; S1-06 (most votes among those not passed over, tie with S1-07 by the order on the
/// Wahlvorschlag) is determined; the offer is sent and served.
fn st_offered() -> (Council, String, Vec<Effect>) {
    let mut b = body(example("st-election.json"));
    let e = run(&mut b, "vacancy.reported", example("st-vacancy.json"), now());
    let case = b.cases.keys().next().expect("case").clone();
    notification_sent(&mut b, &case);
    run(
        &mut b,
        "notification.served",
        json!({"body": ST, "case": case, "candidate": "S1-06", "method": "certificate", "on": "2026-11-30"}),
        now(),
    );
    (b, case.to_string(), e)
}

#[test]
fn st_kwg_lsa_43_offer_and_announcement_texts() {
    let (mut b, case, e) = st_offered();
    render(&e, "st-successor-offer");
    let offer = text_of(&e, "mail");
    assert!(
        offer.contains("gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 43 Abs. 1 Satz 2 KWG LSA)"),
        "{offer}"
    );
    assert!(offer.contains("Eine Erklärung unter Vorbehalt gilt als Ablehnung (§ 43 Abs. 1 Satz 3 KWG LSA)"));
    assert!(offer.contains("die Partei hat dies der Wahlleitung vor dem Freiwerden des Sitzes schriftlich mitgeteilt (§ 47 Abs. 1 Satz 2 KWG LSA)"), "{offer}");
    let e = run(
        &mut b,
        "declaration.received",
        json!({"body": ST, "case": case, "candidate": "S1-06", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    render(&e, "st-successor-accepted");
    let text = text_of(&e, "successor");
    assert!(text.contains("Wahleinspruch erhoben werden"), "{text}");
    assert!(text.contains("(§ 50 Abs. 1 bis 3 des Kommunalwahlgesetzes für das Land Sachsen-Anhalt)"), "{text}");
}

#[test]
fn st_kvg_lsa_42_abs_1_nr_3_barred_offer_asks_for_the_proof_within_the_week() {
    let mut s = example("st-election.json");
    s["lists"][0]["candidates"][5]["facts"] =
        json!([{"type": "barred", "on": "2025-01-01", "reason": "Beschäftigte der Stadtverwaltung"}]);
    let mut b = body(s);
    let e = run(&mut b, "vacancy.reported", example("st-vacancy.json"), now());
    render(&e, "st-barred-offer");
    let offer = text_of(&e, "mail");
    assert!(offer.contains("(Beschäftigte der Stadtverwaltung; § 41 Abs. 1 KVG LSA)"), "{offer}");
    // silence is acceptance (§ 43 Abs. 1 Satz 2 KWG LSA), and with the bar the mandate is lost at once — no
    // deemed refusal without a norm (issue 27)
    assert!(offer.contains("- Geben Sie bis zum Ablauf der Frist keine Erklärung ab, gilt die Wahl mit Beginn des folgenden Tages als angenommen (§ 43 Abs. 1 Satz 2 KWG LSA)."), "{offer}");
    assert!(offer.contains("Sie verlieren das Mandat dann sogleich wieder, auch wenn Sie die Annahme ausdrücklich erklärt haben (§ 42 Abs. 1 Nr. 3 KVG LSA)"), "{offer}");
    assert!(!offer.contains("als hätten Sie die Annahme der Wahl abgelehnt"), "{offer}");
}

#[test]
fn st_kwo_lsa_75_abs_3_vacancy_texts_statutory_size_unchanged() {
    // S2-02 refused when the result was determined: the Wählergemeinschaft's Wahlvorschlag is exhausted
    let mut b = body(example("st-election.json"));
    let v = json!({"body": ST, "member": "S2-01", "reason": "died", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "st-vacancy");
    let text = text_of(&e, "vacancy");
    assert!(
        text.contains("der Wahlvorschlag „Wählergemeinschaft Musterstedt“ erschöpft ist (§ 47 Abs. 3 KWG LSA)"),
        "{text}"
    );
    assert!(text.contains("beträgt unverändert 28 (§ 49 Abs. 2 KWG LSA"), "{text}");
    // an Einzelbewerberin has no nächst festgestellte Bewerber (§ 41 Abs. 1 KWG LSA)
    let mut b = body(example("st-election.json"));
    let v = json!({"body": ST, "member": "S3-01", "reason": "resigned", "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "st-vacancy-individual");
    assert!(text_of(&e, "vacancy").contains("als Einzelbewerberin oder Einzelbewerber gewählt worden ist"));
    // § 47 Abs. 2 Nr. 1 KWG LSA: the banned party's Wahlvorschlag
    let mut b = body(example("st-election.json"));
    let v = json!({"body": ST, "member": "S1-01", "reason": "party_banned", "list_banned": true, "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    render(&e, "st-vacancy-party-ban");
    let text = text_of(&e, "vacancy");
    assert!(text.contains("vom Bundesverfassungsgericht für verfassungswidrig erklärt worden ist"), "{text}");
    assert!(!text.contains("erschöpft"), "{text}");
}

#[test]
fn st_kwg_lsa_52_abs_2_review_texts() {
    let (mut filled, case, _) = st_offered();
    run(
        &mut filled,
        "declaration.received",
        json!({"body": ST, "case": case, "candidate": "S1-06", "kind": "accept", "received_at": "2026-12-02T10:00:00+01:00"}),
        "2026-12-02T09:30:00Z".parse().expect("time"),
    );
    let mut b = filled.clone();
    let e = run(&mut b, "review.decided", review(&case, ST, "confirmed", None, Some("council")), later());
    render(&e, "st-review-confirmed");
    let mut b = filled.clone();
    // the Vertretung's decision while the Klage is still open (§ 53 KWG LSA)
    let open = not_final(review(&case, ST, "amended", Some("S1-07"), Some("council")));
    let e = run(&mut b, "review.decided", open, later());
    render(&e, "st-review-amended");
    let text = text_of(&e, "review");
    assert!(text.contains("Über die Wahleinsprüche gegen meine Feststellung"), "{text}");
    assert!(text.contains("Klage vor dem Verwaltungsgericht (Verwaltungsgericht Musterstedt, Justizzentrum 1, 06100 Musterstedt) erhoben werden (§ 53 KWG LSA)"), "{text}");
}

/// § 47 Abs. 2 Nr. 2, § 48 Abs. 1 Satz 2 KWG LSA: a member of the banned party elected on another Wahlvorschlag —
/// the worker offers the seat on his Wahlvorschlag, past the nächst festgestellte Bewerberin the Wahlleitung recorded
/// as a member of the banned party, and the letter names the reason in German.
#[test]
fn st_kwg_lsa_47_abs_2_nr_2_party_ban_of_a_member_on_another_wahlvorschlag_the_seat_passes() {
    let mut b = body(example("st-election.json"));
    let fact = json!({"body": ST, "candidate": "S1-06", "fact": {"type": "banned_party_member", "on": "2026-11-27"}});
    run(&mut b, "candidate.fact_recorded", fact, now());
    let v = json!({"body": ST, "member": "S1-01", "reason": "party_banned", "list_banned": false, "effective_at": "2026-11-28T00:00:00+01:00"});
    let e = run(&mut b, "vacancy.reported", v, now());
    let determined = e
        .iter()
        .find_map(|e| match e {
            Effect::Publish { event_type, data } if *event_type == "succession.determined" => Some(data.clone()),
            _ => None,
        })
        .expect("succession.determined");
    assert_eq!(determined["successor"]["id"], "S1-07", "{determined}");
    let text = text_of(&e, "mail");
    assert!(
        text.contains("gehörte der verbotenen Partei oder Vereinigung an und hat die Anwartschaft verloren"),
        "{text}"
    );
    assert!(text.contains("§ 48 Abs. 1 Satz 2 i. V. m. § 47 Abs. 2 Nr. 2 KWG LSA"), "{text}");
}
